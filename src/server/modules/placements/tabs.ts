import { sql, type SQL } from 'drizzle-orm';
import { REVIEW_STATUSES } from '../../../shared/payment';
import type { ArticleTab, ProjectTab } from '../../../shared/schemas/brief';
import { sqlList } from '../../db/sql-list';

/**
 * The tabs of My Articles and Admin Projects (spec §4) as SQL over `placements`: the spec's payment
 * statuses are the placement's states (paid: in_progress, released: published, refunded: refunded),
 * which move with them. Each admin predicate is the one of a partial index in schema.ts
 * (`placements_tab_*`), written with literals rather than parameters so the planner can prove the
 * index applies and walk it in list order.
 */
const awaitingBrief = sql.raw(`(placements.state = 'in_progress' AND placements.draft_review_status = 'awaiting_brand_brief')`);

/**
 * Spec §4 (brand): Pending = paid, awaiting a brief; Needs Review = paid, a draft under the brand's
 * review; Completed = released. The spec gives an approved, unpublished draft no tab: it has its own,
 * Approved (issue 43: under Needs Review it read as still to review). Refunded (issue 20) =
 * refunded, which the spec places in no tab. Every purchase is in exactly one tab.
 */
const underReview = sql`(placements.state = 'in_progress' AND placements.draft_review_status IN ${sqlList(REVIEW_STATUSES)})`;
const approvedHeld = sql.raw(`(placements.state = 'in_progress' AND placements.draft_review_status = 'approved')`);

export const ARTICLE_TAB_SQL: Record<ArticleTab, SQL> = {
  pending: awaitingBrief,
  'needs-review': underReview,
  approved: approvedHeld,
  completed: sql.raw(`(placements.state = 'published')`),
  refunded: sql.raw(`(placements.state = 'refunded')`),
};

/**
 * Spec §4 (admin): Awaiting Brief, Pending Review, Approved; then Published and Refunded (issue 20),
 * by the placement's state alone, each counted and listed through its partial index.
 * Approved is the approved drafts still held (issue 43: a published one was counted under both
 * Approved and Published), so every project is in exactly one tab.
 */
export const PROJECT_TAB_SQL: Record<ProjectTab, SQL> = {
  awaiting: awaitingBrief,
  review: underReview,
  approved: approvedHeld,
  published: sql.raw(`(placements.state = 'published')`),
  refunded: sql.raw(`(placements.state = 'refunded')`),
};

/** Every project an admin follows: held or released. */
export const ALL_PROJECTS_SQL = sql.raw(`(placements.state IN ('in_progress', 'published'))`);
