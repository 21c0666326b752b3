import { and, desc, eq, getTableColumns, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterCursor, cursorAt, pageValues, type JsonPageRow, type Page } from '../../lib/paging';
import { as, item, type Computed, type ItemOf, type Same } from '../../db/item';
import { PAGE_LIMIT_MAX } from '../../../shared/schemas/paging';
import { jsonPages } from '../../lib/json-pages';
import { searchWords, tsQueryOf, typoTolerant } from './words';
import { promiseOn } from './claimable';
import type { Topic } from '../../../shared/catalogue';
import type { AdminOpportunityItem, BrandOpportunity, Opportunity, OpportunityType } from '../../../shared/opportunity';
import type { AdminOpportunitiesQuery, OpportunityRequest } from '../../../shared/schemas/opportunity';
import type { Db } from '../../db/client';
import { opportunities, payments } from '../../db/schema';
import { startOfUtcDay } from '../../lib/dates';
import { notFound, conflict } from '../../lib/errors';
import { contentVersion, staleCopy } from '../../lib/version';
import type { Versioned } from '../../../shared/schemas/version';
import { now as clockNow } from '../../lib/clock';

export type OpportunityRow = typeof opportunities.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The columns an opportunity shows (of the table, or of a subquery aliased to it). */
const opportunityFields = (t: typeof opportunities | typeof page) => ({
  id: t.id,
  title: t.title,
  outletName: t.outletName,
  outletUrl: t.outletUrl,
  description: t.description,
  type: as<OpportunityType[]>(t.type),
  tat: t.tat,
  priceUsd: t.priceUsd,
  logoUrl: t.logoUrl,
  exampleUrls: t.exampleUrls,
  maxSlots: t.maxSlots,
  filledSlots: t.filledSlots,
  domainAuthority: t.domainAuthority,
  deadlineDate: t.deadlineDate,
  status: t.status,
  createdAt: t.createdAt,
  tatDays: t.tatDays,
  linkType: t.linkType,
  topics: as<Topic[]>(t.topics),
  country: t.country,
  language: t.language,
  outletId: t.outletId,
});

/** The API's JSON for an opportunity: a new column never leaks by accident. */
const opportunityItem = item(opportunityFields(opportunities));
export const toOpportunityJson = (r: OpportunityRow): Opportunity => opportunityItem.of({ opportunities: r });

/**
 * The version of an opportunity an admin edits (decision 019): its fields as the API answers them,
 * less the two a checkout changes while the form is open (a slot taken is no reason to refuse a save).
 */
function opportunityVersion(r: OpportunityRow): string {
  const { filledSlots: _filled, status: _status, ...edited } = toOpportunityJson(r);
  return contentVersion(edited);
}

/** GET /api/admin/opportunities/{id} and its PATCH: the opportunity with its version. */
export const toVersionedOpportunityJson = (r: OpportunityRow): Versioned<Opportunity> => ({
  ...toOpportunityJson(r),
  version: opportunityVersion(r),
});

/** What a brand sees: the card and claim-dialog fields, not the status; with its promise (the database's promise_json). */
export function toBrandOpportunityJson({ promise, ...r }: OpportunityRow & Pick<BrandOpportunity, 'promise'>): BrandOpportunity {
  const { status: _status, ...rest } = toOpportunityJson(r);
  return { ...rest, promise };
}

/** A deadline day is stored as 00:00 UTC of that day. */
const deadlineTimestamp = (day: string | null) => (day ? new Date(`${day}T00:00:00.000Z`) : null);

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
    tatDays: input.tatDays,
    linkType: input.linkType,
    topics: input.topics,
    country: input.country,
    language: input.language,
  };
}

/** Brands' browse list: available and not past its deadline, newest first, in one query. */
export async function listClaimable(db: Db, now = clockNow()): Promise<(OpportunityRow & Pick<BrandOpportunity, 'promise'>)[]> {
  return db
    .select({ ...getTableColumns(opportunities), promise: promiseOn(startOfUtcDay(now).toISOString()) })
    .from(opportunities)
    .where(
      and(
        eq(opportunities.status, 'available'),
        or(isNull(opportunities.deadlineDate), gte(opportunities.deadlineDate, startOfUtcDay(now))),
      ),
    )
    .orderBy(desc(opportunities.createdAt), desc(opportunities.id));
}

/** The dashboard's page of opportunities: a subquery of the table under this name. */
const page = alias(opportunities, 'page');

/** "Has payments" (the Mark Published button) for a dashboard row: a lateral subquery of its own (below). */
const hasPayments: Computed<boolean> = {
  kind: 'computed',
  sql: sql`${sql.identifier('paid')}.${sql.identifier('has_payments')}`,
  of: () => {
    throw new Error('has payments is read by the database only');
  },
};
const dashboardItem = item({ ...opportunityFields(page), hasPayments });

const _itemTypesMatch: [
  Same<ItemOf<typeof opportunityItem>, Opportunity>,
  Same<ItemOf<typeof dashboardItem>, AdminOpportunityItem>,
] = [true, true];

type DashboardShape = { status: boolean; full: boolean; type: boolean; q: boolean; cursor: boolean };

const dashboardPage = jsonPages<DashboardShape, Record<string, unknown>>(
  'admin_opportunities',
  (o) => `${o.status ? 's' : ''}${o.full ? 'f' : ''}${o.type ? 't' : ''}${o.q ? 'q' : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) => {
    const filters = and(
      o.status ? sql`${opportunities.status} = ${sql.placeholder('status')}` : undefined,
      o.full ? eq(opportunities.status, 'full') : undefined,
      // an opportunity of several types matches each of them
      o.type ? sql`${opportunities.type} @> ARRAY[${sql.placeholder('type')}::text]` : undefined,
      // the brands' search (words.ts): every word (the last a prefix), or the outlet's name with a typo
      // (the typo match's threshold set by the statement itself, before its scan: words.ts typoTolerant)
      o.q ? typoTolerant : undefined,
      o.q
        ? sql`(${opportunities.search} @@ to_tsquery('simple', ${sql.placeholder('tsq')}) OR ${sql.placeholder('q')}::text <% ${opportunities.outletName})`
        : undefined,
      o.cursor ? afterCursor(opportunities.createdAt, opportunities.id) : undefined,
    );
    // The page first (the subquery; a constant LIMIT for the plan, see limitedPage), then "has
    // payments" for its rows only, in a lateral subquery of its own (OFFSET 0 keeps the planner from
    // merging it in): one index probe each on payments_opportunity_status_idx. Asked over the whole
    // filtered table, the planner would hash every payment on each request. No ORDER BY out here:
    // the page's rows come in its order, and are pulled only up to `limit`.
    return sql`SELECT ${columns(dashboardItem)}, ${page.id} AS "id", ${cursorAt(page.createdAt)} AS "cursorAt"
      FROM (SELECT * FROM ${opportunities} ${filters ? sql`WHERE ${filters}` : sql``}
        ORDER BY ${opportunities.createdAt} DESC, ${opportunities.id} DESC
        LIMIT ${sql.raw(String(PAGE_LIMIT_MAX + 1))}) AS ${sql.identifier('page')}
      CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.opportunityId} = ${page.id}) AS has_payments
        OFFSET 0) AS ${sql.identifier('paid')}
      LIMIT ${sql.placeholder('limit')}`;
  },
);

/**
 * The admin dashboard: every opportunity (or those matching its filters and search), newest first,
 * one page at a time, each row's JSON an `AdminOpportunityItem` built by the database.
 */
export function listAll(db: Db, filter: AdminOpportunitiesQuery, page: Page): Promise<JsonPageRow[]> {
  const words = searchWords(filter.q ?? '');
  const shape = {
    status: Boolean(filter.status),
    full: filter.full === 'true',
    type: Boolean(filter.type),
    q: words.length > 0,
    cursor: Boolean(page.cursor),
  };
  const values = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.type ? { type: filter.type } : {}),
    ...pageValues(page),
  };
  return dashboardPage(db, shape, shape.q ? { ...values, tsq: tsQueryOf(words), q: filter.q } : values);
}

export async function getOpportunity(db: Db | Tx, id: string, lock = false): Promise<OpportunityRow> {
  const q = db.select().from(opportunities).where(eq(opportunities.id, id));
  const [row] = lock ? await q.for('no key update') : await q;
  if (!row) throw notFound('opportunity_not_found', 'Opportunity not found');
  return row;
}

export async function createOpportunity(db: Db, input: OpportunityRequest): Promise<OpportunityRow> {
  const [row] = await db.insert(opportunities).values(columnsOf(input)).returning();
  return row;
}

/**
 * An admin's save (PATCH). With `baseVersion` (decision 019) only when the stored opportunity is
 * still that version, else 409 with the current one; without it, as the spec's body always did.
 */
export async function updateOpportunity(
  db: Db,
  id: string,
  input: OpportunityRequest,
  baseVersion?: string,
): Promise<OpportunityRow> {
  if (baseVersion === undefined) return replaceFields(db, id, input);
  // the row stays locked from the comparison to the write: no other save can land in between
  return db.transaction(async (tx) => {
    const current = await getOpportunity(tx, id, true);
    if (opportunityVersion(current) !== baseVersion) {
      throw staleCopy(
        'This opportunity was changed by someone else since you opened it',
        toVersionedOpportunityJson(current),
      );
    }
    return replaceFields(tx, id, input);
  });
}

/**
 * Replaces the admin-editable fields. One conditional UPDATE, so a checkout filling a slot at the
 * same moment cannot be lost: maxSlots may not drop below filledSlots, and an available or full
 * opportunity becomes full exactly when its slots are all taken (claimed, in progress and
 * published ones keep their status).
 */
async function replaceFields(db: Db | Tx, id: string, input: OpportunityRequest): Promise<OpportunityRow> {
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
    'max_slots_below_filled', `Max slots cannot be lower than the ${existing.filledSlots} slot${existing.filledSlots === 1 ? '' : 's'} already filled`,
  );
}
