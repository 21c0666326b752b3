import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities, payments, publicationChecks, publications } from '../../db/schema';
import { linkStatusOf } from '../../../shared/reports';
import type { PublicationCheck } from '../../../shared/publication';

/** A placement's proof of publication, as a share link shows it: no price, no conversation. */
export interface PlacementProof {
  outlet: string;
  title: string;
  liveUrl: string | null;
  linkStatus: string;
  publishedAt: Date | null;
  guaranteeEndsAt: Date | null;
  checks: {
    checkedAt: Date;
    result: 'pass' | 'warning' | 'fail';
    httpStatus: number | null;
    linkFound: boolean;
    problems: string[];
  }[];
}

export async function placementProof(db: Db, placementId: string): Promise<PlacementProof | null> {
  const [row] = await db
    .select({ outlet: opportunities.outletName, title: opportunities.title, pub: publications })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .leftJoin(publications, eq(publications.placementId, payments.id))
    .where(eq(payments.id, placementId));
  if (!row) return null;
  const checks = await db
    .select({
      checkedAt: publicationChecks.checkedAt,
      result: publicationChecks.result,
      check: publicationChecks.check,
    })
    .from(publicationChecks)
    .where(eq(publicationChecks.placementId, placementId))
    .orderBy(desc(publicationChecks.checkedAt))
    .limit(100);
  return {
    outlet: row.outlet,
    title: row.title,
    liveUrl: row.pub?.url ?? null,
    // the latest check's, as the report says it (issue 57)
    linkStatus: row.pub ? linkStatusOf(row.pub.health, row.pub.lastCheck ?? null, row.pub.acceptedProblems) : 'Not published yet',
    publishedAt: row.pub?.publishedAt ?? null,
    guaranteeEndsAt: row.pub?.guaranteeEndsAt ?? null,
    checks: checks.map((c) => {
      const check = c.check as PublicationCheck;
      return {
        checkedAt: c.checkedAt,
        result: c.result,
        httpStatus: check.httpStatus,
        linkFound: check.link.found,
        problems: check.problems.map((p) => p.message),
      };
    }),
  };
}
