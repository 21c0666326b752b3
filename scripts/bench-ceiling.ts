/**
 * The ceiling of `npm run bench`: a bare node:http + pg (Pool) server that answers
 * GET /api/opportunities with the database work the app does for it, and nothing else: the same
 * prepared statements (the session's user with the catalogue version, and — when the version moved
 * — the list itself, both compiled from the app's own SQL), the list kept per version and compressed
 * once per encoding as the app does, the same bytes out. No framework, no security headers, no
 * permission check beyond "a session exists": what the app could reach at best. Started as a child
 * process by scripts/bench.ts (BENCH_CEILING_DATABASE_URL).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { hashToken, SESSION_COOKIE, sessionUserSql } from '../src/server/modules/auth/session';
import { claimableStatement } from '../src/server/modules/opportunities/claimable';
import { startOfUtcDay } from '../src/server/lib/dates';
import { compressOnce, preferredEncoding, type Encoding } from '../src/server/lib/compress-json';

const dialect = new PgDialect();
// the same pool size as the app's (DATABASE_POOL_SIZE)
const pool = new pg.Pool({ connectionString: process.env.BENCH_CEILING_DATABASE_URL, max: Number(process.env.BENCH_CEILING_POOL_SIZE ?? 10) });
pool.on('error', () => {});

function statement(name: string, query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name, text, run: (values: Record<string, unknown>) => pool.query({ name, text, values: fillPlaceholders(params, values) }) };
}
// the session's user comes with the catalogue version, as in the app (db/catalogue-version.ts)
const session = statement('session_user', sessionUserSql);
const body = statement(claimableStatement.name, claimableStatement.sql);

type List = { key: string; json: Buffer; encoded: Map<Encoding, Promise<Buffer>> };
let current: List | undefined;
let building: { key: string; list: Promise<List> } | undefined;

async function list(v: string): Promise<List> {
  const since = startOfUtcDay(new Date()).toISOString();
  const key = `${v}.${since.slice(0, 10)}`;
  if (current?.key === key) return current;
  if (building?.key !== key) {
    const b = {
      key,
      list: body.run({ since }).then(({ rows }) => {
        current = { key: `${rows[0].version}.${since.slice(0, 10)}`, json: Buffer.from(rows[0].body as string), encoded: new Map() };
        return current;
      }),
    };
    building = b;
    b.list.finally(() => building === b && (building = undefined)).catch(() => {});
  }
  return building.list;
}

const cookieToken = (header: string | undefined) => header?.match(new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`))?.[1];

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' || req.url !== '/api/opportunities') {
    res.writeHead(404).end();
    return;
  }
  (async () => {
    const token = cookieToken(req.headers.cookie);
    const user = token ? (await session.run({ id: hashToken(token), now: new Date().toISOString() })).rows[0] : undefined;
    if (!user) return void res.writeHead(401).end();
    const l = await list(user.catalogueVersion as string);
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    let out = l.json;
    if (encoding) {
      let bytes = l.encoded.get(encoding);
      if (!bytes) l.encoded.set(encoding, (bytes = compressOnce(l.json, encoding)));
      out = await bytes;
    }
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': out.length,
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.end(out);
  })().catch(() => res.writeHead(500).end());
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ceiling:ready', port: (server.address() as AddressInfo).port, sql: [session.text, body.text] });
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
