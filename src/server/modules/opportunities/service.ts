import { and, arrayContains, desc, eq, getTableColumns, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { after, cursorAt, type Page } from '../../lib/paging';
import type { BrandOpportunity, Opportunity, OpportunityType } from '../../../shared/opportunity';
import type { AdminOpportunitiesQuery, OpportunityRequest } from '../../../shared/schemas/opportunity';
import type { Db } from '../../db/client';
import { opportunities } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';

export type OpportunityRow = typeof opportunities.$inferSelect;

/** The API's JSON for an opportunity, field by field: a new column never leaks by accident. */
export function toOpportunityJson(r: OpportunityRow): Opportunity {
  return {
    id: r.id,
    title: r.title,
    outletName: r.outletName,
    outletUrl: r.outletUrl,
    description: r.description,
    type: r.type as OpportunityType[],
    tat: r.tat,
    priceUsd: r.priceUsd,
    logoUrl: r.logoUrl,
    exampleUrls: r.exampleUrls,
    maxSlots: r.maxSlots,
    filledSlots: r.filledSlots,
    domainAuthority: r.domainAuthority,
    deadlineDate: r.deadlineDate ? r.deadlineDate.toISOString() : null,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  };
}

/** What a brand sees: the card and claim-dialog fields, not the status. */
export function toBrandOpportunityJson(r: OpportunityRow): BrandOpportunity {
  const { status: _status, ...rest } = toOpportunityJson(r);
  return rest;
}

/** A deadline day is stored as 00:00 UTC of that day. */
const deadlineTimestamp = (day: string | null) => (day ? new Date(`${day}T00:00:00.000Z`) : null);

/** 00:00 UTC of the day `now` falls in: a deadline on that day or later can still be claimed. */
export const startOfUtcDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** The columns an admin's request sets: never status or filledSlots. */
function columnsOf(input: OpportunityRequest) {
  return {
    outletName: input.outletName,
    outletUrl: input.outletUrl,
    title: input.title,
    description: input.description,
    type: input.type,
    tat: input.tat,
    priceUsd: input.priceUsd,
    maxSlots: input.maxSlots,
    domainAuthority: input.domainAuthority,
    deadlineDate: deadlineTimestamp(input.deadlineDate),
    logoUrl: input.logoUrl,
    exampleUrls: input.exampleUrls,
  };
}

/** Brands' browse list: available and not past its deadline, newest first, in one query. */
export async function listClaimable(db: Db, now = new Date()): Promise<OpportunityRow[]> {
  return db
    .select()
    .from(opportunities)
    .where(
      and(
        eq(opportunities.status, 'available'),
        or(isNull(opportunities.deadlineDate), gte(opportunities.deadlineDate, startOfUtcDay(now))),
      ),
    )
    .orderBy(desc(opportunities.createdAt), desc(opportunities.id));
}

/** The admin dashboard: every opportunity (or those matching its filters), newest first, one page at a time. */
export async function listAll(db: Db, filter: AdminOpportunitiesQuery, page: Page) {
  // the page first (a subquery), then "has payments" for its rows only: one index probe each on
  // payments_opportunity_status_idx. Asked over the whole filtered table, the planner would hash
  // every payment on each request.
  const pageRows = db
    .select({ ...getTableColumns(opportunities), cursorAt: cursorAt(opportunities.createdAt).as('cursor_at') })
    .from(opportunities)
    .where(
      and(
        filter.status ? eq(opportunities.status, filter.status) : undefined,
        filter.full === 'true' ? eq(opportunities.status, 'full') : undefined,
        // an opportunity of several types matches each of them
        filter.type ? arrayContains(opportunities.type, [filter.type]) : undefined,
        after(opportunities.createdAt, opportunities.id, page.cursor),
      ),
    )
    .orderBy(desc(opportunities.createdAt), desc(opportunities.id))
    .limit(page.limit + 1)
    .as('page');
  // every column of the page, as the subquery names them
  const pageColumns = Object.fromEntries(Object.keys(getTableColumns(opportunities)).map((k) => [k, pageRows[k as keyof typeof pageRows]]));
  const rows = (await db
    .select({
      row: pageColumns as unknown as typeof opportunities._.columns,
      cursorAt: pageRows.cursorAt,
      hasPayments: sql<boolean>`EXISTS (SELECT 1 FROM payments p WHERE p.opportunity_id = "page"."id")`,
    })
    .from(pageRows)
    .orderBy(desc(pageRows.createdAt), desc(pageRows.id))) as unknown as { row: OpportunityRow; cursorAt: string; hasPayments: boolean }[];
  return rows.map((r) => ({ ...r, id: r.row.id }));
}

export async function getOpportunity(db: Db, id: string): Promise<OpportunityRow> {
  const [row] = await db.select().from(opportunities).where(eq(opportunities.id, id));
  if (!row) throw notFound('Opportunity not found');
  return row;
}

export async function createOpportunity(db: Db, input: OpportunityRequest): Promise<OpportunityRow> {
  const [row] = await db.insert(opportunities).values(columnsOf(input)).returning();
  return row;
}

/**
 * Replaces the admin-editable fields. One conditional UPDATE, so a checkout filling a slot at the
 * same moment cannot be lost: maxSlots may not drop below filledSlots, and an available or full
 * opportunity becomes full exactly when its slots are all taken (claimed, in progress and
 * published ones keep their status).
 */
export async function updateOpportunity(db: Db, id: string, input: OpportunityRequest): Promise<OpportunityRow> {
  const max = input.maxSlots;
  const [row] = await db
    .update(opportunities)
    .set({
      ...columnsOf(input),
      status: sql`CASE WHEN ${opportunities.status} IN ('available', 'full')
        THEN (CASE WHEN ${opportunities.filledSlots} >= ${max} THEN 'full' ELSE 'available' END)
        ELSE ${opportunities.status} END`,
    })
    .where(and(eq(opportunities.id, id), lte(opportunities.filledSlots, max)))
    .returning();
  if (row) return row;
  const existing = await getOpportunity(db, id);
  throw conflict(
    `Max slots cannot be lower than the ${existing.filledSlots} slot${existing.filledSlots === 1 ? '' : 's'} already filled`,
  );
}
