import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inviteCodes, opportunities, organisations, users } from '../db/schema';
import { hashPassword } from '../lib/password';

export const DEMO_LOGINS = {
  admin: { email: 'admin@byline.test', password: 'byline-admin-demo' },
  brand: { email: 'brand@byline.test', password: 'byline-brand-demo' },
  inviteCode: 'BYLINE-DEMO',
};

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

// no filled slots: every filled slot is a payment or a live checkout hold. tatDays is the longest
// turnaround the `tat` text allows (what a brand filtering by "at most N days" relies on).
const DEMO_OPPORTUNITIES: (typeof opportunities.$inferInsert)[] = [
  {
    outletName: 'TechCrunch Daily',
    outletUrl: 'https://example.com/techcrunch-daily',
    title: 'Founder profile: building the next wave of climate tech',
    description: 'An in-depth profile of your founder and company, written by our staff journalists and published in the Startups section.',
    type: ['profile_article'],
    tat: '2-3 weeks',
    tatDays: 21,
    linkType: 'dofollow',
    topics: ['startups', 'technology', 'energy'],
    country: 'US',
    language: 'en',
    priceUsd: '2500.00',
    maxSlots: 1,
    domainAuthority: 92,
    deadlineDate: inDays(45),
  },
  {
    outletName: 'Forbes Insights',
    outletUrl: 'https://example.com/forbes-insights',
    title: '10 SaaS tools changing how teams work in 2027',
    description: 'Be one of ten entries in a curated list of the tools our editors recommend to operations leaders.',
    type: ['listicle'],
    tat: '10 business days',
    // ten working days are two calendar weeks
    tatDays: 14,
    linkType: 'nofollow',
    topics: ['saas', 'technology', 'business'],
    country: 'US',
    language: 'en',
    priceUsd: '899.99',
    maxSlots: 10,
    domainAuthority: 95,
    deadlineDate: inDays(30),
  },
  {
    outletName: 'Business Weekly',
    outletUrl: 'https://example.com/business-weekly',
    title: 'The future of remote work: an industry feature',
    description: 'Your company quoted and featured as part of a larger story on how distributed teams are reshaping the office.',
    type: ['editorial_feature'],
    tat: '3-4 weeks',
    tatDays: 28,
    linkType: 'dofollow',
    topics: ['business', 'hr'],
    country: 'GB',
    language: 'en',
    priceUsd: '1750.00',
    maxSlots: 3,
    domainAuthority: 84,
    deadlineDate: inDays(60),
  },
  {
    outletName: 'Lifestyle Today',
    outletUrl: 'https://example.com/lifestyle-today',
    title: 'Sponsored story in your brand voice',
    description: 'A sponsored article written in your brand voice, clearly labelled and promoted on the home page for one week.',
    type: ['advertorial_brand_voice'],
    tat: '1 week',
    tatDays: 7,
    linkType: 'sponsored',
    topics: ['lifestyle', 'food', 'travel'],
    country: 'AU',
    language: 'en',
    priceUsd: '1200.50',
    maxSlots: 2,
    domainAuthority: 71,
    deadlineDate: null,
  },
];

export async function isEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  return n === 0;
}

/** Demo content for a first look: an admin, an approved brand, an invite code and outlets. */
export async function seedDemo(db: Db): Promise<void> {
  const [adminHash, brandHash] = await Promise.all([
    hashPassword(DEMO_LOGINS.admin.password),
    hashPassword(DEMO_LOGINS.brand.password),
  ]);
  await db.transaction(async (tx) => {
    const [admin] = await tx
      .insert(users)
      .values({ email: DEMO_LOGINS.admin.email, password: adminHash, role: 'admin', name: 'Alex Morgan', approved: true })
      .returning();
    // the demo brand owns its organisation, as profile completion makes it
    const [org] = await tx.insert(organisations).values({ name: 'Northwind Coffee', approved: true }).returning();
    await tx.insert(users).values({
      email: DEMO_LOGINS.brand.email,
      password: brandHash,
      role: 'brand',
      name: 'Dana Whitfield',
      brandName: 'Northwind Coffee',
      website: 'https://northwind.example.com',
      approved: true,
      organisationId: org.id,
      orgRole: 'owner',
    });
    await tx.insert(inviteCodes).values({ code: DEMO_LOGINS.inviteCode, createdBy: admin.id });
    await tx.insert(opportunities).values(DEMO_OPPORTUNITIES);
  });
}

export function demoLoginsText(): string {
  return [
    'Demo logins (seeded on first start):',
    `  admin  ${DEMO_LOGINS.admin.email} / ${DEMO_LOGINS.admin.password}`,
    `  brand  ${DEMO_LOGINS.brand.email} / ${DEMO_LOGINS.brand.password}`,
    `  invite code for new brands: ${DEMO_LOGINS.inviteCode}`,
  ].join('\n');
}
