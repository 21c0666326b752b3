/**
 * Load: 100 simulated users (80 brands, 20 admin loops; 20 users on PGlite) doing the brand journey (browse, checkout,
 * pay, autosave the brief, submit it) and the admin journey (list projects, attach a draft URL,
 * release some payments, refund some) through the real HTTP server on loopback, concurrently, for
 * LOAD_SECONDS (default 20 on PostgreSQL; `LOAD_SECONDS=60` for the issue's full minute; 5 on the
 * embedded PGlite database, which runs one statement at a time, so the suite stays fast).
 * Afterwards: no answer ≥ 500, no unexpected 4xx (409s on sold-out checkouts are expected and
 * counted apart), every acknowledged payment, brief and draft is stored, and the money totals equal
 * the sum of the rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromCents, toCents } from '../../src/shared/money';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import type { DbHandle } from '../../src/server/db/client';
import { briefs, opportunities, payments, placements } from '../../src/server/db/schema';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { createTestDb, dbKind } from '../support/db';
import { createOpportunity, quickBrands } from '../support/payments';

const SECONDS = Number(process.env.LOAD_SECONDS ?? (dbKind === 'pglite' ? 5 : 20));
// PGlite runs one statement at a time for the whole process: 100 users there measure a queue
// (a 5-second run of 100 users took 41 s to drain, list pages waiting 15-36 s), so 20 users
const BRANDS = dbKind === 'pglite' ? 16 : 80;
const ADMINS = dbKind === 'pglite' ? 4 : 20;
const PART1 = { personOrBrandName: 'Load Test', backgroundExperience: 'Bought under load.' };
const PART2 = { mainGoal: 'Stay correct', targetAudience: 'Auditors', mainMessage: 'Nothing lost' };

let handle: DbHandle;
let app: FastifyInstance;
let base = '';
let dataDir = '';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely and asserted by each check
type Answer = { status: number; body: any };

/** Every answer, by route pattern and status. */
const tally = new Map<string, Map<number, number>>();
const unexpected: string[] = [];
let requests = 0;
/** Latency per route pattern (ms), for the printed figures. */
const latency = new Map<string, number[]>();

async function call(cookie: string, method: string, url: string, route: string, body?: unknown): Promise<Answer> {
  const t0 = performance.now();
  const res = await fetch(base + url, {
    method,
    headers: {
      cookie,
      ...(method !== 'GET' ? { origin: base } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  requests++;
  const key = `${method} ${route}`;
  const times = latency.get(key) ?? [];
  times.push(performance.now() - t0);
  latency.set(key, times);
  const byStatus = tally.get(key) ?? new Map<number, number>();
  byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
  tally.set(key, byStatus);
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** 409 is an expected race only where named (a sold-out opportunity); anything else ≥ 400 is a failure. */
function check(a: Answer, what: string, expected409 = false) {
  if (a.status < 400) return true;
  if (a.status === 409 && expected409) return false;
  unexpected.push(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
  return false;
}

describe(`load (${dbKind}): ${BRANDS + ADMINS} users for ${SECONDS} s`, () => {
  beforeAll(async () => {
    handle = await createTestDb();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-load-'));
    // 100 users with no time between requests keep up to 100 requests in flight: this file checks
    // that none is lost or answered 5xx when all are worked on, not the overload guard's refusals
    // past MAX_REQUESTS_IN_FLIGHT (tests/api/overload.test.ts)
    const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, MAX_REQUESTS_IN_FLIGHT: 1000 });
    app = await buildApp({
      db: handle.db,
      config,
      files: diskFileStore(path.join(dataDir, 'uploads')),
      payments: testCheckoutProvider(handle.db),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await handle?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'no errors, no lost writes, money totals equal the rows',
    async () => {
      const { db } = handle;
      // 10 roomy opportunities at odd prices, and 4 with 3 slots each so brands race for the last ones
      const opps = [
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            createOpportunity(db, {
              title: `Load ${i}`,
              maxSlots: 100_000,
              priceUsd: `${100 + i * 37}.${String(i * 7).padStart(2, '0')}`,
            }),
          ),
        )),
        ...(await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            createOpportunity(db, { title: `Scarce ${i}`, maxSlots: 3, priceUsd: '999.99' }),
          ),
        )),
      ];
      const priceCents = new Map(opps.map((o) => [o.id, toCents(o.priceUsd)]));
      const brands = (await quickBrands(app, db, BRANDS)).map((b) => ({ id: b.user.id, cookie: b.agent.cookie ?? '' }));
      const [admin] = await quickBrands(app, db, 1, { role: 'admin', brandName: null, website: null, approved: false });
      const adminCookie = admin.agent.cookie ?? '';

      // the ledger of acknowledged writes
      const paid = new Map<
        string,
        { brandId: string; opportunityId: string; status: 'paid' | 'released' | 'refunded' }
      >();
      const briefAck = new Map<string, string>();
      const draftAck = new Map<string, string>();
      const submitted: string[] = [];
      const raceable: string[] = []; // not submitted: released or refunded by the admins' races
      let soldOut = 0;
      let raced409 = 0;

      const deadline = Date.now() + SECONDS * 1000;
      const brandLoop = async (b: (typeof brands)[number], idx: number) => {
        for (let n = 0; Date.now() < deadline; n++) {
          const c = b.cookie;
          const list = await call(c, 'GET', '/api/opportunities', '/api/opportunities');
          if (!check(list, 'browse')) continue;
          const opp = opps[(idx * 7 + n * 3) % opps.length];
          const co = await call(c, 'POST', '/api/payments/checkout', '/api/payments/checkout', {
            opportunityId: opp.id,
          });
          if (co.status === 409 && opp.maxSlots === 3) {
            soldOut++; // the scarce ones sell out: expected
            continue;
          }
          if (!check(co, 'checkout')) continue;
          const sessionId = String(co.body.url).split('/').pop()!;
          const pay = await call(
            c,
            'POST',
            `/api/payments/checkout/${sessionId}/pay`,
            '/api/payments/checkout/:id/pay',
          );
          if (!check(pay, 'pay')) continue;
          const paymentId: string = pay.body.paymentId;
          paid.set(paymentId, { brandId: b.id, opportunityId: opp.id, status: 'paid' });
          for (let v = 0; v < 2; v++) {
            const value = `autosave ${idx}.${n}.${v}`;
            const save = await call(c, 'POST', `/api/brand/brief/${paymentId}`, '/api/brand/brief/:id', {
              part1Json: { personOrBrandName: value },
            });
            if (check(save, 'autosave')) briefAck.set(paymentId, value);
          }
          // three purchases in four get a submitted brief (the admins take those)
          if (n % 4 === 3) {
            raceable.push(paymentId);
            continue;
          }
          const submit = await call(c, 'POST', `/api/brand/brief/${paymentId}/submit`, '/api/brand/brief/:id/submit', {
            part1Json: PART1,
            part2Json: PART2,
          });
          if (!check(submit, 'submit')) continue;
          briefAck.set(paymentId, PART1.personOrBrandName);
          submitted.push(paymentId);
          if (n % 5 === 0) check(await call(c, 'GET', '/api/brand/wallet', '/api/brand/wallet'), 'wallet');
        }
      };
      const adminLoop = async (k: number) => {
        const c = adminCookie;
        for (let n = 0; Date.now() < deadline; n++) {
          check(await call(c, 'GET', '/api/admin/projects', '/api/admin/projects'), 'projects');
          const paymentId = submitted.shift();
          if (!paymentId) {
            await new Promise((r) => setTimeout(r, 20));
            continue;
          }
          const url = `https://docs.example.com/draft/${paymentId}`;
          const attach = await call(
            c,
            'PATCH',
            `/api/admin/payments/${paymentId}/status`,
            '/api/admin/payments/:id/status',
            {
              draftDocumentUrl: url,
            },
          );
          if (check(attach, 'attach draft')) draftAck.set(paymentId, url);
          const pick = (n + k) % 3;
          if (pick === 0) {
            const rel = await call(
              c,
              'POST',
              `/api/admin/payments/${paymentId}/release`,
              '/api/admin/payments/:id/release',
            );
            if (check(rel, 'release')) paid.get(paymentId)!.status = 'released';
          } else if (pick === 1) {
            const ref = await call(
              c,
              'POST',
              `/api/admin/payments/${paymentId}/refund`,
              '/api/admin/payments/:id/refund',
            );
            if (check(ref, 'refund')) paid.get(paymentId)!.status = 'refunded';
          }
          // the same payment released and refunded at once by two admins: exactly one wins while it is
          // held. Both answer 200 only when the release committed before the refund read the payment:
          // then the refund is that of a published placement (issue 17), released first and refunded
          // after, never a refund of money still held that was released as well.
          if (n % 10 === 9) {
            const other = raceable.shift();
            if (other) {
              const [rel, ref] = await Promise.all([
                call(c, 'POST', `/api/admin/payments/${other}/release`, '/api/admin/payments/:id/release'),
                call(c, 'POST', `/api/admin/payments/${other}/refund`, '/api/admin/payments/:id/refund'),
              ]);
              const wins = [rel, ref].filter((a) => a.status === 200).length;
              raced409 += [rel, ref].filter((a) => a.status === 409).length;
              for (const a of [rel, ref]) if (a.status !== 409) check(a, 'release/refund race');
              const releasedThenRefunded =
                wins === 2 && rel.body?.status === 'released' && ref.body?.status === 'refunded' && Boolean(ref.body?.releasedAt);
              if (releasedThenRefunded) paid.get(other)!.status = 'refunded';
              else if (wins !== 1) unexpected.push(`release/refund race on ${other}: ${rel.status} + ${ref.status}`);
              else paid.get(other)!.status = rel.status === 200 ? 'released' : 'refunded';
            }
          }
        }
      };

      const started = Date.now();
      await Promise.all([...brands.map(brandLoop), ...Array.from({ length: ADMINS }, (_, k) => adminLoop(k))]);
      const elapsed = (Date.now() - started) / 1000;

      // ---- afterwards
      const rows = await db.select().from(payments);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const lost: string[] = [];
      for (const [id, p] of paid) {
        const row = byId.get(id);
        if (!row) lost.push(`payment ${id}`);
        else if (row.brandId !== p.brandId || row.opportunityId !== p.opportunityId || row.status !== p.status)
          lost.push(`payment ${id}: ${row.status}, expected ${p.status}`);
      }
      const briefRows = await db.select().from(briefs);
      const briefById = new Map(briefRows.map((r) => [r.placementId, r]));
      for (const [id, value] of briefAck) {
        if (briefById.get(id)?.part1Json.personOrBrandName !== value) lost.push(`brief ${id}`);
      }
      const placementById = new Map((await db.select().from(placements)).map((r) => [r.id, r]));
      for (const [id, url] of draftAck) if (placementById.get(id)?.draftDocumentUrl !== url) lost.push(`draft ${id}`);
      expect(rows).toHaveLength(paid.size); // no payment the brands were not told about

      // money: the admin totals against the rows, and against our own ledger (integer cents)
      const totals = await call(adminCookie, 'GET', '/api/admin/payments/totals', '/api/admin/payments/totals');
      expect(totals.status).toBe(200);
      const sums = (
        (await db.execute(sql`
          SELECT coalesce(sum(o.price_usd) FILTER (WHERE p.status = 'paid'), 0)::text AS held,
                 coalesce(sum(o.price_usd) FILTER (WHERE p.status = 'released'), 0)::text AS released,
                 coalesce(sum(p.amount), 0)::text AS all_amounts
          FROM payments p JOIN opportunities o ON o.id = p.opportunity_id`)) as unknown as {
          rows: { held: string; released: string; all_amounts: string }[];
        }
      ).rows[0];
      const ledgerCents = { paid: 0, released: 0, refunded: 0 };
      for (const p of paid.values()) ledgerCents[p.status] += priceCents.get(p.opportunityId)!;
      expect(toCents(totals.body.held)).toBe(toCents(sums.held));
      expect(toCents(totals.body.released)).toBe(toCents(sums.released));
      expect(toCents(totals.body.held)).toBe(ledgerCents.paid);
      expect(toCents(totals.body.released)).toBe(ledgerCents.released);
      expect(toCents(sums.all_amounts)).toBe(ledgerCents.paid + ledgerCents.released + ledgerCents.refunded);

      // each brand's wallet is the sum of its paid payments
      const walletMismatch: string[] = [];
      await Promise.all(
        brands.map(async (b) => {
          const w = await call(b.cookie, 'GET', '/api/brand/wallet', '/api/brand/wallet');
          let cents = 0;
          for (const p of paid.values())
            if (p.brandId === b.id && p.status === 'paid') cents += priceCents.get(p.opportunityId)!;
          if (w.status !== 200 || toCents(w.body.balance) !== cents)
            walletMismatch.push(`${b.id}: ${w.status} ${JSON.stringify(w.body)} ≠ ${fromCents(cents)}`);
        }),
      );

      // slots: each opportunity's filled slots are its payments still holding one (no open holds remain)
      const oppRows = await db.select().from(opportunities);
      const slotMismatch = oppRows.filter(
        (o) => o.filledSlots !== rows.filter((r) => r.opportunityId === o.id && r.holdsSlot).length,
      );
      const scarce = oppRows.filter((o) => o.maxSlots === 3);
      const over500 = [...tally.values()].reduce(
        (s, m) => s + [...m].filter(([st]) => st >= 500).reduce((a, [, c]) => a + c, 0),
        0,
      );

      const count = (s: string) => [...paid.values()].filter((p) => p.status === s).length;
      console.log(
        [
          `load: ${BRANDS} brands + ${ADMINS} admin loops for ${elapsed.toFixed(1)} s: ${requests} requests (${(requests / elapsed).toFixed(0)}/s), ${over500} ≥ 500, ${unexpected.length} unexpected 4xx`,
          `expected 409s: ${soldOut} sold-out checkouts, ${raced409} lost release/refund races`,
          `acknowledged: ${paid.size} payments (${count('paid')} held, ${count('released')} released, ${count('refunded')} refunded), ${briefAck.size} briefs (${submitted.length} left to attach), ${draftAck.size} drafts; lost: ${lost.length}`,
          `money: held ${totals.body.held} USD, released ${totals.body.released} USD = rows; all payments ${sums.all_amounts} USD; ${brands.length} wallets = sum of paid payments (${walletMismatch.length} mismatches)`,
          `latency ms (median/p95/max): ${[...latency]
            .map(([k, t]) => {
              const v = [...t].sort((a, b) => a - b);
              const at = (q: number) => v[Math.min(v.length - 1, Math.floor(q * v.length))].toFixed(0);
              return `${k} ${at(0.5)}/${at(0.95)}/${v[v.length - 1].toFixed(0)}`;
            })
            .join('; ')}`,
          `by route: ${JSON.stringify(Object.fromEntries([...tally].map(([k, m]) => [k, Object.fromEntries(m)])))}`,
        ].join('\n'),
      );

      expect(over500).toBe(0);
      expect(unexpected).toEqual([]);
      expect(lost).toEqual([]);
      expect(walletMismatch).toEqual([]);
      expect(slotMismatch.map((o) => o.title)).toEqual([]);
      expect(scarce.every((o) => o.filledSlots <= 3)).toBe(true);
      expect(paid.size).toBeGreaterThan(0);
    },
    (SECONDS + 60) * 1000,
  );
});
