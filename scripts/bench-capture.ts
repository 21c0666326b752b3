/**
 * Preloaded into the benchmarked server by scripts/bench.ts (`node --import tsx --import
 * ./scripts/bench-capture.ts src/server/main.ts`): records the SQL text and parameters of every
 * node-postgres query while the bench asks for it over IPC ("capture:on" ... "capture:off"), so the
 * bench can count the queries of one request and EXPLAIN exactly those. Off, it costs one boolean test.
 */
import pg from 'pg';

type Captured = { text: string; values: unknown[] };
const captured: Captured[] = [];
let capturing = false;

const original = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function query(this: pg.Client, ...args: any[]) {
  if (capturing) {
    const [q, v] = args;
    const text: string | undefined = typeof q === 'string' ? q : q?.text;
    const values = (typeof q === 'string' ? v : (q?.values ?? (Array.isArray(v) ? v : undefined))) ?? [];
    if (text) captured.push({ text, values: values.map((x: unknown) => (x instanceof Date ? x.toISOString() : x)) });
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
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
