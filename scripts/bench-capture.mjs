/**
 * Preloaded into the benchmarked server by scripts/bench.ts (`node --import ./scripts/bench-capture.mjs
 * dist/server/main.js`; plain JavaScript, so the built server runs without a TypeScript loader):
 * records the SQL text, parameters and statement name (prepared statements) of every node-postgres query while the bench asks for it over
 * IPC ("capture:on" ... "capture:off"), so the bench can count the queries of one request and EXPLAIN
 * exactly those. Off, it costs one boolean test.
 */
import process from 'node:process';
import pg from 'pg';

/** @type {{ text: string; values: unknown[]; name?: string }[]} */
const captured = [];
let capturing = false;

const original = pg.Client.prototype.query;
pg.Client.prototype.query = function query(...args) {
  if (capturing) {
    const [q, v] = args;
    const text = typeof q === 'string' ? q : q?.text;
    const values = (typeof q === 'string' ? v : (q?.values ?? (Array.isArray(v) ? v : undefined))) ?? [];
    const name = typeof q === 'string' ? undefined : q?.name;
    // a value read on sending (db/statement.ts `readOnSend`) as node-postgres is about to read it
    const shown = (x) => (x instanceof Date ? x.toISOString() : typeof x?.toPostgres === 'function' ? x.toPostgres() : x);
    if (text) captured.push({ text, name, values: values.map(shown) });
  }
  return original.apply(this, args);
};

process.on('message', (message) => {
  if (message === 'capture:on') {
    captured.length = 0;
    capturing = true;
    process.send?.({ type: 'capture:ready' });
  } else if (message === 'capture:off') {
    capturing = false;
    process.send?.({ type: 'capture:done', captured: captured.splice(0) });
  }
});
