import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { RenderOptions, StoredDocument } from './pdf';

/**
 * PDFs are rendered on worker threads (decision 030, Piscina): a document is milliseconds of
 * synchronous font subsetting, layout and deflate, which on the main thread would hold up every
 * other request and let ten downloads at once queue behind one another on one core.
 *
 * Threads start on the first render, up to one per core, and stop after a while without work, so
 * a server that never renders a PDF carries none of their memory.
 */

export interface RenderTask {
  doc: StoredDocument;
  opts: RenderOptions;
}

const THREADS = Math.max(1, Math.min(4, availableParallelism()));
const IDLE_MS = 30_000;
/** A render not done by then has gone wrong: its thread is stopped, so it cannot hold a core for ever. */
const RENDER_TIMEOUT_MS = 20_000;
/**
 * A document needs a small heap; under V8's default limits a thread's heap grows to several times
 * that before it is collected, resident memory held for nothing (decision 030 has the figures).
 */
const LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 96 };

/**
 * The thread's module beside this file: the bundle's `render-worker.js` (scripts/build-server.mjs
 * keeps every file of the bundle in one directory), or the source through tsx's loader.
 */
function workerModule(): { filename: string; execArgv: string[] } {
  if (!import.meta.url.endsWith('.ts')) return { filename: new URL('./render-worker.js', import.meta.url).href, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: new URL('./render-worker.ts', import.meta.url).href, execArgv: ['--import', tsx] };
}

let pool: Piscina<RenderTask, Uint8Array> | undefined;

/** The document as PDF, rendered on a thread of the pool within `timeoutMs` of being asked for. */
export async function renderOnPool(doc: StoredDocument, opts: RenderOptions = {}, timeoutMs = RENDER_TIMEOUT_MS): Promise<Buffer> {
  pool ??= new Piscina({ ...workerModule(), minThreads: 0, maxThreads: THREADS, idleTimeout: IDLE_MS, resourceLimits: LIMITS });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const pdf = await pool.run({ doc, opts }, { signal });
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  } catch (err) {
    if (signal.aborted) throw new Error(`the PDF took longer than ${timeoutMs} ms to render`);
    throw new Error(`the PDF could not be rendered: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}
