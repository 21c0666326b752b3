/**
 * The benchmark's data set as plain SQL (generate_series), run unchanged on PostgreSQL and PGlite:
 * 5,000 approved brands, 10,000 opportunities (about 1,000 claimable), 100,000 payments, 150,000
 * checkouts (those the payments came from, and unpaid ones) and ~90,000 briefs, with the timeline
 * entries the workflow's timers look for. Ids are md5-derived uuids so the statements can refer to
 * each other without lookups, and every value is a function of the row number: two runs seed the
 * same data (only timestamps move).
 */

import { configSchema } from '../../src/server/config';
import { ORGANISATIONS_OF_BRANDS, placementsOfPayments } from './mix-seed';

const BENCH_BRANDS = 5_000;
const BENCH_OPPORTUNITIES = 10_000;
const BENCH_PAYMENTS = 100_000;
/** brand number 0 has exactly this many placements (My Articles, wallet) */
export const BIG_BRAND_PLACEMENTS = 200;
/** opportunity numbers divisible by this are claimable with 10,000 free slots: checkout creation claims them */
const CHECKOUT_OPPORTUNITY_EVERY = 100;

export const brandEmail = (n: number) => `brand${n}@bench.example.com`;
export const BRAND_PASSWORD = 'bench-password-1';

/** The timers' terms the bench's servers run with (their defaults, or this environment's). */
const TIMERS = {
  briefReminderDays: configSchema.shape.BRIEF_REMINDER_DAYS.parse(process.env.BRIEF_REMINDER_DAYS),
  reviewReminderDays: configSchema.shape.REVIEW_REMINDER_DAYS.parse(process.env.REVIEW_REMINDER_DAYS),
  autoApproveDays: configSchema.shape.AUTO_APPROVE_DAYS.parse(process.env.AUTO_APPROVE_DAYS),
};
/** a waiting draft waits at most half the time after which a timer acts on it */
const DRAFT_WAIT_SECONDS = (Math.min(TIMERS.reviewReminderDays, TIMERS.autoApproveDays || Infinity) * 86_400) / 2;

/** 00:00 UTC of today, in SQL */
const TODAY = `(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
/** a pseudo-random instant in the last two years (or `windowSeconds`), with microseconds, from an integer expression */
const past = (n: string, prime: number, windowSeconds = 63_072_000) =>
  `now() - make_interval(secs => ((${n}::bigint * ${prime}) % ${windowSeconds}) + ((${n}::bigint * 7919) % 1000000) / 1000000.0)`;
/** held (paid) payments are at most 80 days old: the 90-day guarantee job must find nothing to refund during the run */
const HELD_WINDOW_SECONDS = 80 * 86_400;

export function seedStatements(passwordHash: string): { label: string; sql: string }[] {
  if (passwordHash.includes("'")) throw new Error('unexpected quote in the password hash');
  return [
    {
      label: `${BENCH_BRANDS} brands`,
      sql: `INSERT INTO users (id, name, email, password, role, brand_name, website, approved, email_notifications, created_at)
        SELECT md5('bench-brand-' || n)::uuid, 'Brand Owner ' || n, 'brand' || n || '@bench.example.com', '${passwordHash}', 'brand',
               'Bench Brand ' || n, 'https://brand' || n || '.example.com', true, n % 3 <> 0, ${past('n', 104723)}
        FROM generate_series(0, ${BENCH_BRANDS - 1}) n`,
    },
    { label: 'their organisations', sql: ORGANISATIONS_OF_BRANDS },
    {
      // c = n % 10: 0 claimable (available, a slot left, deadline null or ahead); 1-3 published;
      // 4-6 full; 7-8 available but past the deadline; 9 claimed or in progress
      label: `${BENCH_OPPORTUNITIES} opportunities`,
      sql: `INSERT INTO opportunities (id, title, outlet_name, outlet_url, description, type, tat, price_usd, logo_url,
                                       example_urls, max_slots, filled_slots, domain_authority, deadline_date, status, created_at)
        SELECT md5('bench-opp-' || n)::uuid,
          (ARRAY['Founder profile in', 'Industry feature for', 'Sponsored story in', 'Top 10 list in'])[1 + n % 4]
            || ' the ' || (ARRAY['business', 'technology', 'lifestyle', 'finance', 'health'])[1 + n % 5] || ' section #' || n,
          'Outlet ' || (n % 700),
          CASE WHEN n % 9 = 0 THEN NULL ELSE 'https://outlet' || (n % 700) || '.example.com' END,
          repeat('An in-depth piece written by the outlet''s own staff for its readers. ', 1 + n % 5) || 'Ref ' || n || '.',
          CASE n % 4 WHEN 0 THEN ARRAY['profile_article'] WHEN 1 THEN ARRAY['editorial_feature', 'listicle']
                     WHEN 2 THEN ARRAY['advertorial_brand_voice'] ELSE ARRAY['listicle'] END,
          CASE WHEN n % 7 = 0 THEN NULL ELSE (1 + n % 4) || '-' || (2 + n % 4) || ' weeks' END,
          (100 + (n * 37) % 9900) + (n % 100) / 100.0,
          CASE WHEN n % 5 = 0 THEN NULL ELSE '/uploads/' || md5('logo' || n) || '.png' END,
          CASE n % 4 WHEN 0 THEN '{}'::text[]
                     WHEN 1 THEN ARRAY['https://outlet' || (n % 700) || '.example.com/story-' || n]
                     ELSE ARRAY['https://outlet' || (n % 700) || '.example.com/a-' || n, '/uploads/' || md5('ex' || n) || '.jpg'] END,
          s.max_slots,
          CASE WHEN s.c = 0 OR s.c IN (7, 8) THEN (n / 10) % s.max_slots ELSE s.max_slots END,
          CASE WHEN n % 11 = 0 THEN NULL ELSE 1 + n % 100 END,
          CASE WHEN s.checkout THEN NULL
               WHEN s.c IN (7, 8) THEN ${TODAY} - make_interval(days => 1 + n % 365)
               WHEN (n / 10) % 2 = 0 THEN NULL
               WHEN s.c IN (1, 2, 3) THEN ${TODAY} - make_interval(days => n % 300)
               ELSE ${TODAY} + make_interval(days => n % 180) END,
          CASE WHEN s.c = 0 OR s.c IN (7, 8) THEN 'available' WHEN s.c IN (1, 2, 3) THEN 'published'
               WHEN s.c IN (4, 5, 6) THEN 'full' WHEN n % 20 = 9 THEN 'claimed' ELSE 'in_progress' END,
          ${past('n', 104729)}
        FROM (SELECT n, n % 10 AS c, n % ${CHECKOUT_OPPORTUNITY_EVERY} = 0 AS checkout,
                     CASE WHEN n % ${CHECKOUT_OPPORTUNITY_EVERY} = 0 THEN 10000 ELSE 2 + (n / 10) % 9 END AS max_slots
              FROM generate_series(1, ${BENCH_OPPORTUNITIES}) n) s`,
    },
    {
      // brand 0 has exactly ${BIG_BRAND_PLACEMENTS}; the rest spread over brands 1..; 70% paid,
      // 25% released, 5% refunded; every review state among the paid ones
      label: `${BENCH_PAYMENTS} payments`,
      sql: `INSERT INTO payments (id, brand_id, organisation_id, opportunity_id, stripe_payment_id, provider_session_id, amount, status, holds_slot,
                                  paid_at, released_at, refund_requested_at, refund_reason, provider_refund_id, refunded_at, created_at)
        SELECT md5('bench-pay-' || n)::uuid,
          md5('bench-brand-' || CASE WHEN n <= ${BIG_BRAND_PLACEMENTS} THEN 0 ELSE 1 + (n * 7) % ${BENCH_BRANDS - 1} END)::uuid,
          md5('bench-brand-' || CASE WHEN n <= ${BIG_BRAND_PLACEMENTS} THEN 0 ELSE 1 + (n * 7) % ${BENCH_BRANDS - 1} END)::uuid,
          o.id, 'pi_bench_' || n, 'cs_bench_' || n, o.price_usd, s.status, s.status <> 'refunded',
          s.at, CASE WHEN s.status = 'released' THEN s.at + interval '20 days' END,
          CASE WHEN s.status = 'refunded' THEN s.at + interval '5 days' END,
          CASE WHEN s.status = 'refunded' THEN 'admin' END,
          CASE WHEN s.status = 'refunded' THEN 're_bench_' || n END,
          CASE WHEN s.status = 'refunded' THEN s.at + interval '5 days' END,
          s.at
        FROM (SELECT n, m,
                CASE WHEN n % 20 = 0 THEN 'refunded' WHEN n % 20 <= 5 THEN 'released' ELSE 'paid' END AS status,
                -- a payment still held 90 days after it was paid is refunded by the guarantee job: held ones are younger
                CASE WHEN n % 20 > 5 THEN ${past('n', 15485863, HELD_WINDOW_SECONDS)} ELSE ${past('n', 15485863)} END AS at
              FROM (SELECT n, CASE WHEN (1 + (n * 31) % ${BENCH_OPPORTUNITIES}) % ${CHECKOUT_OPPORTUNITY_EVERY} = 0
                                   THEN (n * 31) % ${BENCH_OPPORTUNITIES} ELSE 1 + (n * 31) % ${BENCH_OPPORTUNITIES} END AS m
                    FROM generate_series(1, ${BENCH_PAYMENTS}) n) g) s
        JOIN opportunities o ON o.id = md5('bench-opp-' || s.m)::uuid`,
    },
    {
      // the placement each payment paid for (its id the payment's), its draft and review
      label: 'placements',
      sql: placementsOfPayments(`(SELECT *, substr(stripe_payment_id, 10)::int AS n FROM payments WHERE stripe_payment_id LIKE 'pi_bench_%') p`),
    },
    {
      // every payment came from a checkout with its id, and every other claim was left unpaid (expired
      // or cancelled), as in use. Without them the table is empty when measuring starts, and a
      // statement planned then keeps a plan for an empty table (a sequential scan) for the whole run.
      label: 'checkouts',
      // (a paid one started 5 minutes before its payment; an unpaid one the day before, a claim of the
      // same opportunity left to expire or cancelled)
      sql: `INSERT INTO checkouts (id, provider_session_id, brand_id, organisation_id, opportunity_id, amount, status, url, expires_at, closed_at, created_at)
        SELECT CASE WHEN a.paid THEN p.id ELSE md5('bench-unpaid-checkout-' || p.n)::uuid END,
          CASE WHEN a.paid THEN p.provider_session_id ELSE 'cs_bench_unpaid_' || p.n END,
          p.brand_id, p.organisation_id, p.opportunity_id, p.amount,
          CASE WHEN a.paid THEN 'completed' WHEN p.n % 3 = 0 THEN 'cancelled' ELSE 'expired' END,
          'https://checkout.example.com/c/' || p.n || CASE WHEN a.paid THEN '' ELSE '-unpaid' END,
          a.started + interval '30 minutes',
          CASE WHEN a.paid THEN p.created_at WHEN p.n % 3 = 0 THEN a.started + interval '4 minutes' ELSE a.started + interval '30 minutes' END,
          a.started
        FROM (SELECT *, substr(stripe_payment_id, 10)::int AS n FROM payments WHERE stripe_payment_id LIKE 'pi_bench_%') p
        CROSS JOIN LATERAL (VALUES (true, p.created_at - interval '5 minutes'), (false, p.created_at - interval '1 day')) a(paid, started)
        WHERE a.paid OR p.n % 2 = 0`,
    },
    {
      // 90% of payments have a brief; those past "awaiting" and 70% of the rest are submitted
      label: 'briefs',
      sql: `INSERT INTO briefs (brand_id, organisation_id, opportunity_id, placement_id, part1_json, part2_json, submitted_at, updated_at, created_at)
        SELECT p.brand_id, p.organisation_id, p.opportunity_id, p.id,
          jsonb_build_object('personOrBrandName', 'Bench Brand ' || k, 'backgroundExperience',
            'Founded in ' || (2000 + k % 24) || ', we build tools that help small teams ship faster. Our founder previously led product at two startups.'),
          jsonb_build_object('mainGoal', 'Build awareness ahead of our launch', 'targetAudience', 'Operations leaders at mid-size companies',
            'mainMessage', 'Shipping faster does not have to mean breaking things.', 'toneStyleGuidelines', 'Confident, plain English, no jargon.',
            'socialMediaLinks', 'https://twitter.com/bench' || k || E'\\nhttps://linkedin.com/company/bench' || k),
          CASE WHEN p.draft_review_status <> 'awaiting_brand_brief' OR k % 10 < 7 THEN p.created_at + interval '1 day' END,
          p.created_at + interval '1 day', p.created_at + interval '1 hour'
        FROM (SELECT x.*, substr(m.stripe_payment_id, 10)::int AS k FROM placements x JOIN payments m ON m.id = x.payment_id
              WHERE m.stripe_payment_id LIKE 'pi_bench_%') p
        WHERE p.k % 10 <> 9`,
    },
    {
      // as a server that has run the workflow's timers (modules/timeline/timers.ts) leaves the data:
      // every brief reminder that fell due recorded. Otherwise the bench's first quarter-hour would
      // send them while it measures, a commit every few milliseconds for a minute.
      label: 'brief reminders sent',
      sql: `INSERT INTO placement_events (placement_id, kind, actor_type, actor_name, details, at)
        SELECT x.id, 'brief_reminder', 'system', 'Byline', jsonb_build_object('day', d, 'step', 'day' || d), p.paid_at + make_interval(days => d)
        FROM payments p JOIN placements x ON x.payment_id = p.id CROSS JOIN unnest(ARRAY[${TIMERS.briefReminderDays.join(', ')}]::int[]) d
        WHERE x.state = 'in_progress' AND x.draft_review_status = 'awaiting_brand_brief' AND p.paid_at <= now() - make_interval(days => d)
          AND NOT EXISTS (SELECT 1 FROM briefs b WHERE b.placement_id = x.id AND b.submitted_at IS NOT NULL)`,
    },
    {
      // likewise every draft waiting for its brand's review was attached (or its edits completed)
      // recently enough that no reminder or automatic approval is due
      label: 'drafts attached',
      sql: `INSERT INTO placement_events (placement_id, kind, actor_type, actor_name, details, at)
        SELECT x.id, CASE x.draft_review_status WHEN 'pending_brand_review' THEN 'draft_attached' ELSE 'edits_completed' END,
          'admin', 'Bench Editor', jsonb_build_object('round', 1),
          greatest(p.paid_at, now() - make_interval(secs => (substr(p.stripe_payment_id, 10)::bigint * 7919) % ${DRAFT_WAIT_SECONDS}))
        FROM payments p JOIN placements x ON x.payment_id = p.id
        WHERE x.state = 'in_progress' AND x.draft_review_status IN ('pending_brand_review', 'edits_complete') AND p.stripe_payment_id LIKE 'pi_bench_%'`,
    },
    // as a database in use would be: statistics gathered, and each row's visibility settled (the first
    // reads after a bulk load would otherwise write every page again to record it, in the measured runs)
    { label: 'vacuum analyze', sql: 'VACUUM (ANALYZE)' },
  ];
}
