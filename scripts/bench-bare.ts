/**
 * The bare server of `npm run bench` (its capacity ratio): plain node:http + pg (Pool), no framework,
 * no validation, no permission check, no caching. For each request of the mix it runs the very SQL
 * statements the real server ran for that request — captured in the real server by
 * scripts/bench-capture.mjs, text, parameters and prepared statement's name — one after the other on
 * one pooled connection (a transaction's BEGIN … COMMIT included), and answers their rows as JSON,
 * compressed as the real server compresses a JSON answer (brotli or gzip at their fastest, from 2 KB)
 * for a client that accepts it. The request is told by its `x-bench-id` header (the mix's catalogue
 * number); the statements come from the JSON file of BENCH_BARE_STATEMENTS. Started as a child
 * process by scripts/bench.ts, which it tells its port over IPC. A write's made-up ids (a new
 * checkout's) are replaced by new ones each time, so that its inserts insert as the server's did.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import pg from 'pg';

interface Statement {
  text: string;
  values: unknown[];
  name?: string;
}

/** a request's statements, and the ids its write made up (replaced by new ones at each replay) */
const requests = new Map<string, { statements: Statement[]; fresh?: string[] }>(
  Object.entries(
    JSON.parse(readFileSync(process.env.BENCH_BARE_STATEMENTS!, 'utf8')) as Record<
      string,
      { statements: Statement[]; fresh?: string[] }
    >,
  ),
);

/** The statements with each made-up id replaced by a new one (as itself and without its dashes). */
function withNewIds(statements: Statement[], fresh: string[] | undefined): Statement[] {
  if (!fresh?.length) return statements;
  const pairs = fresh.flatMap((old) => {
    const id = randomUUID();
    return [
      [old, id],
      [old.replaceAll('-', ''), id.replaceAll('-', '')],
    ];
  });
  const swap = (v: unknown): unknown =>
    typeof v === 'string' ? pairs.reduce((s, [a, b]) => s.replaceAll(a, b), v) : Array.isArray(v) ? v.map(swap) : v;
  return statements.map((s) => ({ ...s, values: s.values.map(swap) }));
}
const pool = new pg.Pool({
  connectionString: process.env.BENCH_BARE_DATABASE_URL,
  max: Number(process.env.BENCH_BARE_POOL_SIZE ?? 10),
});
pool.on('error', () => {});

function encode(body: string, accept: string | undefined): { bytes: Buffer; encoding?: string } {
  const bytes = Buffer.from(body);
  if (bytes.length < 2048 || !accept) return { bytes };
  if (/\bbr\b/.test(accept))
    return {
      bytes: brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
      encoding: 'br',
    };
  if (/\bgzip\b/.test(accept)) return { bytes: gzipSync(bytes, { level: 1 }), encoding: 'gzip' };
  return { bytes };
}

let failures = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const request = requests.get(String(req.headers['x-bench-id']));
    if (!request) return void res.writeHead(404).end();
    const list = withNewIds(request.statements, request.fresh);
    (async () => {
      const client = await pool.connect();
      const rows: unknown[][] = [];
      try {
        for (const s of list) rows.push((await client.query({ text: s.text, values: s.values, name: s.name })).rows);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
      const out = encode(JSON.stringify(rows), req.headers['accept-encoding'] as string | undefined);
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': out.bytes.length,
        ...(out.encoding ? { 'content-encoding': out.encoding } : {}),
      });
      res.end(out.bytes);
    })().catch((err: Error) => {
      if (failures++ < 10) console.error(`bare server: request ${String(req.headers['x-bench-id'])}: ${err.message}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message);
    });
  });
});

server.listen(0, '127.0.0.1', () =>
  process.send?.({ type: 'bare:ready', port: (server.address() as AddressInfo).port }),
);
process.on('SIGTERM', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
