/**
 * The data of `npm run bench`'s mix (scripts/bench.ts) as plain SQL (generate_series): 5,000
 * approved brands and 300 waiting for approval, 3 editors, 100,000 opportunities of 3,000 outlets
 * (50,000 claimable), ~100,000 saved ones, and payments (with their briefs, publications for the
 * released ones, conversations and timelines for one in five, and the reminders a server that ran its
 * timers has recorded) added in ranges, so the same database can be measured at 10,000, 100,000 and
 * then 1,000,000 payments. Every value is a function of the row number (ids are md5-derived uuids):
 * two runs seed the same data.
 */
import { configSchema } from '../../src/server/config';
import { TOPICS } from '../../src/shared/catalogue';

export const MIX_BRANDS = 5_000;
/** brands signed up and waiting for an admin's approval (Admin Approvals) */
export const MIX_PENDING_BRANDS = 300;
/** the editorial team: admins who write the team's side of the conversations */
const EDITORS = 3;
export const MIX_OPPORTUNITIES = 100_000;
export const MIX_OUTLETS = 3_000;
/** brand 0 (the measured brand) has saved this many opportunities, claimable and sold out */
const SAVED_BY_BRAND_0 = 300;

export const mixBrandEmail = (n: number) => `brand${n}@mix-bench.example.com`;
export const MIX_BRAND_PASSWORD = 'mix-bench-password-1';

/** 00:00 UTC of today, in SQL */
const TODAY = `(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
/** a pseudo-random instant in the last `windowSeconds` (with microseconds), from an integer expression */
const past = (n: string, prime: number, windowSeconds: number) =>
  `now() - make_interval(secs => ((${n}::bigint * ${prime}) % ${windowSeconds}) + ((${n}::bigint * 7919) % 1000000) / 1000000.0)`;
/** a SQL array literal, in parentheses so it can be subscripted */
const arr = (values: (string | number)[]) =>
  `(ARRAY[${values.map((v) => (typeof v === 'number' ? String(v) : `'${v}'`)).join(', ')}])`;

// an outlet's country and language, weighted like a real catalogue: a hundred slots, most of them
// US, GB and DE, a few countries once; English is the language of most outlets (and of a fifth of
// the outlets of non-English countries, which publish in English too)
const COUNTRY_SLOTS: [string, string, number][] = [
  ['US', 'en', 30],
  ['GB', 'en', 15],
  ['DE', 'de', 10],
  ['CA', 'en', 6],
  ['AU', 'en', 5],
  ['FR', 'fr', 4],
  ['ES', 'es', 3],
  ['IT', 'it', 3],
  ['NL', 'nl', 3],
  ['IN', 'en', 2],
  ['SG', 'en', 2],
  ['AE', 'ar', 1],
  ['BR', 'pt', 1],
  ['SE', 'sv', 1],
  ['CH', 'de', 1],
  ['IE', 'en', 1],
  ['AT', 'de', 1],
  ['PL', 'pl', 1],
  ['JP', 'ja', 1],
  ['MX', 'es', 1],
  ['ZA', 'en', 1],
  ['NZ', 'en', 1],
  ['BE', 'fr', 1],
  ['DK', 'da', 1],
  ['NO', 'no', 1],
  ['FI', 'fi', 1],
  ['PT', 'pt', 1],
  ['IS', 'is', 1],
];
const countries = COUNTRY_SLOTS.flatMap(([c, , w]) => Array<string>(w).fill(c));
const languages = COUNTRY_SLOTS.flatMap(([, l, w]) => Array<string>(w).fill(l));
if (countries.length !== 100) throw new Error(`country slots add up to ${countries.length}, not 100`);

// an outlet's main topic, the common ones more often; the others from the whole list
const TOPIC_LIST: string[] = [...TOPICS];
const MAIN_TOPICS = [
  'business',
  'business',
  'business',
  'technology',
  'technology',
  'technology',
  'finance',
  'finance',
  'marketing',
  'marketing',
  'lifestyle',
  'lifestyle',
  'health',
  'health',
  'startups',
  'fintech',
  'ai',
  'crypto',
  'ecommerce',
  'saas',
  'travel',
  ...TOPIC_LIST,
];
const NAME_A = [
  'Global',
  'Daily',
  'Tech',
  'Market',
  'City',
  'Finance',
  'Health',
  'Startup',
  'Green',
  'Future',
  'Digital',
  'Capital',
  'Modern',
  'Metro',
  'Prime',
  'Urban',
  'Smart',
  'Wealth',
  'Venture',
  'Atlantic',
  'Pacific',
  'Northern',
  'Silicon',
  'Money',
  'Wellness',
  'Travel',
  'Style',
  'Crypto',
  'Retail',
  'Energy',
];
const NAME_B = [
  'Times',
  'Herald',
  'Review',
  'Journal',
  'Insider',
  'Post',
  'Wire',
  'Digest',
  'Gazette',
  'Observer',
  'Tribune',
  'Chronicle',
  'Monitor',
  'Report',
  'Weekly',
  'Today',
  'Ledger',
  'Express',
  'Bulletin',
  'Dispatch',
  'Standard',
  'Courier',
  'Magazine',
  'Network',
  'Beat',
];
const NAME_C = ['', ' Online', ' Now', ' Plus'];
const AUDIENCES = [
  'founders',
  'investors',
  'marketers',
  'engineers',
  'executives',
  'small business owners',
  'travellers',
  'parents',
  'students',
  'consumers',
];
const ANGLES = [
  'growth strategy',
  'product launches',
  'funding rounds',
  'industry trends',
  'customer stories',
  'expert interviews',
  'market analysis',
  'case studies',
];
const TAT_DAYS = [1, 2, 3, 3, 5, 5, 7, 7, 7, 10, 14, 14, 21, 30];

/** The outlet (0..MIX_OUTLETS-1) of opportunity n, and its stable pseudo-random slot 0..99. */
const K = `(n % ${MIX_OUTLETS})`;
const H = `((${K} * 7919) % 100)`;

/** Every brand with a name and no organisation gets one of its own, with its own id (as migration 0025 does). */
export const ORGANISATIONS_OF_BRANDS = `WITH made AS (
    INSERT INTO organisations (id, name, approved, created_at)
    SELECT id, coalesce(brand_name, name, email), approved, created_at FROM users
    WHERE role = 'brand' AND name IS NOT NULL AND organisation_id IS NULL
    RETURNING id)
  UPDATE users SET organisation_id = users.id, org_role = 'owner' FROM made WHERE made.id = users.id`;

export function catalogueStatements(passwordHash: string): { label: string; sql: string }[] {
  if (passwordHash.includes("'")) throw new Error('unexpected quote in the password hash');
  return [
    {
      label: `${MIX_BRANDS} brands`,
      sql: `INSERT INTO users (id, name, email, password, role, brand_name, website, approved, email_notifications, created_at)
        SELECT md5('search-brand-' || n)::uuid, 'Brand Owner ' || n, 'brand' || n || '@mix-bench.example.com', '${passwordHash}', 'brand',
               'Search Brand ' || n, 'https://brand' || n || '.example.com', true, n % 3 <> 0, ${past('n', 104723, 63_072_000)}
        FROM generate_series(0, ${MIX_BRANDS - 1}) n`,
    },
    {
      // each brand owns a one-person organisation with its own id, as migration 0025 makes them
      label: `${MIX_BRANDS} organisations`,
      sql: `${ORGANISATIONS_OF_BRANDS}`,
    },
    {
      // c = n % 20: 0-9 claimable (available, a slot left, no deadline or a later one); 10-11
      // available but past their deadline; 12-15 full; 16-17 published; 18 claimed; 19 in progress
      label: `${MIX_OPPORTUNITIES} opportunities`,
      sql: `INSERT INTO opportunities (id, title, outlet_name, outlet_url, description, type, tat, tat_days, price_usd, logo_url,
                                       example_urls, max_slots, filled_slots, domain_authority, deadline_date, status, created_at,
                                       link_type, topics, country, language)
        SELECT md5('search-opp-' || n)::uuid,
          (CASE n % 10 WHEN 0 THEN 'Founder profile in' WHEN 1 THEN 'Feature and top 10 list in' WHEN 2 THEN 'Industry feature in'
                       WHEN 3 THEN 'Top 10 roundup in' WHEN 4 THEN 'Expert profile in' ELSE 'Sponsored article in' END) || ' ' || s.outlet || ': ' || ${arr(ANGLES)}[1 + (n / 7) % ${ANGLES.length}]
            || ' on ' || replace(s.t1, '_', ' ') || ' for ' || ${arr(AUDIENCES)}[1 + (n / 3) % ${AUDIENCES.length}],
          s.outlet,
          'https://' || lower(replace(s.outlet, ' ', '')) || '.example.com',
          'A ' || (CASE n % 10 WHEN 0 THEN 'founder interview' WHEN 1 THEN 'staff-written feature with a listicle' WHEN 2 THEN 'staff-written feature'
                            WHEN 3 THEN 'listicle placement' WHEN 4 THEN 'expert profile' ELSE 'sponsored article in the brand''s voice' END)
            || ' in ' || s.outlet || ', read by ' || ${arr(AUDIENCES)}[1 + (n / 3) % ${AUDIENCES.length}] || ' who follow '
            || replace(s.t1, '_', ' ') || ' and ' || ${arr(ANGLES)}[1 + (n / 5) % ${ANGLES.length}] || '. '
            || repeat('The outlet''s editors work with the brand on the angle, headline and links; the article stays online with its link for at least a year. ', 1 + n % 3)
            || 'Listing ' || n || '.',
          CASE n % 10 WHEN 0 THEN ARRAY['profile_article'] WHEN 1 THEN ARRAY['editorial_feature', 'listicle'] WHEN 2 THEN ARRAY['editorial_feature']
                      WHEN 3 THEN ARRAY['listicle'] WHEN 4 THEN ARRAY['profile_article', 'editorial_feature']
                      ELSE ARRAY['advertorial_brand_voice'] END,
          CASE WHEN s.tat_days IS NULL THEN NULL ELSE s.tat_days || ' days' END,
          s.tat_days,
          -- whole dollars from 50 to 5,000, most of them cheap (squared: half under ~$1,300), some with cents
          ((5000 + (495000::bigint * s.u * s.u / 100000000) / 100 * 100 + CASE WHEN n % 10 = 0 THEN 99 ELSE 0 END)::numeric / 100),
          CASE WHEN n % 5 = 0 THEN NULL ELSE '/uploads/' || md5('logo' || ${K}) || '.png' END,
          CASE n % 3 WHEN 0 THEN '{}'::text[] ELSE ARRAY['https://' || lower(replace(s.outlet, ' ', '')) || '.example.com/story-' || n] END,
          s.max_slots,
          CASE WHEN s.c < 12 THEN (n / 20) % s.max_slots ELSE s.max_slots END,
          s.da,
          CASE WHEN s.c < 10 AND (n / 20) % 2 = 0 THEN NULL
               WHEN s.c < 10 THEN ${TODAY} + make_interval(days => 1 + n % 180)
               WHEN s.c < 12 THEN ${TODAY} - make_interval(days => 1 + n % 365)
               WHEN (n / 20) % 2 = 0 THEN NULL
               ELSE ${TODAY} + make_interval(days => (n % 360) - 180) END,
          CASE WHEN s.c < 12 THEN 'available' WHEN s.c < 16 THEN 'full' WHEN s.c < 18 THEN 'published' WHEN s.c = 18 THEN 'claimed' ELSE 'in_progress' END,
          ${past('n', 104729, 94_608_000)},
          CASE WHEN ${K} % 40 = 0 THEN NULL WHEN ${H} < 60 THEN 'dofollow' WHEN ${H} < 85 THEN 'nofollow' ELSE 'sponsored' END,
          ARRAY[s.t1] || CASE WHEN n % 3 > 0 THEN ARRAY[${arr(TOPIC_LIST)}[1 + (s.t1i + 1 + n % 5) % ${TOPIC_LIST.length}]] ELSE '{}'::text[] END
                      || CASE WHEN n % 3 = 2 THEN ARRAY[${arr(TOPIC_LIST)}[1 + (s.t1i + 7 + n % 11) % ${TOPIC_LIST.length}]] ELSE '{}'::text[] END,
          CASE WHEN ${K} % 50 = 1 THEN NULL ELSE ${arr(countries)}[1 + ${H}] END,
          CASE WHEN ${K} % 50 = 1 THEN NULL WHEN ${K} % 5 = 0 THEN 'en' ELSE ${arr(languages)}[1 + ${H}] END
        FROM (SELECT n, n % 20 AS c,
                 trim(${arr(NAME_A)}[1 + ${K} % 30] || ' ' || ${arr(NAME_B)}[1 + (${K} / 30) % 25] || ${arr(NAME_C)}[1 + ${K} / 750]) AS outlet,
                 ${arr(MAIN_TOPICS)}[1 + (${K} * 31) % ${MAIN_TOPICS.length}] AS t1,
                 array_position(${arr(TOPIC_LIST)}, ${arr(MAIN_TOPICS)}[1 + (${K} * 31) % ${MAIN_TOPICS.length}]) - 1 AS t1i,
                 CASE WHEN ${K} % 30 = 7 THEN NULL ELSE ${arr(TAT_DAYS)}[1 + (${K} * 13) % ${TAT_DAYS.length}] END AS tat_days,
                 -- DA per outlet, 10 to 95 (a few outlets have none)
                 CASE WHEN ${K} % 60 = 11 THEN NULL ELSE 10 + (${K} * 37) % 86 END AS da,
                 -- price: per listing, higher at higher DA (0..9999, squared below)
                 least(9999, (n * 7907) % 10000 * 7 / 10 + ((${K} * 37) % 86) * 35) AS u,
                 1 + (n / 20) % 5 + CASE WHEN n % 7 = 0 THEN 5 ELSE 0 END AS max_slots
              FROM generate_series(1, ${MIX_OPPORTUNITIES}) n) s`,
    },
    {
      label: `${MIX_PENDING_BRANDS} brands waiting for approval`,
      sql: `INSERT INTO users (id, name, email, password, role, brand_name, website, approved, email_notifications, created_at)
        SELECT md5('mix-pending-brand-' || n)::uuid, 'New Owner ' || n, 'pending' || n || '@mix-bench.example.com', '${passwordHash}', 'brand',
               'New Brand ' || n, 'https://new' || n || '.example.com', false, true, ${past('n', 104723, 2_592_000)}
        FROM generate_series(0, ${MIX_PENDING_BRANDS - 1}) n`,
    },
    { label: 'their organisations', sql: ORGANISATIONS_OF_BRANDS },
    {
      label: `${EDITORS} editors (admins)`,
      sql: `INSERT INTO users (id, name, email, password, role, approved)
        SELECT md5('mix-editor-' || n)::uuid, 'Editor ' || n, 'editor' || n || '@mix-bench.example.com', '${passwordHash}', 'admin', true
        FROM generate_series(0, ${EDITORS - 1}) n`,
    },
    {
      // brand 0 saved ${SAVED_BY_BRAND_0} (every 333rd opportunity: claimable and not), brands 1.. 20 each
      label: 'saved opportunities',
      sql: `INSERT INTO saved_opportunities (brand_id, organisation_id, opportunity_id, created_at)
        SELECT md5('search-brand-' || b)::uuid, md5('search-brand-' || b)::uuid, md5('search-opp-' || (1 + (b * 97 + j * 7919) % ${MIX_OPPORTUNITIES}))::uuid, ${past('b * 31 + j', 15485863, 31_536_000)}
        FROM generate_series(1, ${MIX_BRANDS - 1}) b, generate_series(1, 20) j
        UNION ALL
        SELECT md5('search-brand-0')::uuid, md5('search-brand-0')::uuid, md5('search-opp-' || (j * 333))::uuid, ${past('j', 15485863, 31_536_000)}
        FROM generate_series(1, ${SAVED_BY_BRAND_0}) j`,
    },
  ];
}

/** held (paid) payments are at most 80 days old: the 90-day guarantee job must find nothing to refund */
const HELD_WINDOW_SECONDS = 80 * 86_400;

/** The timers' terms the bench's server runs with (their defaults, or this environment's). */
const TIMERS = {
  briefReminderDays: configSchema.shape.BRIEF_REMINDER_DAYS.parse(process.env.BRIEF_REMINDER_DAYS),
  reviewReminderDays: configSchema.shape.REVIEW_REMINDER_DAYS.parse(process.env.REVIEW_REMINDER_DAYS),
  autoApproveDays: configSchema.shape.AUTO_APPROVE_DAYS.parse(process.env.AUTO_APPROVE_DAYS),
};
/** a waiting draft waits at most half the time after which a timer acts on it */
const DRAFT_WAIT_SECONDS = (Math.min(TIMERS.reviewReminderDays, TIMERS.autoApproveDays || Infinity) * 86_400) / 2;

/** one payment in this many has a conversation and a timeline (the others: none yet) */
export const CONVERSATION_EVERY = 5;

const sqlArray = (xs: string[]) => `(ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ')}])`;
const BRAND_LINES = [
  'Thanks for the draft! Could we mention our Series A in the second paragraph?',
  'Attached is the updated fact sheet with the launch date.',
  'Our legal team asked us to drop the comparison with competitors, sorry for the back and forth.',
  'Looks great, approving now.',
  'Can you confirm the link will be dofollow?',
  'Quick question: when do you expect the article to go live?',
];
const ADMIN_LINES = [
  'Hi! The editor has picked up your brief and will send a first draft this week.',
  'Here is the first draft for your review.',
  'We have made the edits you asked for; let us know if anything else needs changing.',
  'The article is scheduled for Thursday morning.',
  'Published: the link is live and we have verified it.',
  'The outlet asks for a headshot of the founder, could you send one?',
];
/** A placement's steps in the order they happen, with who takes them. */
const STEPS: [string, 'brand' | 'admin' | 'system'][] = [
  ['paid', 'brand'],
  ['brief_saved', 'brand'],
  ['brief_submitted', 'brand'],
  ['draft_attached', 'admin'],
  ['edits_requested', 'brand'],
  ['edits_completed', 'admin'],
  ['approved', 'brand'],
  ['published', 'admin'],
];
const STEP_KINDS = sqlArray(STEPS.map((s) => s[0]));
const STEP_ACTORS = sqlArray(STEPS.map((s) => s[1]));
const editor = (n: string) => `md5('mix-editor-' || ((${n}) % ${EDITORS}))::uuid`;

/**
 * The placement each payment of `payments` paid for (a FROM item aliased `p`: payment columns and
 * its number `n`), as fulfilment makes it (the payment's id; its state from the payment's status),
 * with every review state among the held ones, a draft once past "awaiting", feedback after edits.
 */
export function placementsOfPayments(payments: string): string {
  return `INSERT INTO placements (id, payment_id, brand_id, organisation_id, opportunity_id, state, draft_document_url, draft_review_status, brand_feedback, created_at)
    SELECT p.id, p.id, p.brand_id, p.organisation_id, p.opportunity_id,
      CASE p.status WHEN 'released' THEN 'published' WHEN 'refunded' THEN 'refunded' ELSE 'in_progress' END,
      CASE WHEN r.review <> 'awaiting_brand_brief' THEN 'https://docs.example.com/d/' || p.n END,
      r.review,
      CASE WHEN r.review IN ('edits_requested', 'edits_complete') THEN 'Please tighten the introduction and add the launch date.' END,
      p.created_at
    FROM ${payments}
    CROSS JOIN LATERAL (SELECT CASE WHEN p.n % 20 = 0 THEN 'awaiting_brand_brief' WHEN p.n % 20 <= 5 THEN 'approved'
      ELSE (ARRAY['awaiting_brand_brief', 'pending_brand_review', 'edits_requested', 'edits_complete', 'approved'])[1 + (p.n / 20) % 5] END AS review) r`;
}

/**
 * Payments `from`..`to` (1-based), 70% held, 25% released, 5% refunded, over the brands (brand 0
 * has payments 1..200) and opportunities; briefs for 90% of them; a publication for each released
 * one (not watched: next_check_at is null, so the server's link checker has nothing to do).
 */
export function paymentStatements(from: number, to: number): { label: string; sql: string }[] {
  const range = `${from.toLocaleString('en-US')}..${to.toLocaleString('en-US')}`;
  return [
    {
      label: `payments ${range}`,
      sql: `INSERT INTO payments (id, brand_id, organisation_id, opportunity_id, stripe_payment_id, provider_session_id, amount, status, holds_slot,
                                  paid_at, released_at, refund_requested_at, refund_reason, provider_refund_id, refunded_at, created_at)
        SELECT md5('search-pay-' || n)::uuid,
          md5('search-brand-' || CASE WHEN n <= 200 THEN 0 ELSE 1 + (n * 7) % ${MIX_BRANDS - 1} END)::uuid,
          md5('search-brand-' || CASE WHEN n <= 200 THEN 0 ELSE 1 + (n * 7) % ${MIX_BRANDS - 1} END)::uuid,
          o.id, 'pi_sbench_' || n, 'cs_sbench_' || n, o.price_usd, s.status, s.status <> 'refunded',
          s.at, CASE WHEN s.status = 'released' THEN s.at + interval '20 days' END,
          CASE WHEN s.status = 'refunded' THEN s.at + interval '5 days' END,
          CASE WHEN s.status = 'refunded' THEN 'admin' END,
          CASE WHEN s.status = 'refunded' THEN 're_sbench_' || n END,
          CASE WHEN s.status = 'refunded' THEN s.at + interval '5 days' END,
          s.at
        FROM (SELECT n,
                CASE WHEN n % 20 = 0 THEN 'refunded' WHEN n % 20 <= 5 THEN 'released' ELSE 'paid' END AS status,
                CASE WHEN n % 20 > 5 THEN ${past('n', 15485863, HELD_WINDOW_SECONDS)} ELSE ${past('n', 15485863, 63_072_000)} END AS at
              FROM generate_series(${from}, ${to}) n) s
        JOIN opportunities o ON o.id = md5('search-opp-' || (1 + (s.n * 31) % ${MIX_OPPORTUNITIES}))::uuid`,
    },
    {
      // the placement each payment paid for (its id the payment's, as fulfilment makes it), its draft and review
      label: `placements of payments ${range}`,
      sql: placementsOfPayments(`(SELECT p.*, g.n FROM generate_series(${from}, ${to}) g(n) JOIN payments p ON p.id = md5('search-pay-' || g.n)::uuid) p`),
    },
    {
      label: `briefs of payments ${range}`,
      sql: `INSERT INTO briefs (brand_id, organisation_id, opportunity_id, placement_id, part1_json, part2_json, submitted_at, updated_at, created_at)
        SELECT p.brand_id, p.organisation_id, p.opportunity_id, p.id,
          jsonb_build_object('personOrBrandName', 'Search Brand ' || k, 'backgroundExperience', 'Founded in ' || (2000 + k % 24) || ', we build tools that help small teams ship faster.'),
          jsonb_build_object('mainGoal', 'Build awareness ahead of our launch', 'targetAudience', 'Operations leaders at mid-size companies',
            'mainMessage', 'Shipping faster does not have to mean breaking things.', 'toneStyleGuidelines', 'Confident, plain English, no jargon.'),
          CASE WHEN p.draft_review_status <> 'awaiting_brand_brief' OR k % 10 < 7 THEN p.created_at + interval '1 day' END,
          p.created_at + interval '1 day', p.created_at + interval '1 hour'
        FROM (SELECT p.*, g.k FROM generate_series(${from}, ${to}) g(k) JOIN placements p ON p.id = md5('search-pay-' || g.k)::uuid WHERE g.k % 10 <> 9) p`,
    },
    {
      label: `publications of payments ${range}`,
      sql: `INSERT INTO publications (placement_id, url, health, published_at, verified_at, guarantee_ends_at, next_check_at, created_at, updated_at)
        SELECT p.id, 'https://outlet.example.com/a/' || g.k,
          CASE WHEN g.k % 100 = 1 THEN 'unverified' WHEN g.k % 50 = 2 THEN 'issue' WHEN g.k % 25 = 3 THEN 'warning' ELSE 'ok' END,
          p.released_at, CASE WHEN g.k % 100 <> 1 THEN p.released_at END, p.released_at + interval '90 days', NULL, p.released_at, p.released_at
        FROM generate_series(${from}, ${to}) g(k) JOIN payments p ON p.id = md5('search-pay-' || g.k)::uuid
        WHERE g.k % 20 BETWEEN 1 AND 5`,
    },
    {
      // one payment in ${CONVERSATION_EVERY}: 2 to 6 messages, the sides taking turns
      label: `messages of payments ${range}`,
      sql: `INSERT INTO placement_messages (placement_id, side, author_id, text, created_at)
        SELECT p.id, s.side, CASE WHEN s.side = 'brand' THEN p.brand_id ELSE ${editor('g.k + j')} END,
          CASE WHEN s.side = 'brand' THEN ${sqlArray(BRAND_LINES)}[1 + (g.k + j) % ${BRAND_LINES.length}] ELSE ${sqlArray(ADMIN_LINES)}[1 + (g.k + j) % ${ADMIN_LINES.length}] END
            || repeat(' We want the piece to read naturally for the outlet''s audience.', (g.k + j) % 4),
          least(now() - interval '1 minute', p.created_at + make_interval(hours => j * 5, secs => g.k % 3600))
        FROM generate_series(${from}, ${to}) g(k) JOIN payments p ON p.id = md5('search-pay-' || g.k)::uuid
        CROSS JOIN LATERAL generate_series(1, 2 + (g.k / ${CONVERSATION_EVERY}) % 5) j
        CROSS JOIN LATERAL (SELECT CASE WHEN (g.k + j) % 2 = 0 THEN 'admin' ELSE 'brand' END AS side) s
        WHERE g.k % ${CONVERSATION_EVERY} = 1`,
    },
    {
      // the same payments: 1 to 8 steps of their way, in order
      label: `timeline entries of payments ${range}`,
      sql: `INSERT INTO placement_events (placement_id, kind, actor_type, actor_id, actor_name, details, at)
        SELECT p.id, ${STEP_KINDS}[j], ${STEP_ACTORS}[j],
          CASE ${STEP_ACTORS}[j] WHEN 'brand' THEN p.brand_id WHEN 'admin' THEN ${editor('g.k')} END,
          CASE ${STEP_ACTORS}[j] WHEN 'brand' THEN 'Brand Owner' WHEN 'admin' THEN 'Editor ' || g.k % ${EDITORS} ELSE 'Byline' END,
          jsonb_build_object('step', 's' || j, 'round', 1),
          least(now() - interval '1 minute', p.created_at + make_interval(hours => j * 7))
        FROM generate_series(${from}, ${to}) g(k) JOIN payments p ON p.id = md5('search-pay-' || g.k)::uuid
        CROSS JOIN LATERAL generate_series(1, 1 + (g.k / ${CONVERSATION_EVERY}) % ${STEPS.length}) j
        WHERE g.k % ${CONVERSATION_EVERY} = 1
        ORDER BY g.k, j`,
    },
    {
      // as a server that has run the workflow's timers (modules/timeline/timers.ts) leaves the data:
      // every brief reminder that fell due recorded, so that the timers have nothing to send while measured
      label: `brief reminders sent of payments ${range}`,
      sql: `INSERT INTO placement_events (placement_id, kind, actor_type, actor_name, details, at)
        SELECT p.id, 'brief_reminder', 'system', 'Byline', jsonb_build_object('day', d, 'step', 'day' || d), p.paid_at + make_interval(days => d)
        FROM generate_series(${from}, ${to}) g(k) JOIN payments p ON p.id = md5('search-pay-' || g.k)::uuid
        JOIN placements x ON x.payment_id = p.id
        CROSS JOIN unnest(ARRAY[${TIMERS.briefReminderDays.join(', ')}]::int[]) d
        WHERE x.state = 'in_progress' AND x.draft_review_status = 'awaiting_brand_brief' AND p.paid_at <= now() - make_interval(days => d)
          AND NOT EXISTS (SELECT 1 FROM briefs b WHERE b.placement_id = x.id AND b.submitted_at IS NOT NULL)
        -- the server (running while the data grows) may have sent some of them already
        ON CONFLICT DO NOTHING`,
    },
    {
      // likewise every draft waiting for its brand's review was attached (or its edits completed)
      // recently enough that no reminder or automatic approval is due
      label: `drafts attached of payments ${range}`,
      sql: `INSERT INTO placement_events (placement_id, kind, actor_type, actor_name, details, at)
        SELECT p.id, CASE x.draft_review_status WHEN 'pending_brand_review' THEN 'draft_attached' ELSE 'edits_completed' END,
          'admin', 'Editor 0', jsonb_build_object('round', 1),
          greatest(p.paid_at, now() - make_interval(secs => (g.k::bigint * 7919) % ${DRAFT_WAIT_SECONDS}))
        FROM generate_series(${from}, ${to}) g(k) JOIN payments p ON p.id = md5('search-pay-' || g.k)::uuid
        JOIN placements x ON x.payment_id = p.id
        WHERE x.state = 'in_progress' AND x.draft_review_status IN ('pending_brand_review', 'edits_complete')`,
    },
  ];
}
