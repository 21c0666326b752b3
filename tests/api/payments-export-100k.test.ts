/**
 * The admins' CSV export at the size of a business that has run for years: 100,000 payments, made
 * in one statement as an import would, so the tables have no statistics yet. A search that matches
 * most of them is the case a planner guessing from statistics gets wrong.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportBatch } from '../../src/server/modules/invoices/export';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, quickBrands, type PaymentsTestApp } from '../support/payments';
import { bulkPayments, csvRows, expectedExportRows, exportCsv } from '../support/payments-export';
import { keptPlan, nodesOf, uuid } from '../support/plans';

let t: PaymentsTestApp;
beforeAll(async () => {
  t = await createPaymentsTestApp();
  const brands = await quickBrands(t.app, t.db, 20);
  const opps = await Promise.all(
    Array.from({ length: 10 }, (_, i) => createOpportunity(t.db, { title: `Bulk ${i}, "special"`, maxSlots: 100_000 })),
  );
  const oppOf = sql.raw(`(ARRAY[${opps.map((o) => `'${uuid(o.id)}'::uuid`).join(',')}])[1 + g % 10]`);
  await bulkPayments(t, 100_000, brands.map((b) => b.user.id), oppOf);
  // 100,000 placements made in one statement, each given its promise by the database's row trigger (drizzle/0047)
}, 240_000);
afterAll(() => t.close());

// the limit catches a hung stream
it(
  'GET /api/admin/payments/export.csv streams 100,000 payments that parse back to exactly the database rows',
  { timeout: 180_000 },
  async () => {
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const res = await exportCsv(t, admin.agent, '?q=Bulk');
    expect(res.status).toBe(200);
    const parsed = csvRows(res.text);
    expect(parsed.length).toBe(100_000);
    expect(parsed).toEqual(await expectedExportRows(t, sql`o.title LIKE 'Bulk %'`));
  },
);

it('reads each batch as the next 500 payments in date order, however many match, with the plan a connection keeps', async () => {
  // every filter at once; the plan a pooled connection keeps for it is the generic one, made without the values
  const statement = exportBatch.statementOf({ status: true, from: true, to: true, q: true, client: true, cursor: true });
  const params = statement.paramsOf({
    status: 'paid',
    from: '2024-01-01',
    to: '2024-12-31',
    q: 'Bulk',
    clientId: '00000000-0000-4000-8000-000000000001',
    cursorAt: '2024-01-01T10:00:00Z',
    cursorId: '00000000-0000-0000-0000-000000000000',
  });
  const plan = await keptPlan(t.db, statement, params);
  // one read of the payments, through the index in export order, that stops after a batch: not
  // every remaining match read and sorted for each batch
  const reads = nodesOf(plan).filter((n) => n['Relation Name'] === 'payments');
  expect(reads).toHaveLength(1);
  expect(reads[0]).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'payments_created_idx' });
  expect(reads[0]['Actual Rows']).toBeLessThanOrEqual(500);
});
