import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PUBLICATION_HEALTHS, type PlacementCounts, type PublicationHealth } from '../../../shared/publication';
import type { AdminProjectsQuery, ArticleTab, ArticleTabCounts, MyArticlesQuery, ProjectTab, ProjectTabCounts } from '../../../shared/schemas/brief';
import type { Db } from '../../db/client';
import { brandMatches, brandSearchPick, likeLiteral } from '../../db/brand-search';
import { jsonPages } from '../../lib/json-pages';
import { PAGE_LIMIT_MAX } from '../../../shared/schemas/paging';
import { briefs, opportunities, organisations, orgClients, payments, placements, publicationCases, publications, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { afterCursor, cursorAt, limitedPage, pageValues, type JsonPageRow, type Page } from '../../lib/paging';
import { inClients, PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { Scope } from '../../lib/contract';
import { livePlacementItem, adminPlacementItem, brandPlacementItem } from './item';
import { ALL_PROJECTS_SQL, ARTICLE_TAB_SQL, PROJECT_TAB_SQL } from './tabs';
import { lifeInputsSql, withLife } from '../life/life';
import type { Viewer } from '../../../shared/placement-machine';
import { clockStateSql } from '../../db/stage-clock';

/** A placement's payment, opportunity and brief: what every placement list joins. */
const placementJoins = sql`JOIN ${payments} ON ${payments.id} = ${placements.paymentId}
      JOIN ${opportunities} ON ${opportunities.id} = ${placements.opportunityId}
      LEFT JOIN ${briefs} ON ${briefs.placementId} = ${placements.id}
      LEFT JOIN ${orgClients} ON ${orgClients.id} = ${placements.clientId}`;

/** The live article of a placement and its open case, for the items that show them. */
const publicationJoins = sql`LEFT JOIN ${publications} ON ${publications.placementId} = ${placements.id}
      LEFT JOIN ${publicationCases} ON ${publicationCases.placementId} = ${placements.id} AND ${publicationCases.closedAt} IS NULL`;

type MyArticlesShape = { tab?: ArticleTab; byPayment: boolean; byOpportunity: boolean; byClients: boolean; cursor: boolean };

const myArticlesPage = jsonPages<MyArticlesShape, Record<string, unknown>>(
  'my_articles',
  (o) => `${o.tab ?? 'all'}.${o.byPayment ? 'p' : ''}${o.byOpportunity ? 'o' : ''}${o.byClients ? 'k' : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) =>
    limitedPage(sql`SELECT ${columns(brandPlacementItem)}, ${lifeInputsSql} AS "life", ${placements.id} AS "id", ${cursorAt(placements.createdAt)} AS "cursorAt"
      FROM ${placements}
      ${placementJoins}
      ${publicationJoins}
      WHERE ${and(
        sql`${placements.organisationId} = ${sql.placeholder('organisationId')}`,
        o.tab ? ARTICLE_TAB_SQL[o.tab] : undefined,
        o.byPayment ? sql`${placements.id} = ${sql.placeholder('paymentId')}::uuid` : undefined,
        o.byOpportunity ? sql`${placements.opportunityId} = ${sql.placeholder('opportunityId')}::uuid` : undefined,
        o.byClients ? inClients(placements.clientId) : undefined,
        o.cursor ? afterCursor(placements.createdAt, placements.id) : undefined,
      )}
      ORDER BY ${placements.createdAt} DESC, ${placements.id} DESC`),
);

/**
 * GET /api/brand/my-articles: the brand's purchases with their opportunity and brief state, newest
 * first, one page at a time; filtered by tab (spec §4) or to one purchase (by payment or opportunity).
 * Each row's JSON is a `BrandPlacementItem`, built by the database.
 */
export async function myArticles(db: Db, scope: Scope, filter: MyArticlesQuery, page: Page, viewer: Viewer): Promise<JsonPageRow[]> {
  const shape = {
    tab: filter.tab,
    byPayment: Boolean(filter.paymentId),
    byOpportunity: Boolean(filter.opportunityId),
    byClients: scope.clientIds !== null,
    cursor: Boolean(page.cursor),
  };
  const rows = await myArticlesPage(
    db,
    shape,
    {
      organisationId: scope.organisationId,
      ...(scope.clientIds !== null ? { clientIds: scope.clientIds } : {}),
      ...(filter.paymentId ? { paymentId: filter.paymentId } : {}),
      ...(filter.opportunityId ? { opportunityId: filter.opportunityId } : {}),
      ...pageValues(page),
    },
  );
  return withLife(rows, viewer);
}

/** The one row of a list asked for one placement, or the 404 of a placement the caller may not see. */
function onlyRow(rows: JsonPageRow[]): string {
  const [row] = rows;
  if (!row) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  return row.json;
}

/**
 * GET /api/brand/my-articles/{paymentId}: the My Articles item of one of the brand's placements
 * (the list's statement filtered by payment), as JSON text; another brand's id is a 404.
 */
export async function myArticle(db: Db, scope: Scope, paymentId: string, viewer: Viewer): Promise<string> {
  return onlyRow(await myArticles(db, scope, { paymentId }, { limit: 1 }, viewer));
}

/** The tab counts of My Articles, counted by the database over all of the brand's purchases. */
export async function myArticleCounts(db: Db, scope: Scope): Promise<ArticleTabCounts> {
  const count = (tab: ArticleTab) => sql<number>`count(*) FILTER (WHERE ${ARTICLE_TAB_SQL[tab]})::int`;
  const [row] = await db
    .select({
      pending: count('pending'),
      needsReview: count('needs-review'),
      approved: count('approved'),
      completed: count('completed'),
      refunded: count('refunded'),
    })
    .from(placements)
    .where(
      and(
        eq(placements.organisationId, scope.organisationId),
        scope.clientIds !== null ? inArray(placements.clientId, scope.clientIds) : undefined,
      ),
    );
  // toReview (the drafts waiting for the brand, which pick the tab the page opens on) is Needs Review's count
  return {
    pending: row.pending,
    'needs-review': row.needsReview,
    approved: row.approved,
    completed: row.completed,
    refunded: row.refunded,
    toReview: row.needsReview,
  };
}

const ADMIN: Viewer = { side: 'admin' };

type AdminProjectsShape = {
  tab?: ProjectTab;
  search: boolean;
  mine?: boolean;
  cursor: boolean;
  byPayment?: boolean;
  due?: boolean;
  clock?: 'at_risk' | 'late';
};
const adminProjectsPage = jsonPages<AdminProjectsShape, Record<string, unknown>>(
  'admin_projects',
  (o) =>
    o.byPayment
      ? 'one'
      : `${o.tab ?? 'all'}.${o.search ? 'q' : ''}${o.mine ? 'm' : ''}${o.due ? 'd' : ''}${o.clock ? `.${o.clock}.` : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) => {
    const filters = and(
      // one placement whatever its state (a refunded one too, which the list's tabs show apart)
      o.byPayment ? sql`${placements.id} = ${sql.placeholder('paymentId')}::uuid` : o.tab ? PROJECT_TAB_SQL[o.tab] : ALL_PROJECTS_SQL,
      o.mine ? sql`${placements.assigneeId} = ${sql.placeholder('adminId')}::uuid` : undefined,
      o.clock ? clockStateSql[o.clock] : undefined,
      // sorted by due time: the placements with a clock running, from the due-time index
      o.due ? sql`${placements.clockDueAt} IS NOT NULL` : undefined,
      o.cursor && o.due
        ? sql`(${placements.clockDueAt}, ${placements.id}) > (${sql.placeholder('cursorAt')}::timestamptz, ${sql.placeholder('cursorId')}::uuid)`
        : o.cursor
          ? afterCursor(placements.createdAt, placements.id)
          : undefined,
    );
    const order = o.due ? sql`${placements.clockDueAt} ASC, ${placements.id} ASC` : sql`${placements.createdAt} DESC, ${placements.id} DESC`;
    // a search by brand picks the page's ids first (brand-search.ts), the rest joined to those alone
    const pick = o.search
      ? brandSearchPick({
          from: sql`${placements}`,
          id: sql`${placements.id}`,
          at: o.due ? sql`${placements.clockDueAt}` : sql`${placements.createdAt}`,
          asc: Boolean(o.due),
          brandId: sql`${placements.brandId}`,
          filters,
          pageMax: PAGE_LIMIT_MAX + 1,
        })
      : undefined;
    return limitedPage(sql`SELECT ${columns(adminPlacementItem)}, ${lifeInputsSql} AS "life", ${placements.id} AS "id", ${cursorAt(o.due ? placements.clockDueAt : placements.createdAt)} AS "cursorAt"
      FROM ${pick ? sql`${pick.from} JOIN ${placements} ON ${placements.id} = "pick"."id"` : placements}
      ${placementJoins}
      JOIN ${users} ON ${users.id} = ${placements.brandId}
      JOIN ${organisations} ON ${organisations.id} = ${placements.organisationId}
      ${publicationJoins}
      WHERE ${pick ? sql`true` : (filters ?? sql`true`)}
      ORDER BY ${pick ? pick.order : order}`);
  },
);

/**
 * GET /api/admin/projects: placements in progress or published (or one tab of them, those of the
 * brands the search `q` finds, or with `mine` those `adminId` edits, or whose stage clock is at
 * risk or late), newest first or (`sort=due`, and always with `clock`) soonest due first, one page at a time, each row's
 * JSON an `AdminPlacementItem` built by the database.
 */
export async function adminProjects(db: Db, filter: AdminProjectsQuery, page: Page, adminId?: string): Promise<JsonPageRow[]> {
  const { tab, q, clock } = filter;
  const mine = Boolean(filter.mine && adminId);
  const rows = await adminProjectsPage(
    db,
    // late or at risk: by due time, the most urgent first (from the due-time index: a list of
    // 600,000 late placements newest first would sort them all; decision 048)
    { tab, search: q !== undefined, mine, cursor: Boolean(page.cursor), due: filter.sort === 'due' || clock !== undefined, clock },
    {
      ...(q !== undefined ? { q: likeLiteral(q) } : {}),
      ...(mine ? { adminId } : {}),
      ...pageValues(page),
    },
  );
  return withLife(rows, ADMIN);
}

/** GET /api/admin/projects/{paymentId}: the Projects item of one placement (the list's statement), as JSON text. */
export async function adminProject(db: Db, paymentId: string): Promise<string> {
  return onlyRow(withLife(await adminProjectsPage(db, { search: false, cursor: false, byPayment: true }, { paymentId, limit: 2 }), ADMIN));
}

/**
 * The tab counts: the spec's three each an index-only count over its partial index, Published and
 * Refunded over the status index; with a search (or "Mine": `mineOf`, the admin), of the matching
 * placements only, so the tabs count what they list.
 */
export async function adminProjectCounts(db: Db, q?: string, mineOf?: string): Promise<ProjectTabCounts> {
  const matching = sql.join(
    [
      q === undefined ? sql`` : sql` AND ${placements.brandId} IN (SELECT ${users.id} FROM ${users} WHERE ${brandMatches(likeLiteral(q))})`,
      mineOf === undefined ? sql`` : sql` AND ${placements.assigneeId} = ${mineOf}`,
    ],
    sql``,
  );
  const count = (tab: ProjectTab) => sql<number>`(SELECT count(*)::int FROM ${placements} WHERE ${PROJECT_TAB_SQL[tab]}${matching})`;
  const result = await db.execute(
    sql`SELECT ${count('awaiting')} AS awaiting, ${count('review')} AS review, ${count('approved')} AS approved,
      ${count('published')} AS published, ${count('refunded')} AS refunded`,
  );
  const [row] = (result as unknown as { rows: ProjectTabCounts[] }).rows;
  return {
    awaiting: Number(row.awaiting),
    review: Number(row.review),
    approved: Number(row.approved),
    published: Number(row.published),
    refunded: Number(row.refunded),
  };
}

type PlacementsShape = { health?: PublicationHealth; search: boolean; cursor: boolean };
const adminPlacementsPage = jsonPages<PlacementsShape, Record<string, unknown>>(
  'admin_placements',
  (o) => `${o.health ?? 'all'}.${o.search ? 'q' : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) => {
    const filters = and(
      o.health ? sql`${publications.health} = ${sql.placeholder('health')}` : undefined,
      o.cursor ? afterCursor(publications.publishedAt, publications.placementId) : undefined,
    );
    const order = sql`${publications.publishedAt} DESC, ${publications.placementId} DESC`;
    // a search by brand picks the page's ids first (brand-search.ts), the rest joined to those alone
    const pick = o.search
      ? brandSearchPick({
          from: sql`${publications} JOIN ${placements} ON ${placements.id} = ${publications.placementId}`,
          id: sql`${publications.placementId}`,
          at: sql`${publications.publishedAt}`,
          asc: false,
          brandId: sql`${placements.brandId}`,
          filters,
          pageMax: PAGE_LIMIT_MAX + 1,
        })
      : undefined;
    return limitedPage(sql`SELECT ${columns(livePlacementItem)}, ${placements.id} AS "id", ${cursorAt(publications.publishedAt)} AS "cursorAt"
      FROM ${pick ? sql`${pick.from} JOIN ${publications} ON ${publications.placementId} = "pick"."id"` : publications}
      JOIN ${placements} ON ${placements.id} = ${publications.placementId}
      JOIN ${payments} ON ${payments.id} = ${placements.paymentId}
      JOIN ${opportunities} ON ${opportunities.id} = ${placements.opportunityId}
      JOIN ${users} ON ${users.id} = ${placements.brandId}
      JOIN ${organisations} ON ${organisations.id} = ${placements.organisationId}
      LEFT JOIN ${orgClients} ON ${orgClients.id} = ${placements.clientId}
      LEFT JOIN ${publicationCases} ON ${publicationCases.placementId} = ${placements.id} AND ${publicationCases.closedAt} IS NULL
      WHERE ${pick ? sql`true` : (filters ?? sql`true`)}
      ORDER BY ${pick ? pick.order : order}`);
  },
);

/**
 * GET /api/admin/placements: every published placement (or those of one health, of the brands the
 * search `q` finds), newest publication first, paged.
 */
export function adminPlacements(db: Db, filter: { health?: PublicationHealth; q?: string }, page: Page): Promise<JsonPageRow[]> {
  const { health, q } = filter;
  return adminPlacementsPage(
    db,
    { health, search: q !== undefined, cursor: Boolean(page.cursor) },
    { ...(health ? { health } : {}), ...(q !== undefined ? { q: likeLiteral(q) } : {}), ...pageValues(page) },
  );
}

/**
 * GET /api/admin/placements/counts: published placements by health (the filter's counts) and the
 * open cases, the count beside "Placements" in the admin's sidebar.
 */
export async function placementCounts(db: Db): Promise<PlacementCounts> {
  const [byHealth] = await db
    .select({
      all: sql<number>`count(*)::int`,
      ...Object.fromEntries(PUBLICATION_HEALTHS.map((h) => [h, sql<number>`(count(*) FILTER (WHERE ${publications.health} = ${h}))::int`])),
    })
    .from(publications);
  const [open] = await db.select({ n: sql<number>`count(*)::int` }).from(publicationCases).where(isNull(publicationCases.closedAt));
  const counts = byHealth as Record<string, number>;
  return {
    all: Number(counts.all),
    ...(Object.fromEntries(PUBLICATION_HEALTHS.map((h) => [h, Number(counts[h] ?? 0)])) as Record<PublicationHealth, number>),
    issues: Number(open?.n ?? 0),
  };
}
