/**
 * The ceiling of `npm run bench`: a bare node:http + pg (Pool) server that answers
 * GET /api/opportunities by running exactly the statement the app runs (built by the same
 * claimableJsonQuery, turned into text + parameters the way Drizzle does) and sending the same
 * bytes. No session check, no framework, no headers beyond content-type/length: what the app
 * could reach at best. Started as a child process by scripts/bench.ts (BENCH_CEILING_DATABASE_URL).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { claimableJsonQuery } from '../src/server/modules/opportunities/claimable';

const dialect = new PgDialect();
// the same pool size as the app's (openPostgres default)
const pool = new pg.Pool({ connectionString: process.env.BENCH_CEILING_DATABASE_URL, max: 10 });
pool.on('error', () => {});

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' || req.url !== '/api/opportunities') {
    res.writeHead(404).end();
    return;
  }
  const { sql, params } = dialect.sqlToQuery(claimableJsonQuery(new Date()));
  pool.query(sql, params).then(
    ({ rows }) => {
      const body: string = rows[0].body;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    },
    () => res.writeHead(500).end(),
  );
});

server.listen(0, '127.0.0.1', () => {
  const { sql } = dialect.sqlToQuery(claimableJsonQuery(new Date()));
  process.send?.({ type: 'ceiling:ready', port: (server.address() as AddressInfo).port, sql });
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
