import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Autosaver, type SaveState } from '../../src/client/features/placements/components/brief/autosaver';

class HttpLikeError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A form with one value, a fake server that records what it received, and the saver's states. */
function setup() {
  const form = { text: '' };
  const received: string[] = [];
  const states: SaveState['kind'][] = [];
  let fail: Error | null = null;
  let pending: (() => void) | null = null;
  let hold = false;
  const save = vi.fn(async (snap: { text: string }) => {
    if (hold) await new Promise<void>((resolve) => (pending = resolve));
    if (fail) throw fail;
    received.push(snap.text);
  });
  const saver = new Autosaver(save, () => ({ ...form }), (s) => states.push(s.kind));
  const type = (text: string) => {
    form.text = text;
    saver.change();
  };
  return {
    saver,
    save,
    received,
    states,
    type,
    failWith: (e: Error | null) => (fail = e),
    holdSaves: (on: boolean) => (hold = on),
    releaseSave: () => pending?.(),
  };
}

describe('Autosaver (brief form)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves 1000 ms after the last blur, once', async () => {
    const t = setup();
    t.type('a');
    t.saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    t.type('ab');
    t.saver.schedule();
    await vi.advanceTimersByTimeAsync(999);
    expect(t.save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.received).toEqual(['ab']);
    expect(t.saver.dirty).toBe(false);
    expect(t.states).toEqual(['saving', 'saved']);
  });

  it('does not save without a change, except when forced (Next)', async () => {
    const t = setup();
    t.saver.schedule();
    await vi.advanceTimersByTimeAsync(2000);
    expect(await t.saver.flush()).toBe(true);
    expect(t.save).not.toHaveBeenCalled();
    expect(await t.saver.flush(true)).toBe(true);
    expect(t.save).toHaveBeenCalledTimes(1);
  });

  it('keeps a change typed while a save is in flight and sends it next, in order', async () => {
    const t = setup();
    t.holdSaves(true);
    t.type('first');
    const first = t.saver.flush();
    await vi.advanceTimersByTimeAsync(0);
    t.type('first and more');
    const second = t.saver.flush();
    t.holdSaves(false);
    t.releaseSave();
    await first;
    await second;
    expect(t.received).toEqual(['first', 'first and more']);
    expect(t.saver.dirty).toBe(false);
  });

  it('retries a failed save with backoff and says so; nothing typed is lost', async () => {
    const t = setup();
    t.failWith(new TypeError('Failed to fetch'));
    t.type('keep me');
    expect(await t.saver.flush()).toBe(false);
    expect(t.states.at(-1)).toBe('retrying');
    expect(t.saver.failing).toBe(true);
    await vi.advanceTimersByTimeAsync(1000); // retry 1 fails too
    expect(t.save).toHaveBeenCalledTimes(2);
    t.type('keep me, and this');
    t.failWith(null);
    await vi.advanceTimersByTimeAsync(2000); // retry 2 succeeds with the latest text
    expect(t.received).toEqual(['keep me, and this']);
    expect(t.saver.dirty).toBe(false);
    expect(t.states.at(-1)).toBe('saved');
  });

  it('gives up after five retries (state failed) and still saves on the next try', async () => {
    const t = setup();
    t.failWith(new HttpLikeError(503, 'Service unavailable'));
    t.type('x');
    await t.saver.flush();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 16000);
    expect(t.save).toHaveBeenCalledTimes(6);
    expect(t.states.at(-1)).toBe('failed');
    expect(t.saver.dirty).toBe(true);
    t.failWith(null);
    expect(await t.saver.flush()).toBe(true);
    expect(t.received).toEqual(['x']);
  });

  it('stops at once on a refusal retrying cannot fix; a 409 locks the form', async () => {
    const t = setup();
    t.failWith(new HttpLikeError(400, 'Name must be at most 200 characters'));
    t.type('y');
    await t.saver.flush();
    expect(t.states.at(-1)).toBe('failed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.save).toHaveBeenCalledTimes(1);

    t.failWith(new HttpLikeError(409, 'This article has been published; its brief can no longer change'));
    await t.saver.flush();
    expect(t.saver.locked).toBe(true);
    t.type('z');
    t.saver.schedule();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await t.saver.flush()).toBe(false);
    expect(t.save).toHaveBeenCalledTimes(2);
  });

  it('a 409 carrying the newer copy (another window saved first) pauses saving until the page has merged', async () => {
    const t = setup();
    const refused = Object.assign(new HttpLikeError(409, 'This brief was changed in another window since you opened it'), {
      body: { current: { version: 'v2' } },
    });
    t.failWith(refused);
    t.type('mine');
    expect(await t.saver.flush()).toBe(false);
    expect(t.states.at(-1)).toBe('conflict');
    expect(t.saver.locked).toBe(false);
    // no retries, no saves while the user chooses
    t.type('mine, more');
    t.saver.schedule();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await t.saver.flush()).toBe(false);
    expect(t.save).toHaveBeenCalledTimes(1);

    t.failWith(null);
    t.saver.resolved();
    expect(await t.saver.flush()).toBe(true);
    expect(t.received).toEqual(['mine, more']);
    expect(t.states.at(-1)).toBe('saved');
  });

  it('settle() waits for the save in flight and cancels the scheduled one (before a submit)', async () => {
    const t = setup();
    t.holdSaves(true);
    t.type('a');
    void t.saver.flush();
    t.type('ab');
    t.saver.schedule();
    const settled = t.saver.settle();
    t.holdSaves(false);
    t.releaseSave();
    await settled;
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.received).toEqual(['a']);
    t.saver.markSaved();
    expect(t.saver.dirty).toBe(false);
  });
});
