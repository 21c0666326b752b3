/**
 * Records, for every app a test builds (Fastify announces each on the `fastify.initialization`
 * diagnostics channel), which status each route answered and which statuses its contract declares
 * (lib/contract.ts). Written per test process under .tmp/route-statuses/; tests/routes/statuses.test.ts
 * reads them after the API suite and fails on a status a route answered without declaring it.
 */
import { subscribe } from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';

export const STATUSES_DIR = path.resolve('.tmp/route-statuses');

type Seen = Record<string, { declared: number[] | null; answered: number[] }>;
const state = globalThis as typeof globalThis & { bylineRouteStatuses?: Seen };

if (!state.bylineRouteStatuses) {
  const seen: Seen = (state.bylineRouteStatuses = {});
  subscribe('fastify.initialization', (message) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onResponse', async (req, reply) => {
      const url = req.routeOptions.url;
      if (!url) return;
      const key = `${req.method} ${url}`;
      const entry = (seen[key] ??= { declared: req.routeOptions.config.statuses ? [...req.routeOptions.config.statuses] : null, answered: [] });
      if (!entry.answered.includes(reply.statusCode)) entry.answered.push(reply.statusCode);
    });
  });
}

afterAll(() => {
  if (!process.env.TEST_DB_KIND) return;
  mkdirSync(STATUSES_DIR, { recursive: true });
  writeFileSync(path.join(STATUSES_DIR, `${process.env.TEST_DB_KIND}-${process.pid}.json`), JSON.stringify(state.bylineRouteStatuses));
});
