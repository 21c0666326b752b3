import { parse as parseCsv } from 'csv-parse/sync';
import { sql, type SQL } from 'drizzle-orm';
import type { Agent } from './app';
import type { PaymentsTestApp } from './payments';
import { addMissingPlacements } from './placements';
import { uuid } from './plans';

export const EXPORT_HEADER =
  'date,amount,currency,status,brand,email,opportunity,outlet,provider_reference,invoice_number,released_at,refunded_at,organisation,client,refunded_amount';

/** GET /api/admin/payments/export.csv as `agent`, the whole body read. */
export async function exportCsv(t: PaymentsTestApp, agent: Agent, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/admin/payments/export.csv${query}`,
    headers: { host: 'localhost:80', cookie: agent.cookie! },
  });
  return { status: res.statusCode, headers: res.headers, text: res.body };
}

export const csvRows = (text: string): Record<string, string>[] => parseCsv(text, { columns: true, bom: true });

/** What the export must say, read from the database in its own words (oldest first). */
export async function expectedExportRows(t: PaymentsTestApp, where: SQL = sql`true`) {
  const result = await t.db.execute(sql`
    SELECT to_char(p.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS date, p.amount::text AS amount, 'USD' AS currency, p.status,
      u.brand_name AS brand, u.email, o.title AS opportunity, o.outlet_name AS outlet, p.stripe_payment_id AS provider_reference,
      d.number AS invoice_number,
      to_char(p.released_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS released_at,
      to_char(p.refunded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS refunded_at,
      org.name AS organisation, c.name AS client,
      coalesce((SELECT sum(m.amount) FROM money_movements m WHERE m.payment_id = p.id AND m.kind IN ('refund', 'swap_difference')), 0)::numeric(12, 2)::text AS refunded_amount
    FROM payments p JOIN users u ON u.id = p.brand_id JOIN opportunities o ON o.id = p.opportunity_id
    JOIN organisations org ON org.id = p.organisation_id LEFT JOIN org_clients c ON c.id = p.client_id
    LEFT JOIN tax_documents d ON d.payment_id = p.id AND d.kind = 'invoice'
    WHERE ${where} ORDER BY p.created_at, p.id`);
  return (result as unknown as { rows: Record<string, string | null>[] }).rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? ''])),
  );
}

/**
 * `n` payments made in one statement, as an import would: `opportunityOf` picks each one's
 * opportunity from `g` (1 to n); their provider references are `pi_<prefix>_<g>`.
 */
export async function bulkPayments(
  t: PaymentsTestApp,
  n: number,
  brandIds: string[],
  opportunityOf: SQL,
  prefix = 'bulk',
) {
  await t.db.execute(sql`
    INSERT INTO payments (brand_id, organisation_id, opportunity_id, stripe_payment_id, provider_session_id, amount, status, holds_slot, paid_at, created_at, released_at)
    SELECT u.id, u.organisation_id,
      ${opportunityOf}, ${`pi_${prefix}_`} || g, ${`cs_${prefix}_`} || g, ((g % 500000) + 1)::numeric / 100,
      CASE WHEN g % 3 = 0 THEN 'released' ELSE 'paid' END, g % 3 <> 0,
      timestamptz '2024-01-01T00:00:00Z' + g * interval '1 second', timestamptz '2024-01-01T00:00:00Z' + g * interval '1 second',
      CASE WHEN g % 3 = 0 THEN timestamptz '2024-06-01T00:00:00Z' + g * interval '1 second' END
    FROM generate_series(1, ${sql.raw(String(n))}) g
    JOIN users u ON u.id = (${sql.raw(`ARRAY[${brandIds.map((id) => `'${uuid(id)}'::uuid`).join(',')}]`)})[1 + g % ${sql.raw(String(brandIds.length))}]`);
  await addMissingPlacements(t.db);
}
