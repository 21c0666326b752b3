/**
 * The ledger is the only record of what went back (issue 58, decision 041, drizzle/0046):
 * `payments` keeps no refunded amount of its own. After a part refund and then a full refund, every
 * answer that shows money given back (the brand's payments and escrow balance, the admins' totals,
 * the organisation's budget spent and paid total, the CSV export) says what the ledger's refund
 * movements add up to, to the cent; and the column is gone from the database.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCents } from '../../src/shared/money';
import type { Agent, Res } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';
import { csvRows, exportCsv } from '../support/payments-export';

let t: PaymentsTestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createPaymentsTestApp({ config: { LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } } });
  admin = await signedIn(t.app, t.db, kinds.admin);
});
afterAll(() => t?.close());

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** Claims and pays an opportunity on the test checkout; the payment (placement) id. */
async function buy(agent: Agent, priceUsd: string): Promise<string> {
  const opp = await createOpportunity(t.db, { priceUsd, maxSlots: 5 });
  const claim = ok(await agent.post('/api/payments/checkout', { opportunityId: opp.id }), 'claim');
  return ok(await agent.post(`/api/payments/checkout/${sessionIdOf(claim.url)}/pay`), 'pay').paymentId;
}

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** Per payment: its amount, status, organisation and what its refund movements add up to (cents), read from money_movements alone. */
async function ledger() {
  const rows = rowsOf<{ id: string; pi: string; amount: string; status: string; org: string; refunded: string }>(
    await t.db.execute(sql`
      SELECT p.id, p.stripe_payment_id AS pi, p.amount::text AS amount, p.status, p.organisation_id AS org,
        coalesce(sum(m.amount) FILTER (WHERE m.kind IN ('refund', 'swap_difference')), 0)::text AS refunded
      FROM payments p LEFT JOIN money_movements m ON m.payment_id = p.id
      GROUP BY p.id`),
  );
  return rows.map((r) => ({ ...r, amountCents: toCents(r.amount), refundedCents: toCents(r.refunded) }));
}
type Line = Awaited<ReturnType<typeof ledger>>[number];
const usd = (cents: number) => (cents / 100).toFixed(2);
const sum = (lines: Line[], f: (l: Line) => number) => lines.reduce((s, l) => s + f(l), 0);
/** what a payment kept: the budget's rule (a refunded payment counts what it kept) */
const kept = (l: Line) => (l.status !== 'refunded' || l.refundedCents > 0 ? l.amountCents - l.refundedCents : 0);

/** Every answer that shows what went back says what the ledger says. */
async function expectEveryAnswerIsTheLedger(brand: Awaited<ReturnType<typeof signedIn>>, orgId: string, mine: string[]) {
  const all = await ledger();
  const ours = all.filter((l) => l.org === orgId);
  const byId = new Map(all.map((l) => [l.id, l]));

  // the brand's Payment History and escrow balance
  const history = ok(await brand.agent.get('/api/brand/payments'), 'history') as { id: string; amount: string; refundedAmount: string }[];
  for (const id of mine) expect(history.find((h) => h.id === id)!.refundedAmount, `history ${id}`).toBe(usd(byId.get(id)!.refundedCents));
  const wallet = ok(await brand.agent.get('/api/brand/wallet'), 'wallet') as { balance: string };
  expect(wallet.balance).toBe(usd(sum(ours.filter((l) => l.status === 'paid'), (l) => l.amountCents - l.refundedCents)));

  // the admins' list and totals (every payment of the database)
  const adminList = ok(await admin.agent.get('/api/admin/payments'), 'admin payments') as { id: string; refundedAmount: string }[];
  for (const id of mine) expect(adminList.find((p) => p.id === id)!.refundedAmount).toBe(usd(byId.get(id)!.refundedCents));
  const totals = ok(await admin.agent.get('/api/admin/payments/totals'), 'totals') as { held: string; released: string; refunded: string };
  expect(totals).toEqual({
    held: usd(sum(all.filter((l) => l.status === 'paid'), (l) => l.amountCents - l.refundedCents)),
    released: usd(sum(all.filter((l) => l.status === 'released'), (l) => l.amountCents - l.refundedCents)),
    refunded: usd(sum(all, (l) => l.refundedCents)),
  });

  // the organisation's budget spent this month, and its paid total as the admins see it
  const spend = ok(await brand.agent.get('/api/org/spend'), 'spend') as { spentUsd: string; member: { spentUsd: string } };
  expect(spend.spentUsd).toBe(usd(sum(ours, kept)));
  expect(spend.member.spentUsd).toBe(usd(sum(ours, kept)));
  const org = ok(await admin.agent.get(`/api/admin/organisations/${orgId}`), 'organisation') as { spentUsd: string; paidTotalUsd: string };
  expect(org).toMatchObject({ spentUsd: usd(sum(ours, kept)), paidTotalUsd: usd(sum(ours, kept)) });

  // the CSV export: each payment's refunded_amount
  const csv = await exportCsv(t, admin.agent);
  expect(csv.status).toBe(200);
  const rows = csvRows(csv.text);
  expect(rows).toHaveLength(all.length);
  for (const id of mine) {
    const line = byId.get(id)!;
    const mineInCsv = rows.filter((r) => r.provider_reference === line.pi && r.email === brand.user.email);
    expect(mineInCsv, `csv rows of ${id}`).toHaveLength(1);
    expect(mineInCsv[0]).toMatchObject({ status: line.status, amount: line.amount, refunded_amount: usd(line.refundedCents) });
  }
}

describe('the ledger is the only record of what went back', () => {
  it('after a part refund and then a full refund, every answer says the ledger sum', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const orgId = rowsOf<{ org: string }>(await t.db.execute(sql`SELECT organisation_id AS org FROM users WHERE id = ${brand.user.id}`))[0].org;
    const a = await buy(brand.agent, '500.00');
    const b = await buy(brand.agent, '300.00');
    await expectEveryAnswerIsTheLedger(brand, orgId, [a, b]);

    // a part refund: the payment stays held, 120.50 went back
    const part = ok(await admin.agent.post(`/api/admin/payments/${a}/refund`, { amountUsd: '120.50', reason: 'Two days late' }), 'part');
    expect(part).toMatchObject({ id: a, status: 'paid', amount: '500.00', refundedAmount: '120.50' });
    expect((await ledger()).find((l) => l.id === a)!.refundedCents).toBe(12050);
    await expectEveryAnswerIsTheLedger(brand, orgId, [a, b]);
    expect(ok(await brand.agent.get('/api/brand/wallet'), 'wallet')).toEqual({ balance: '679.50' });
    expect(ok(await brand.agent.get('/api/org/spend'), 'spend')).toMatchObject({ spentUsd: '679.50' });

    // more than is left: refused, nothing moves
    const tooMuch = await admin.agent.post(`/api/admin/payments/${a}/refund`, { amountUsd: '379.51' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toBe('That is more than is left to refund: $379.50 of $500.00');

    // the rest, in full: all of it went back
    const full = ok(await admin.agent.post(`/api/admin/payments/${a}/refund`, {}), 'full');
    expect(full).toMatchObject({ id: a, status: 'refunded', amount: '500.00', refundedAmount: '500.00' });
    const movements = rowsOf<{ kind: string; amount: string }>(
      await t.db.execute(sql`SELECT kind, amount::text FROM money_movements WHERE payment_id = ${a} ORDER BY created_at, kind`),
    );
    expect(movements).toEqual([
      { kind: 'charge', amount: '500.00' },
      { kind: 'refund', amount: '120.50' },
      { kind: 'refund', amount: '379.50' },
    ]);
    await expectEveryAnswerIsTheLedger(brand, orgId, [a, b]);
    expect(ok(await brand.agent.get('/api/brand/wallet'), 'wallet')).toEqual({ balance: '300.00' });
    expect(ok(await brand.agent.get('/api/org/spend'), 'spend')).toMatchObject({ spentUsd: '300.00' });

    // nothing is left to refund
    expect((await admin.agent.post(`/api/admin/payments/${a}/refund`, { amountUsd: '1.00' })).status).toBe(409);
  });

  it('payments has no refunded amount of its own', async () => {
    const columns = rowsOf<{ column_name: string }>(
      await t.db.execute(sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'payments' AND column_name LIKE '%refunded%'`),
    );
    expect(columns.map((c) => c.column_name).sort()).toEqual(['refunded_at']);
    const indexes = rowsOf<{ indexname: string; indexdef: string }>(
      await t.db.execute(sql`SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ('payments_org_held_idx', 'money_movements_refunds_idx') ORDER BY indexname`),
    );
    expect(indexes.map((i) => i.indexname)).toEqual(['money_movements_refunds_idx', 'payments_org_held_idx']);
    expect(indexes[1].indexdef).toContain('(organisation_id, amount, id)');
  });
});
