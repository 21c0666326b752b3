import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, makePayment, quickBrands, type PaymentsTestApp } from '../support/payments';
import { EXPORT_HEADER, bulkPayments, csvRows, expectedExportRows, exportCsv } from '../support/payments-export';
import { uuid } from '../support/plans';

let t: PaymentsTestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createPaymentsTestApp();
  admin = await signedIn(t.app, t.db, kinds.admin);
});
afterAll(() => t.close());

describe('GET /api/admin/payments/export.csv', () => {
  it('is for admins only', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    expect((await exportCsv(t, brand.agent)).status).toBe(403);
    const anon = await t.app.inject({ method: 'GET', url: '/api/admin/payments/export.csv', headers: { host: 'localhost:80' } });
    expect(anon.statusCode).toBe(401);
  });

  it('escapes cells a spreadsheet would run as a formula, and quotes commas, quotes and line breaks', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1, { brandName: '@evil, "quoted"\nbrand' });
    const opp = await createOpportunity(t.db, { title: '=HYPERLINK("http://x.test","click")', outletName: '+cmd|calc', maxSlots: 2 });
    await makePayment(t.db, brand.user.id, opp.id, { paidAt: new Date('2026-03-04T05:06:07Z'), createdAt: new Date('2026-03-04T05:06:07Z') });
    const res = await exportCsv(t, admin.agent, `?q=${encodeURIComponent('HYPERLINK')}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="byline-payments-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.text.split('\r\n')[0]).toBe(EXPORT_HEADER);
    const [row] = csvRows(res.text);
    expect(row.opportunity).toBe(`'=HYPERLINK("http://x.test","click")`);
    expect(row.outlet).toBe(`'+cmd|calc`);
    expect(row.brand).toBe(`'@evil, "quoted"\nbrand`);
    expect(row.date).toBe('2026-03-04T05:06:07Z');
  });

  it('filters by status, date range (UTC days, inclusive) and a search of brand, e-mail, opportunity or outlet', async () => {
    const [a, b] = await quickBrands(t.app, t.db, 2, {});
    const opp = await createOpportunity(t.db, { title: 'Filter Story', outletName: 'Filter Weekly', maxSlots: 10 });
    const at = (iso: string) => ({ paidAt: new Date(iso), createdAt: new Date(iso) });
    const p1 = await makePayment(t.db, a.user.id, opp.id, { ...at('2025-01-31T23:59:59Z') });
    const p2 = await makePayment(t.db, a.user.id, opp.id, { ...at('2025-02-01T00:00:00Z'), status: 'released', releasedAt: new Date('2025-02-10T00:00:00Z') });
    const p3 = await makePayment(t.db, b.user.id, opp.id, { ...at('2025-02-28T12:00:00Z'), status: 'refunded', refundedAt: new Date('2025-03-01T00:00:00Z') });
    const refs = async (q: string) => csvRows((await exportCsv(t, admin.agent, q)).text).map((r) => r.provider_reference);
    const ref = async (id: string) => (await expectedExportRows(t, sql`p.id = ${id}`))[0].provider_reference;
    expect(await refs('?from=2025-02-01&to=2025-02-28')).toEqual([await ref(p2.id), await ref(p3.id)]);
    expect(await refs('?from=2025-01-31&to=2025-01-31')).toEqual([await ref(p1.id)]);
    expect(await refs('?status=refunded&q=filter%20weekly')).toEqual([await ref(p3.id)]);
    expect(await refs(`?q=${encodeURIComponent(a.user.email)}&to=2025-12-31`)).toEqual([await ref(p1.id), await ref(p2.id)]);
    const [released] = csvRows((await exportCsv(t, admin.agent, '?status=released&q=Filter%20Story')).text);
    expect(released).toMatchObject({ status: 'released', released_at: '2025-02-10T00:00:00Z', refunded_at: '' });
  });

  it('refuses bad filters with a message', async () => {
    for (const [q, message] of [
      ['?from=2025-13-01', 'from must be a date as yyyy-mm-dd'],
      ['?to=yesterday', 'to must be a date as yyyy-mm-dd'],
      ['?from=2025-03-01&to=2025-02-01', 'from must not be after to'],
      ['?status=lost', 'Unknown status'],
      ['?sort=amount', 'Unknown parameter: sort'],
    ]) {
      const res = await exportCsv(t, admin.agent, q);
      expect(res.status, q).toBe(400);
      expect(JSON.parse(res.text).message, q).toBe(message);
    }
  });

  it('a search that matches a few payments far apart finds each once, in order, across the batches', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const needle = await createOpportunity(t.db, { title: 'Needle Story', maxSlots: 10 });
    const hay = await createOpportunity(t.db, { title: 'Hay Story', maxSlots: 2000 });
    // 1,500 payments, three batches' worth: the first, none in the second, the last two
    await bulkPayments(t, 1500, [brand.user.id], sql.raw(`CASE WHEN g IN (1, 1499, 1500) THEN '${uuid(needle.id)}'::uuid ELSE '${uuid(hay.id)}'::uuid END`), 'apart');
    const rows = csvRows((await exportCsv(t, admin.agent, '?q=needle%20story')).text);
    expect(rows.map((r) => r.provider_reference)).toEqual(['pi_apart_1', 'pi_apart_1499', 'pi_apart_1500']);
    expect(rows).toEqual(await expectedExportRows(t, sql`o.id = ${needle.id}`));
    // without the search: every one of them, each once
    const all = csvRows((await exportCsv(t, admin.agent, `?q=${encodeURIComponent(brand.user.email)}`)).text);
    expect(all.map((r) => r.provider_reference)).toEqual(Array.from({ length: 1500 }, (_, i) => `pi_apart_${i + 1}`));
  });
});
