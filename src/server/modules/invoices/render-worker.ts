/**
 * A thread of the render pool (render-pool.ts): renders the documents it is sent, one at a time.
 * Its own copy of the fonts, parsed once when the thread starts.
 */
import { parentPort } from 'node:worker_threads';
import { renderDocumentPdf } from './pdf';
import type { RenderReply, RenderTask } from './render-pool';

const port = parentPort;
if (!port) throw new Error('render-worker runs only as a worker thread');

port.on('message', (task: RenderTask) => {
  renderDocumentPdf(task.doc, task.opts).then(
    (pdf) => {
      // Node's Buffers may not be transferred (they can share memory), so a plain copy moves instead
      const own = new Uint8Array(pdf);
      const reply: RenderReply = { id: task.id, pdf: own };
      port.postMessage(reply, [own.buffer]);
    },
    (err: unknown) => {
      const reply: RenderReply = { id: task.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      port.postMessage(reply);
    },
  );
});
