/**
 * A thread of the render pool (render-pool.ts): renders the documents Piscina gives it, with its
 * own copy of the fonts, parsed once when the thread starts.
 */
import { move } from 'piscina';
import { renderDocumentPdf } from './pdf';
import type { RenderTask } from './render-pool';

export default async function render(task: RenderTask): Promise<Uint8Array> {
  const pdf = await renderDocumentPdf(task.doc, task.opts);
  // Node's Buffers may not be transferred (they can share memory), so a plain copy moves instead
  return move(new Uint8Array(pdf)) as Uint8Array;
}
