/**
 * Preloaded into the benchmarked server by scripts/bench.ts (`node --import ./scripts/bench-capture.mjs
 * dist/server/main.js`; plain JavaScript, so the built server runs without a TypeScript loader):
 * records the SQL text, parameters and statement name (prepared statements) of every node-postgres query while the bench asks for it over
 * IPC ("capture:on" ... "capture:off"), so the bench can count the queries of one request and EXPLAIN
 * exactly those. Off, node-postgres's own `query` is in place: the server measured is the one
 * production runs.
 */
import process from 'node:process';
import pg from 'pg';

/** @type {{ text: string; values: unknown[]; name?: string }[]} */
const captured = [];

const original = pg.Client.prototype.query;
function capturing(...args) {
  const [q, v] = args;
  const text = typeof q === 'string' ? q : q?.text;
  const values = (typeof q === 'string' ? v : (q?.values ?? (Array.isArray(v) ? v : undefined))) ?? [];
  const name = typeof q === 'string' ? undefined : q?.name;
  // a value read on sending (db/statement.ts `readOnSend`) as node-postgres is about to read it
  const shown = (x) => (x instanceof Date ? x.toISOString() : typeof x?.toPostgres === 'function' ? x.toPostgres() : x);
  if (text) captured.push({ text, name, values: values.map(shown) });
  return original.apply(this, args);
}

process.on('message', (message) => {
  if (message === 'capture:on') {
    captured.length = 0;
    pg.Client.prototype.query = capturing;
    process.send?.({ type: 'capture:ready' });
  } else if (message === 'capture:off') {
    pg.Client.prototype.query = original;
    process.send?.({ type: 'capture:done', captured: captured.splice(0) });
  }
});
