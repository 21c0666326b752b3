import { sql, type SQL } from 'drizzle-orm';
import { REVIEW_STATUSES } from '../../../shared/payment';
import type { ArticleTab, ProjectTab } from '../../../shared/schemas/brief';
import { sqlList } from '../../db/sql-list';

/**
 * The tabs of My Articles and Admin Projects (spec §4) as SQL. Each admin predicate is the one of a
 * partial index in schema.ts (`payments_tab_*`), written with literals rather than parameters so
 * the planner can prove the index applies and walk it in list order.
 */
const awaitingBrief = sql.raw(`(payments.status = 'paid' AND payments.draft_review_status = 'awaiting_brand_brief')`);

/** Spec §4 (brand): Pending = paid, awaiting a brief; Needs Review = paid, past that (an approved
 * draft waits there for publication); Completed = released (and refunded, which is over too). */
export const ARTICLE_TAB_SQL: Record<ArticleTab, SQL> = {
  pending: awaitingBrief,
  'needs-review': sql.raw(`(payments.status = 'paid' AND payments.draft_review_status <> 'awaiting_brand_brief')`),
  completed: sql.raw(`(payments.status <> 'paid')`),
};

/** Spec §4 (admin): Awaiting Brief, Pending Review, Approved (a published approved draft stays there). */
export const PROJECT_TAB_SQL: Record<ProjectTab, SQL> = {
  awaiting: awaitingBrief,
  review: sql`(payments.status = 'paid' AND payments.draft_review_status IN ${sqlList(REVIEW_STATUSES)})`,
  approved: sql.raw(`(payments.draft_review_status = 'approved' AND payments.status <> 'refunded')`),
};

/** Every project an admin follows: held or released. */
export const ALL_PROJECTS_SQL = sql.raw(`(payments.status IN ('paid', 'released'))`);
