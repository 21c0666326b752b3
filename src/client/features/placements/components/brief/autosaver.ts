export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  /** a save failed; the next try is scheduled */
  | { kind: 'retrying'; attempt: number }
  /** retries used up, or the server refused; changes stay on the page until a save succeeds */
  | { kind: 'failed'; message: string }
  /** the server refuses every change (409: published or refunded) */
  | { kind: 'locked'; message: string }
  /** another window saved first (409 with the server's `current` copy): nothing saves until the page merges */
  | { kind: 'conflict'; message: string; current: unknown };

const AUTOSAVE_DEBOUNCE_MS = 1000;
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];

/**
 * Saves a form's changes without losing any: every change bumps a version; a save records the
 * version it sent, so a change typed while a save is in flight stays unsaved and is sent next.
 * One save at a time, in order. A failed save is retried with backoff; a refusal that retrying
 * cannot fix (409) locks the form.
 */
export class Autosaver<T> {
  private version = 0;
  private savedVersion = 0;
  private inflight: Promise<void> | null = null;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private state: SaveState = { kind: 'idle' };

  constructor(
    private readonly save: (snapshot: T) => Promise<unknown>,
    private readonly snapshot: () => T,
    private readonly onState: (state: SaveState) => void,
  ) {}

  get dirty() {
    return this.version !== this.savedVersion;
  }
  get locked() {
    return this.state.kind === 'locked';
  }
  get conflicted() {
    return this.state.kind === 'conflict';
  }
  get failing() {
    return this.state.kind === 'retrying' || this.state.kind === 'failed';
  }

  private set(state: SaveState) {
    this.state = state;
    this.onState(state);
  }

  /** A field changed. */
  change() {
    this.version++;
  }

  /** A field lost focus: save 1 s later unless another blur comes first. */
  schedule() {
    clearTimeout(this.debounce);
    if (!this.dirty || this.locked || this.conflicted) return;
    this.debounce = setTimeout(() => void this.flush(), AUTOSAVE_DEBOUNCE_MS);
  }

  /** Saves now (after any save in flight). `force` saves even without changes (Next). Resolves true once saved. */
  async flush(force = false): Promise<boolean> {
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
    while (this.inflight) await this.inflight;
    if (this.locked || this.conflicted) return false;
    if (!this.dirty && !force) return true;
    const sent = this.version;
    let ok = false;
    this.set({ kind: 'saving' });
    this.inflight = this.save(this.snapshot())
      .then(
        () => {
          ok = true;
          this.attempts = 0;
          this.savedVersion = Math.max(this.savedVersion, sent);
          this.set(this.dirty ? { kind: 'idle' } : { kind: 'saved' });
        },
        (err: unknown) => this.failed(err),
      )
      .finally(() => {
        this.inflight = null;
      });
    await this.inflight;
    return ok;
  }

  private failed(err: unknown) {
    // an ApiError carries the HTTP status; a network failure has none
    const status = typeof (err as { status?: unknown })?.status === 'number' ? (err as { status: number }).status : 0;
    const message = err instanceof Error && err.message ? err.message : 'The draft could not be saved';
    const current = (err as { body?: { current?: unknown } })?.body?.current;
    if (status === 409 && current) {
      this.attempts = 0;
      this.set({ kind: 'conflict', message, current });
      return;
    }
    if (status === 409) {
      this.set({ kind: 'locked', message });
      return;
    }
    // a refused body (400) or a lost session (401) will not heal by itself: stop retrying, keep the changes
    const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
    if (permanent || this.attempts >= RETRY_DELAYS_MS.length) {
      this.attempts = 0;
      this.set({ kind: 'failed', message });
      return;
    }
    const delay = RETRY_DELAYS_MS[this.attempts++];
    this.set({ kind: 'retrying', attempt: this.attempts });
    this.retry = setTimeout(() => void this.flush(), delay);
  }

  /** The page merged the newer copy into the form: saving may go on (the merge counts as a change). */
  resolved() {
    if (!this.conflicted) return;
    this.version++;
    this.set({ kind: 'idle' });
  }

  /** Marks everything up to now as saved (after a successful submit, which sent it all). */
  markSaved() {
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
    this.savedVersion = this.version;
    this.set({ kind: 'saved' });
  }

  /** Waits for a save in flight and cancels scheduled ones (before a submit). */
  async settle() {
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
    while (this.inflight) await this.inflight;
  }

  current(): T {
    return this.snapshot();
  }

  dispose() {
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
  }
}
