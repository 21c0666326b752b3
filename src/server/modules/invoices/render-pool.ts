import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RenderOptions, StoredDocument } from './pdf';

/**
 * PDFs are rendered on worker threads (decision 030): a document is milliseconds of synchronous
 * font subsetting, layout and deflate, which on the main thread would hold up every other request
 * and let ten downloads at once queue behind one another on one core.
 *
 * Threads start on the first render, up to one per core, and stop after a while without work, so
 * a server that never renders a PDF carries none of their memory.
 */

export interface RenderTask {
  id: number;
  doc: StoredDocument;
  opts: RenderOptions;
}

export type RenderReply = { id: number; pdf: Uint8Array } | { id: number; error: string };

const THREADS = Math.max(1, Math.min(4, availableParallelism()));
const IDLE_MS = 30_000;
/** A render that takes longer has gone wrong: its thread is stopped, so it cannot hold a core for ever. */
const RENDER_TIMEOUT_MS = 20_000;
/**
 * A document needs a small heap; under V8's default limits a thread's heap grows to several times
 * that before it is collected, resident memory held for nothing (decision 030 has the figures).
 */
const LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 96 };

/**
 * The thread's entry beside this file: the bundle's `render-worker.js` (scripts/build-server.mjs
 * keeps every file of the bundle in one directory), or the source through tsx's loader.
 */
function workerEntry(): { url: URL; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return { url: new URL('./render-worker.js', import.meta.url), execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { url: new URL('./render-worker.ts', import.meta.url), execArgv: ['--import', tsx] };
}

interface Pending {
  task: RenderTask;
  timeoutMs: number;
  resolve: (pdf: Buffer) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  current: Pending | null;
  /** while busy, the render's deadline; while idle, when the thread stops */
  timer: NodeJS.Timeout | null;
}

const queue: Pending[] = [];
const threads = new Set<Thread>();
let nextId = 1;

function start(): Thread {
  const { url, execArgv } = workerEntry();
  const thread: Thread = { worker: new Worker(url, { execArgv, resourceLimits: LIMITS }), current: null, timer: null };
  thread.worker.on('message', (reply: RenderReply) => {
    const done = thread.current;
    if (!done || done.task.id !== reply.id) return;
    thread.current = null;
    clearTimer(thread);
    if ('pdf' in reply) done.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
    else done.reject(new Error(`the PDF could not be rendered: ${reply.error}`));
    idle(thread);
  });
  // a thread that dies (out of memory, a crash in a native module) fails its document and is replaced
  thread.worker.on('error', (err) => drop(thread, err));
  thread.worker.on('exit', (code) => drop(thread, new Error(`the PDF renderer stopped (exit code ${code})`)));
  threads.add(thread);
  return thread;
}

function clearTimer(thread: Thread) {
  if (thread.timer) clearTimeout(thread.timer);
  thread.timer = null;
}

/** Takes a thread out of the pool, failing the document it was rendering. */
function drop(thread: Thread, err: Error) {
  if (!threads.delete(thread)) return;
  clearTimer(thread);
  const failed = thread.current;
  thread.current = null;
  failed?.reject(err);
  dispatch();
}

function idle(thread: Thread) {
  const next = queue.shift();
  if (next) return assign(thread, next);
  // an idle thread does not keep the process alive, and stops when nothing comes for a while
  thread.worker.unref();
  thread.timer = setTimeout(() => {
    threads.delete(thread);
    void thread.worker.terminate();
  }, IDLE_MS).unref();
}

function assign(thread: Thread, pending: Pending) {
  clearTimer(thread);
  thread.current = pending;
  thread.worker.ref();
  thread.timer = setTimeout(() => {
    drop(thread, new Error(`the PDF took longer than ${pending.timeoutMs} ms to render`));
    void thread.worker.terminate();
  }, pending.timeoutMs);
  thread.worker.postMessage(pending.task);
}

function dispatch() {
  while (queue.length > 0) {
    let thread = [...threads].find((t) => t.current === null);
    if (!thread && threads.size < THREADS) {
      try {
        thread = start();
      } catch (err) {
        queue.shift()!.reject(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
    }
    if (!thread) return;
    assign(thread, queue.shift()!);
  }
}

/** The document as PDF, rendered on a thread of the pool within `timeoutMs` of a thread taking it. */
export function renderOnPool(doc: StoredDocument, opts: RenderOptions = {}, timeoutMs = RENDER_TIMEOUT_MS): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    queue.push({ task: { id: nextId++, doc, opts }, timeoutMs, resolve, reject });
    dispatch();
  });
}
