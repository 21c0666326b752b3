/**
 * Graceful overload (issue 61): past MAX_REQUESTS_IN_FLIGHT API requests at once, the server answers
 * 503 with Retry-After at once, instead of queueing the request behind the busy database. The
 * database is held busy by a transaction that locks the opportunities (on PGlite, which runs one
 * statement at a time, the transaction alone holds every other statement back).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLOADED } from '../../src/server/ops/overload';
import { createTestApp, type Res, type TestApp } from '../support/app';
import { signedIn } from '../support/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MAX_REQUESTS_IN_FLIGHT: 2 });
});
afterAll(async () => {
  await t?.close();
});

/** Holds the opportunities table (and on PGlite the whole database) until the returned release is called. */
async function holdDatabase() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = t.db.transaction(async (tx) => {
    await tx.execute(sql`lock table opportunities in access exclusive mode`);
    locked();
    await gate;
  });
  await isLocked;
  return async () => {
    release();
    await done;
  };
}

describe('graceful overload', () => {
  it('answers 503 with Retry-After at once past the limit, while the requests in flight wait; the slots come back', async () => {
    const { agent } = await signedIn(t.app, t.db, { role: 'brand', approved: true });
    const release = await holdDatabase();
    let settled = 0;
    const held = [agent.get('/api/opportunities'), agent.get('/api/opportunities')].map((p) =>
      p.then((r) => {
        settled++;
        return r;
      }),
    );
    await sleep(300);
    const refused = await agent.get('/api/opportunities');
    expect(settled).toBe(0); // answered while both are still waiting for the database
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({ message: OVERLOADED, code: 'overloaded' });
    expect(refused.headers['x-request-id']).toBeTruthy();
    // health is not an API request: a load balancer still sees the instance alive
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await release();
    const answers: Res[] = await Promise.all(held);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // both slots are free again
    const after = await Promise.all([agent.get('/api/opportunities'), agent.get('/api/opportunities')]);
    expect(after.map((a) => a.status)).toEqual([200, 200]);
  });

  it('a client that hangs up gives its slot back at once', async () => {
    const { agent } = await signedIn(t.app, t.db, { role: 'brand', approved: true });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const release = await holdDatabase();
    try {
      const gone = [1, 2].map(() => {
        const req = http.get({ host: '127.0.0.1', port, path: '/api/opportunities', headers: { cookie: agent.cookie! } });
        req.on('error', () => {});
        return req;
      });
      await sleep(300);
      expect((await agent.get('/api/opportunities')).status).toBe(503);
      for (const req of gone) req.destroy();
      await sleep(300);
      const next = agent.get('/api/opportunities');
      await sleep(300);
      // admitted (it waits for the database like the others), not refused
      const status = await Promise.race([next.then((r) => r.status), sleep(300).then(() => 'waiting')]);
      expect(status).toBe('waiting');
      await release();
      expect((await next).status).toBe(200);
    } finally {
      await release().catch(() => {});
    }
  });
});
