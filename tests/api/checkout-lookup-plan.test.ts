/**
 * Every claim first looks up the brand's open hold for the opportunity (checkout.ts). That lookup is
 * a prepared statement: each connection plans it once, often while the table's statistics say no
 * hold is open (after a quiet night, or right after launch), and keeps that plan. It must still read
 * only the brand's own hold when hundreds are open, through the one-open-hold-per-brand index. With
 * the expiry sweep's index on `status = 'open'` alone, such a plan read every open hold instead.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openHoldStatement } from '../../src/server/modules/payments/checkout';
import { createOpportunity, createPaymentsTestApp, quickBrands, type PaymentsTestApp } from '../support/payments';
import { keptPlan, nodesOf, uuid } from '../support/plans';

let t: PaymentsTestApp;
beforeAll(async () => {
  t = await createPaymentsTestApp();
});
afterAll(() => t.close());

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

it("a brand's open-hold lookup, planned while none was open, reads only its own hold when 120 are", async () => {
  const opp = await createOpportunity(t.db, { maxSlots: 1000 });
  const brands = await quickBrands(t.app, t.db, 120);
  // a table in use: 5,000 claims of the past, paid or left to expire, none open, and the
  // statistics that leaves
  await t.db.execute(sql`
    INSERT INTO checkouts (brand_id, organisation_id, opportunity_id, amount, status, provider_session_id, expires_at, closed_at, created_at)
    SELECT u.id, u.organisation_id, ${opp.id}::uuid, 100,
           CASE WHEN n % 3 = 0 THEN 'completed' ELSE 'expired' END, 'cs_past_' || n,
           now() - make_interval(days => n % 300), now() - make_interval(days => n % 300), now() - make_interval(days => n % 300, mins => 30)
    FROM generate_series(1, 5000) n
    JOIN users u ON u.id = (${sql.raw(`ARRAY['${brands.map((b) => uuid(b.user.id)).join("','")}']`)})[1 + n % 120]::uuid`);
  await t.db.execute(sql`ANALYZE checkouts`);

  const claims = [];
  for (const b of brands) claims.push(await b.agent.post('/api/payments/checkout', { opportunityId: opp.id }));
  expect(claims.map((r) => r.status)).toEqual(Array(120).fill(200));
  const [{ open }] = rowsOf(await t.db.execute(sql`SELECT count(*)::int AS open FROM checkouts WHERE status = 'open'`));
  expect(open).toBe(120);

  // the plan a connection keeps for the lookup: the generic one, made without the values
  const brandId = brands[57].user.id;
  // the very statement checkout.ts prepares ($1 the brand, $2 the opportunity)
  const plan = await keptPlan(t.db, openHoldStatement, [uuid(brandId), uuid(opp.id)]);

  const scan = nodesOf(plan).find((n) => n['Node Type'].includes('Scan'))!;
  expect(scan).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'checkouts_one_open_per_brand', 'Actual Rows': 1 });
  expect(scan['Index Cond']).toMatch(/brand_id = \$1.*opportunity_id = \$2/);
  expect(nodesOf(plan).reduce((sum, n) => sum + (n['Rows Removed by Filter'] ?? 0), 0)).toBe(0);
});
