import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { briefs } from '../../src/server/db/schema';
import { createOpportunity } from './payments';
import { insertPlacedPayment, placedPaymentRow, type PlacedPaymentValues } from './placements';

export { createOpportunity };

type PaymentOverrides = Partial<PlacedPaymentValues> & { brandId: string; opportunityId: string };

/** A payment row made directly (the checkout itself is covered by the payments tests). */
export async function createPayment(db: Db, overrides: PaymentOverrides) {
  return insertPlacedPayment(db, {
    stripePaymentId: `pi_test_${randomBytes(12).toString('hex')}`,
    providerSessionId: `cs_test_${randomBytes(12).toString('hex')}`,
    amount: '1250.00',
    ...overrides,
  });
}

/** An opportunity and a held payment of `brandId` for it. */
export async function purchase(db: Db, brandId: string, overrides: Partial<PaymentOverrides> = {}) {
  const opportunity = overrides.opportunityId ? { id: overrides.opportunityId } : await createOpportunity(db);
  return createPayment(db, { brandId, ...overrides, opportunityId: opportunity.id });
}

export const paymentRow = placedPaymentRow;
export const briefRow = async (db: Db, paymentId: string) => (await db.select().from(briefs).where(eq(briefs.placementId, paymentId)))[0];

export const PART1 = {
  personOrBrandName: 'Acme Robotics',
  preferredTitle: 'How Acme taught robots to fold laundry',
  backgroundExperience: 'Ten years of warehouse automation.',
  inspiration: 'A pile of unfolded shirts.',
  uniquePerspective: 'We design for homes, not factories.',
};
export const PART2 = {
  mainGoal: 'Reach early adopters',
  targetAudience: 'Busy parents',
  mainMessage: 'Robots can do chores today',
  seoKeywords: 'home robot, laundry',
  toneStyleGuidelines: 'Warm, no jargon',
  socialMediaLinks: 'twitter.com/acme\nhttps://linkedin.com/company/acme',
};

/** A brief submitted directly (the brief routes have their own tests). */
export async function submittedBrief(db: Db, payment: { id: string; brandId: string; organisationId: string; opportunityId: string }) {
  const [row] = await db
    .insert(briefs)
    .values({ placementId: payment.id, brandId: payment.brandId, organisationId: payment.organisationId, opportunityId: payment.opportunityId, part1Json: PART1, part2Json: PART2, submittedAt: new Date() })
    .returning();
  return row;
}
