import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  bigserial,
  bigint,
  customType,
  primaryKey,
  check,
  pgView,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS, ORG_ROLES, PURCHASE_REQUEST_STATUSES, type PurchaseRequestLine } from '../../shared/org';

import { CHECKOUT_STATUSES, DRAFT_REVIEW_STATUSES, PAYMENT_STATUSES, PLACEMENT_STATES, REFUND_REASONS, REVIEW_STATUSES } from '../../shared/payment';
import { OPPORTUNITY_STATUSES } from '../../shared/opportunity';
import { PROMISE_BASES } from '../../shared/promise';
import { CLOCK_STAGES, type PromiseMove } from '../../shared/stage-clock';
import { LINK_TYPES } from '../../shared/catalogue';
import { METRIC_SOURCES, OUTLET_METRICS } from '../../shared/outlets';
import { ACTOR_TYPES, TIMELINE_KINDS } from '../../shared/timeline';
import {
  CANCELLATION_OUTCOMES,
  CANCELLATION_STATUSES,
  DISPUTE_ACTIONS,
  DISPUTE_OUTCOMES,
  DISPUTE_REASONS,
  DISPUTE_RESOLUTIONS,
  DISPUTE_STATUSES,
  RELEASE_SKIPS,
  REVISION_REQUEST_STATUSES,
} from '../../shared/enums';
import { MESSAGE_SIDES } from '../../shared/messages';
import { TAX_DOCUMENT_KINDS, type TaxDocumentContent } from '../../shared/billing';

/** PostgreSQL's text-search document type (read only by SQL: the app never selects it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
import { PUBLICATION_HEALTHS, type PublicationCheck } from '../../shared/publication';
import { sqlList } from './sql-list';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
/** A time a rule later reads: written in Byline's time (the test clock's, drizzle/0052). */
const bylineCreatedAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_now()`);

/**
 * An organisation: who buys (decision 033). Every brand account that has completed its profile
 * belongs to exactly one; what it buys (placements and their payments, briefs, the shortlist,
 * billing details) is the organisation's. `approved` is the admins' approval of the organisation;
 * each member's own `users.approved` follows it (approving the owner approves its organisation).
 */
export const organisations = pgTable('organisations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  approved: boolean('approved').notNull().default(false),
  // the monthly spend cap (calendar month, UTC); null: none
  monthlyCapUsd: numeric('monthly_cap_usd', { precision: 12, scale: 2 }),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // empty (null) until a brand completes its profile
    name: text('name'),
    // stored lowercased: people type their address in any case
    email: text('email').notNull(),
    password: text('password').notNull(),
    role: text('role', { enum: ['admin', 'brand'] }).notNull().default('brand'),
    brandName: text('brand_name'),
    website: text('website'),
    avatarUrl: text('avatar_url'),
    approved: boolean('approved').notNull().default(false),
    // brands may turn off progress e-mails; receipts, refunds and password mail always go
    emailNotifications: boolean('email_notifications').notNull().default(true),
    // a brand's organisation and role in it (null both: an admin, or a brand that has not completed
    // its profile nor joined one; one organisation per login)
    organisationId: uuid('organisation_id').references((): AnyPgColumn => organisations.id, { onDelete: 'restrict' }),
    orgRole: text('org_role', { enum: ORG_ROLES }),
    // the member's own monthly cap within the organisation's, and the price above which a purchase
    // needs an owner's or admin's approval (null: none)
    monthlyCapUsd: numeric('monthly_cap_usd', { precision: 12, scale: 2 }),
    approvalThresholdUsd: numeric('approval_threshold_usd', { precision: 12, scale: 2 }),
    // the organisation's clients this member is limited to (null: all of them, and what is bought
    // for none); a reviewer limited to clients never sees an amount (decision 035)
    clientIds: uuid('client_ids').array(),
    // the organisation an owner or admin last removed this login from, and when (issue 57): signing
    // in again tells them so; cleared when they join or set up an organisation
    removedFrom: uuid('removed_from').references((): AnyPgColumn => organisations.id, { onDelete: 'set null' }),
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    // the approval queue's warning: another organisation with a member at the same e-mail domain
    index('users_email_domain_idx').on(sql`split_part(${t.email}, '@', 2)`),
    // exactly one owner per organisation (the other half: ownership moves in one transaction)
    uniqueIndex('users_one_owner_per_org').on(t.organisationId).where(sql`org_role = 'owner'`),
    index('users_organisation_idx').on(t.organisationId),
    check('users_org_role_with_org', sql`(organisation_id IS NULL) = (org_role IS NULL)`),
    // the admin's pending-brands list, paged oldest first
    // the admins' search by name, brand name or e-mail (Projects, Payments, Approvals)
    index('users_search_trgm_idx').using('gin', sql`(coalesce(${t.name}, '') || ' ' || coalesce(${t.brandName}, '') || ' ' || ${t.email}) gin_trgm_ops`),
    index('users_pending_brands_idx').on(t.createdAt, t.id).where(sql`role = 'brand' AND approved = false AND name IS NOT NULL`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // sha256 of the cookie's random token: a leaked table cannot be replayed as cookies
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * The client addresses (req.ip) each account has signed in from, and when last: a forgot-password
 * request from one of them is not held back by other addresses' requests for the same e-mail
 * (modules/auth/signin-addresses.ts). Outlives the sessions: the owner who needs a new password is
 * usually signed out.
 */
export const signinAddresses = pgTable(
  'signin_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  // looked up by address first: a stranger's address finds no row, whichever e-mail it asks for
  (t) => [primaryKey({ columns: [t.address, t.userId] }), index('signin_addresses_user_idx').on(t.userId, t.lastAt)],
);

/**
 * One counted event of a limit (a failed sign-in, a sign-up, an upload...): `bucket` names the
 * limit, `subject` whom it counts (a client address, an account, a user id), `weight` how much
 * (1, or an upload's bytes). Claimed under a per-subject advisory lock before the work it limits
 * (lib/rate-limit.ts), so concurrent requests never get past a limit together.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    subject: text('subject').notNull(),
    weight: bigint('weight', { mode: 'number' }).notNull().default(1),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('rate_limit_hits_subject_idx').on(t.bucket, t.subject, t.at), index('rate_limit_hits_at_idx').on(t.at)],
);

export const inviteCodes = pgTable(
  'invite_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('invite_codes_code_unique').on(t.code), index('invite_codes_created_idx').on(t.createdAt, t.id)],
);

/**
 * An outlet: one per website host (issue 48, decision 038). Its opportunities point to it; the
 * database sets `opportunities.outlet_id` itself (a trigger, drizzle/0034), from the opportunity's
 * outlet URL's host, or its outlet name when it has no URL (`host` null).
 */
export const outlets = pgTable(
  'outlets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    host: text('host'),
    name: text('name').notNull(),
    url: text('url'),
    logoUrl: text('logo_url'),
    country: text('country'),
    language: text('language'),
    topics: text('topics').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    // Byline's record in short, for the cards and the on-time sort: kept by the database from the
    // outlet's publications (triggers, drizzle/0035: outlet_delivery() computes them)
    delivered: integer('delivered').notNull().default(0),
    onTimeRate: numeric('on_time_rate', { precision: 4, scale: 3 }),
    // the promise's record (issue 59, drizzle/0047): P50 and P90 business days from brief to
    // publication over its last 50 deliveries; null below PROMISE_MIN_DELIVERIES
    promiseP50Days: integer('promise_p50_days'),
    promiseP90Days: integer('promise_p90_days'),
  },
  (t) => [
    uniqueIndex('outlets_host_unique').on(t.host).where(sql`host IS NOT NULL`),
    uniqueIndex('outlets_name_unique').on(sql`lower(${t.name})`).where(sql`host IS NULL`),
  ],
);

/**
 * The test clock (issue 59, drizzle/0051): how far an admin moved Byline's time forward in test
 * mode; one row, 0 otherwise. SQL reads it through clock_now(), the server through lib/clock.ts.
 */
export const testClock = pgTable(
  'test_clock',
  {
    id: boolean('id').primaryKey().default(true),
    offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('test_clock_id_check', sql`${t.id}`)],
);

/**
 * The settings the database's promise needs (issue 59, drizzle/0047): PROMISE_MIN_DELIVERIES for
 * the outlets' record, BRIEF_DAYS for the placements' trigger. One row, written at boot
 * (db/promise-settings.ts).
 */
export const promiseSettings = pgTable(
  'promise_settings',
  {
    id: boolean('id').primaryKey().default(true),
    minDeliveries: integer('min_deliveries').notNull().default(5),
    briefDays: integer('brief_days').notNull().default(3),
    // the stage clocks' (drizzle/0053): REVIEW_DAYS, EDIT_DAYS, and the first draft's without a turnaround
    reviewDays: integer('review_days').notNull().default(3),
    editDays: integer('edit_days').notNull().default(2),
    draftDays: integer('draft_days').notNull().default(14),
  },
  (t) => [check('promise_settings_id_check', sql`${t.id}`)],
);

/**
 * The metrics of an outlet over time, each value with its source and the date it was true on
 * (imports of Ahrefs, Moz and Semrush exports). One value per metric, source and day.
 */
export const outletMetrics = pgTable(
  'outlet_metrics',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    outletId: uuid('outlet_id')
      .notNull()
      .references(() => outlets.id, { onDelete: 'cascade' }),
    metric: text('metric', { enum: OUTLET_METRICS }).notNull(),
    value: numeric('value', { precision: 14, scale: 2 }).notNull(),
    source: text('source', { enum: METRIC_SOURCES }).notNull(),
    asOf: timestamp('as_of', { withTimezone: true, mode: 'date' }).notNull(),
    importedBy: uuid('imported_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('outlet_metrics_value_unique').on(t.outletId, t.metric, t.source, t.asOf),
    // the latest value of each metric: search's "fresh metrics" filter and the outlet page
    index('outlet_metrics_latest_idx').on(t.outletId, t.asOf),
  ],
);

export const opportunities = pgTable(
  'opportunities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    outletName: text('outlet_name').notNull(),
    outletUrl: text('outlet_url'),
    description: text('description').notNull(),
    type: text('type').array().notNull(),
    tat: text('tat'),
    priceUsd: numeric('price_usd', { precision: 12, scale: 2 }).notNull(),
    logoUrl: text('logo_url'),
    exampleUrls: text('example_urls').array().notNull().default(sql`'{}'::text[]`),
    maxSlots: integer('max_slots').notNull().default(1),
    filledSlots: integer('filled_slots').notNull().default(0),
    domainAuthority: integer('domain_authority'),
    deadlineDate: timestamp('deadline_date', { withTimezone: true, mode: 'date' }),
    status: text('status', { enum: OPPORTUNITY_STATUSES }).notNull().default('available'),
    createdAt: createdAt(),
    // what a buyer filters by (optional; src/shared/catalogue.ts has the lists)
    tatDays: integer('tat_days'),
    linkType: text('link_type', { enum: LINK_TYPES }),
    topics: text('topics').array().notNull().default(sql`'{}'::text[]`),
    country: text('country'),
    language: text('language'),
    // its outlet (issue 48): set by the database from outlet_url's host or outlet_name (drizzle/0034)
    outletId: uuid('outlet_id').references(() => outlets.id),
    // the on-time sort's key: its outlet's on-time rate, -1 when it has none, copied by the database
    // (drizzle/0043) so that the sort walks an index of the opportunities
    outletOnTime: numeric('outlet_on_time', { precision: 4, scale: 3 }).notNull().default('-1'),
    // the browse search's words, weighted outlet > title > description ('simple': no stemming, so a
    // prefix of a word as written finds it); written by the database (modules/opportunities/search.ts)
    search: tsvector('search').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', outlet_name), 'A') || setweight(to_tsvector('simple', title), 'B') || setweight(to_tsvector('simple', description), 'C')`,
    ),
  },
  (t) => [
    // the admin dashboard, paged newest first (keyset on created_at, id), with or without a status filter
    index('opportunities_status_created_idx').on(t.status, t.createdAt, t.id),
    index('opportunities_created_idx').on(t.createdAt, t.id),
    // the brands' browse list reads the available rows (modules/opportunities/claimable.ts). Not
    // filled_slots in the predicate: a column an index names makes every checkout's update of it
    // rewrite every index of the table (no HOT update).
    index('opportunities_available_idx').on(t.deadlineDate).where(sql`status = 'available'`),
    // the brands' search (modules/opportunities/search.ts): one index per sort over the available
    // rows, and one per filter, so that no combination needs to read the whole table
    // the sorts' indexes also carry every filtered column (INCLUDE, written by hand in drizzle/0043,
    // which drizzle-kit does not model): filters and counts are read from the index alone
    index('opportunities_browse_newest_idx').on(t.createdAt, t.id).where(sql`status = 'available'`),
    index('opportunities_browse_price_idx').on(t.priceUsd, t.id).where(sql`status = 'available'`),
    index('opportunities_browse_da_idx').on(sql`coalesce(${t.domainAuthority}, 0)`, t.id).where(sql`status = 'available'`),
    index('opportunities_browse_deadline_idx').on(sql`coalesce(${t.deadlineDate}, 'infinity'::timestamptz)`, t.id).where(sql`status = 'available'`),
    index('opportunities_browse_on_time_idx').on(t.outletOnTime, t.id).where(sql`status = 'available'`),
    index('opportunities_browse_country_idx').on(t.country, t.priceUsd).where(sql`status = 'available'`),
    index('opportunities_browse_language_idx').on(t.language, t.priceUsd).where(sql`status = 'available'`),
    index('opportunities_browse_link_type_idx').on(t.linkType, t.priceUsd).where(sql`status = 'available'`),
    index('opportunities_browse_tat_idx').on(t.tatDays).where(sql`status = 'available'`),
    index('opportunities_browse_topics_idx').using('gin', t.topics).where(sql`status = 'available'`),
    // the filters that leave few rows, all at once (btree_gin for the plain columns; drizzle/0043)
    index('opportunities_browse_filters_idx')
      .using('gin', t.topics, t.type, t.language, t.country, t.linkType)
      .where(sql`status = 'available'`),
    index('opportunities_search_idx').using('gin', t.search),
    index('opportunities_outlet_trgm_idx').using('gin', sql`${t.outletName} gin_trgm_ops`),
    index('opportunities_outlet_idx').on(t.outletId),
  ],
);

/** A brand's shortlist: the opportunities it saved. */
export const savedOpportunities = pgTable(
  'saved_opportunities',
  {
    // the organisation's shortlist; `brandId`: the member who saved it
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    opportunityId: uuid('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.opportunityId] }), index('saved_opportunities_opportunity_idx').on(t.opportunityId)],
);

/**
 * A checkout in progress: the slot it reserved is held while `status = 'open'`. Its id is the id
 * the payment will get (sent to the provider as client_reference_id), so a checkout becomes exactly one payment.
 */
/**
 * A cart checked out at once (issue 46): one provider session with a line item per opportunity.
 * Each line is a checkout row (`checkouts.order_id`) holding its slot; paid, each becomes its own
 * payment and placement, as a single purchase does, and the order has one invoice listing them.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    clientId: uuid('client_id').references((): AnyPgColumn => orgClients.id, { onDelete: 'restrict' }),
    // the sum of its lines when checked out
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull().default('open'),
    providerSessionId: text('provider_session_id'),
    url: text('url'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    // the built-in test checkout records "the card was charged" here, as on a single checkout
    testProviderRef: text('test_provider_ref'),
    // a declined line is swapped for its closest alternative without asking
    autoSwap: boolean('auto_swap').notNull().default(false),
    // the approved purchase request it pays, when the cart's total was above the buyer's threshold
    purchaseRequestId: uuid('purchase_request_id').references((): AnyPgColumn => purchaseRequests.id, { onDelete: 'restrict' }),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    createdAt: bylineCreatedAt(),
  },
  (t) => [
    uniqueIndex('orders_provider_session_unique').on(t.providerSessionId),
    index('orders_org_created_idx').on(t.organisationId, t.createdAt, t.id),
    index('orders_brand_created_idx').on(t.brandId, t.createdAt),
    index('orders_open_expiry_idx').on(t.expiresAt).where(sql`status = 'open' AND test_provider_ref IS NULL`),
    // an approved request pays for one order
    uniqueIndex('orders_one_paid_per_request').on(t.purchaseRequestId).where(sql`status = 'completed'`),
  ],
);

/** A member's cart: one line per opportunity, with the price it had when added. */
export const cartLines = pgTable(
  'cart_lines',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    opportunityId: uuid('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'cascade' }),
    priceUsd: numeric('price_usd', { precision: 12, scale: 2 }).notNull(),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.opportunityId] })],
);

/**
 * A brief kept to start others from (issue 46), by name: a client's (saved from one of its
 * placements, issue 57) or, with no client, the organisation's own. Names are unique per owner.
 */
export const briefTemplates = pgTable(
  'brief_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    // null: the organisation's, for placements bought for no client
    clientId: uuid('client_id').references(() => orgClients.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    part1Json: jsonb('part1_json').$type<Record<string, string>>().notNull(),
    part2Json: jsonb('part2_json').$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('brief_templates_org_name_unique').on(t.organisationId, sql`lower(${t.name})`).where(sql`${t.clientId} IS NULL`),
    uniqueIndex('brief_templates_client_name_unique').on(t.clientId, sql`lower(${t.name})`).where(sql`${t.clientId} IS NOT NULL`),
  ],
);

export const checkouts = pgTable(
  'checkouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // set once the provider has created its session (null only while that call is in flight)
    providerSessionId: text('provider_session_id'),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    opportunityId: uuid('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'cascade' }),
    // the approved purchase request it pays for, when the buyer's threshold asked for one
    purchaseRequestId: uuid('purchase_request_id').references((): AnyPgColumn => purchaseRequests.id, { onDelete: 'restrict' }),
    // the organisation's client it is bought for (null: none; decision 035)
    clientId: uuid('client_id').references((): AnyPgColumn => orgClients.id, { onDelete: 'restrict' }),
    // a line of a cart's order (issue 46): the order has the provider session
    orderId: uuid('order_id').references((): AnyPgColumn => orders.id, { onDelete: 'cascade' }),
    // the difference of a swap for a dearer alternative (issue 46): the declined placement it moves
    swapOf: uuid('swap_of').references((): AnyPgColumn => placements.id, { onDelete: 'cascade' }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull().default('open'),
    url: text('url'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    // the built-in test checkout records "the card was charged" here (what Stripe keeps on its side)
    testProviderRef: text('test_provider_ref'),
    // the provider charged something other than the hold's amount and currency: not fulfilled, shown
    // to admins under "Needs attention" with what was charged
    attentionReason: text('attention_reason'),
    chargedAmountCents: bigint('charged_amount_cents', { mode: 'number' }),
    chargedCurrency: text('charged_currency'),
    chargedProviderRef: text('charged_provider_ref'),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    createdAt: bylineCreatedAt(),
  },
  (t) => [
    uniqueIndex('checkouts_provider_session_unique').on(t.providerSessionId),
    // one live checkout per brand and opportunity: a second click gets the same session back
    uniqueIndex('checkouts_one_open_per_brand').on(t.brandId, t.opportunityId).where(sql`status = 'open'`),
    // the expiry sweep (closeCheckouts), which never closes a charged hold. Its predicate is the
    // sweep's own, narrower than `status = 'open'`, so that a brand's open-hold lookup cannot use it:
    // planned while few holds were open, that lookup read every open hold through this index
    index('checkouts_open_expiry_idx').on(t.expiresAt).where(sql`status = 'open' AND test_provider_ref IS NULL`),
    index('checkouts_opportunity_idx').on(t.opportunityId),
    // a brand's checkouts started in the last window (LIMIT_CHECKOUTS)
    index('checkouts_brand_created_idx').on(t.brandId, t.createdAt),
    index('checkouts_attention_idx').on(t.createdAt).where(sql`attention_reason IS NOT NULL`),
    index('checkouts_order_idx').on(t.orderId).where(sql`order_id IS NOT NULL`),
    // an organisation's open checkouts count against its budget while they hold their slots. Not a
    // partial index on `status = 'open'`: a brand's open-hold lookup, planned generically, would
    // read every open hold through it (tests/api/checkout-lookup-plan.test.ts)
    index('checkouts_org_status_idx').on(t.organisationId, t.status),
    // an approved request pays for one placement
    uniqueIndex('checkouts_one_paid_per_request').on(t.purchaseRequestId).where(sql`status = 'completed'`),
  ],
);

/** A paid placement ("brand project"): money held in escrow (`paid`), `released` or `refunded`. */
export const payments = pgTable(
  'payments',
  {
    // the id of the checkout it came from
    id: uuid('id').primaryKey().defaultRandom(),
    // who paid (the member); the payment is its organisation's
    brandId: uuid('brand_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    opportunityId: uuid('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'restrict' }),
    // the organisation's client it is bought for (null: none; decision 035)
    clientId: uuid('client_id').references((): AnyPgColumn => orgClients.id, { onDelete: 'restrict' }),
    // the order it was bought in with others (issue 46); its lines share the provider session
    orderId: uuid('order_id').references((): AnyPgColumn => orders.id, { onDelete: 'restrict' }),
    // a charge of the difference of a swap for a dearer alternative (issue 46): the payment of the
    // placement it tops up (no placement of its own); released and refunded with that payment
    topupOf: uuid('topup_of').references((): AnyPgColumn => payments.id, { onDelete: 'restrict' }),
    // the provider's payment reference (Stripe: the PaymentIntent id); the spec's field name
    stripePaymentId: text('stripe_payment_id').notNull(),
    providerSessionId: text('provider_session_id').notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    // what went back of it is no column of its own: the sum of its refunds on the ledger
    // (`payment_money.refunded`, decision 041); the escrow holds amount − that
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('paid'),
    // false once its slot has been given back (refund) or when it never got one (paid after the hold expired)
    holdsSlot: boolean('holds_slot').notNull().default(true),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_now()`),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }),
    // set when a refund is started: from then on the payment cannot be released
    refundRequestedAt: timestamp('refund_requested_at', { withTimezone: true, mode: 'date' }),
    refundReason: text('refund_reason', { enum: REFUND_REASONS }),
    providerRefundId: text('provider_refund_id'),
    refundedAt: timestamp('refunded_at', { withTimezone: true, mode: 'date' }),
    createdAt: bylineCreatedAt(),
  },
  (t) => [
    // one payment per session, or per line of an order's session
    uniqueIndex('payments_provider_session_unique').on(t.providerSessionId, t.opportunityId),
    index('payments_order_idx').on(t.orderId).where(sql`order_id IS NOT NULL`),
    index('payments_topup_idx').on(t.topupOf).where(sql`topup_of IS NOT NULL`),
    index('payments_stripe_payment_idx').on(t.stripePaymentId),
    // the admins' search by brand
    index('payments_brand_created_idx').on(t.brandId, t.createdAt, t.id),
    // Payment History, paged newest first
    index('payments_org_created_idx').on(t.organisationId, t.createdAt, t.id),
    // the organisation's escrow balance: an index-only sum of its held payments (their refunds from
    // money_movements_refunds_idx)
    index('payments_org_held_idx').on(t.organisationId, t.amount, t.id).where(sql`status = 'paid'`),
    // Payment History of one client, paged newest first
    index('payments_client_created_idx').on(t.clientId, t.createdAt, t.id).where(sql`client_id IS NOT NULL`),
    index('payments_opportunity_status_idx').on(t.opportunityId, t.status),
    index('payments_status_paid_at_idx').on(t.status, t.paidAt),
    // Admin Payments, paged newest first; and with a status filter (a status rarer among the newest
    // payments, refunded say, would otherwise walk thousands of newer rows to fill a page)
    index('payments_created_idx').on(t.createdAt, t.id),
    index('payments_status_created_idx').on(t.status, t.createdAt, t.id),
  ],
);

/**
 * What a brand bought, its work: whose it is, what it is for, where it stands (`state`), its
 * draft and the brand's review of it. Its brief, publication, timeline and conversation refer to
 * it; its money is its payment (`paymentId`: held, released, refunded, the amounts). One placement
 * per payment today, with the payment's id, so the spec's `paymentId` on the wire names both.
 * `state` moves with the payment's status in the same transaction (fulfilment, release, refund)
 * and is the placement's own: the tabs of My Articles and Projects are predicates on this table.
 */
export const placements = pgTable(
  'placements',
  {
    id: uuid('id').primaryKey(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    // who bought it (the member); the placement is its organisation's
    brandId: uuid('brand_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    opportunityId: uuid('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'restrict' }),
    // the organisation's client it is bought for (null: none; decision 035)
    clientId: uuid('client_id').references((): AnyPgColumn => orgClients.id, { onDelete: 'restrict' }),
    state: text('state', { enum: PLACEMENT_STATES }).notNull().default('in_progress'),
    draftDocumentUrl: text('draft_document_url'),
    draftDocumentFile: text('draft_document_file'),
    draftReviewStatus: text('draft_review_status', { enum: DRAFT_REVIEW_STATUSES }).notNull().default('awaiting_brand_brief'),
    brandFeedback: text('brand_feedback'),
    // declined by the outlet before writing (issue 46): the brand picks an alternative by swap_by,
    // or is refunded in full then; cleared by the swap
    declinedAt: timestamp('declined_at', { withTimezone: true, mode: 'date' }),
    declineReason: text('decline_reason'),
    swapBy: timestamp('swap_by', { withTimezone: true, mode: 'date' }),
    // issue 47: the editorial team started writing (from then a cancellation is a request), and the
    // edit requests made so far (REVISIONS_INCLUDED are included; a further one needs the team's yes)
    writingStartedAt: timestamp('writing_started_at', { withTimezone: true, mode: 'date' }),
    revisionsUsed: integer('revisions_used').notNull().default(0),
    // the rounds included when it was bought (REVISIONS_INCLUDED then): a later change of the setting keeps what was sold
    revisionsIncluded: integer('revisions_included').notNull().default(2),
    // the payment's: the lists' order and cursor
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    // when it entered its life state (shared/placement-machine.ts): kept by triggers (drizzle/0045),
    // created_at when made, then the moment an input of the state changed; never written by code
    stateSince: timestamp('state_since', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_now()`),
    // its editor (issue 59): the admin assigned, or the first admin who acted on it (transition.ts)
    assigneeId: uuid('assignee_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    // its promise (issue 59): fixed by the database when it is made (drizzle/0047, a BEFORE INSERT
    // trigger); null when its opportunity had neither a record nor a listed turnaround
    promisedBy: timestamp('promised_by', { withTimezone: true, mode: 'date' }),
    usuallyBy: timestamp('usually_by', { withTimezone: true, mode: 'date' }),
    promiseBasis: text('promise_basis', { enum: PROMISE_BASES }),
    // business days the brand held it past its own clocks (drizzle/0051): "Live by" is
    // live_by(promised_by, promise_moved_days)
    promiseMovedDays: integer('promise_moved_days').notNull().default(0),
    // its stage clock (issue 59, decision 048): kept by the database (drizzle/0053, a trigger) as
    // the placement moves and its requests open and close; the moves of "Live by" with their reasons
    clockStage: text('clock_stage', { enum: CLOCK_STAGES }),
    clockStartedAt: timestamp('clock_started_at', { withTimezone: true, mode: 'date' }),
    clockDueAt: timestamp('clock_due_at', { withTimezone: true, mode: 'date' }),
    clockPausedAt: timestamp('clock_paused_at', { withTimezone: true, mode: 'date' }),
    promiseMoves: jsonb('promise_moves').$type<PromiseMove[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [
    uniqueIndex('placements_payment_unique').on(t.paymentId),
    // My Articles, paged newest first
    index('placements_org_created_idx').on(t.organisationId, t.createdAt, t.id),
    // My Articles of one client, paged newest first
    index('placements_client_created_idx').on(t.clientId, t.createdAt, t.id).where(sql`client_id IS NOT NULL`),
    // the admins' search by brand
    index('placements_brand_created_idx').on(t.brandId, t.createdAt, t.id),
    index('placements_opportunity_idx').on(t.opportunityId),
    // the late credit's sweep and reminder (drizzle/0054): in progress, by the promise
    index('placements_promised_by_idx').on(t.promisedBy).where(sql`state = 'in_progress' AND promised_by IS NOT NULL`),
    // Admin Projects: the list and each tab, paged newest first; their counts are index-only scans.
    // The predicates are those of modules/placements/tabs.ts.
    index('placements_tab_projects_idx').on(t.createdAt, t.id).where(sql`state IN ('in_progress', 'published')`),
    index('placements_tab_awaiting_idx')
      .on(t.createdAt, t.id)
      .where(sql`state = 'in_progress' AND draft_review_status = 'awaiting_brand_brief'`),
    index('placements_tab_review_idx')
      .on(t.createdAt, t.id)
      .where(sql`state = 'in_progress' AND draft_review_status IN ${sqlList(REVIEW_STATUSES)}`),
    index('placements_tab_approved_idx')
      .on(t.createdAt, t.id)
      .where(sql`state = 'in_progress' AND draft_review_status = 'approved'`),
    index('placements_tab_published_idx').on(t.createdAt, t.id).where(sql`state = 'published'`),
    // Admin Projects sorted by due time, and its at risk / late filters (drizzle/0053)
    index('placements_clock_due_idx').on(t.clockDueAt, t.id).where(sql`clock_due_at IS NOT NULL`),
    index('placements_tab_refunded_idx').on(t.createdAt, t.id).where(sql`state = 'refunded'`),
    // Admin Projects' "Mine", paged newest first
    index('placements_assignee_created_idx').on(t.assigneeId, t.createdAt, t.id).where(sql`assignee_id IS NOT NULL`),
    // the swap deadline's refunds
    index('placements_swap_by_idx').on(t.swapBy).where(sql`declined_at IS NOT NULL`),
  ],
);

/** Provider webhook events already handled (Stripe redelivers; each event id is processed once). */
export const processedWebhookEvents = pgTable('processed_webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  createdAt: createdAt(),
});

/**
 * The brand's brief for one purchased article (one per placement). Saved as a draft while the
 * brand types (`submittedAt` null), submitted once the required fields are filled.
 * The parts are JSON so the older form's answers can be mapped onto the same columns.
 */
export const briefs = pgTable(
  'briefs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // who started it (the member); the brief is its organisation's
    brandId: uuid('brand_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    opportunityId: uuid('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'cascade' }),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    part1Json: jsonb('part1_json').$type<Record<string, string>>().notNull(),
    part2Json: jsonb('part2_json').$type<Record<string, string>>().notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_now()`),
    createdAt: bylineCreatedAt(),
  },
  (t) => [
    uniqueIndex('briefs_placement_unique').on(t.placementId),
    // the pre-fill: the organisation's most recently updated brief
    index('briefs_org_updated_idx').on(t.organisationId, t.updatedAt),
  ],
);

export const MAIL_STATUSES = ['pending', 'sent'] as const;

/**
 * Every e-mail the portal sends. Written in the same transaction as the change that causes it
 * (with its pg-boss delivery job), rendered and sent by the mail worker, kept as the mail log.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    // filled in when the mail is rendered for delivery
    subject: text('subject'),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_pending_idx').on(t.createdAt).where(sql`status = 'pending'`)],
);

/** "Forgot password?": single-use links valid for an hour; only the token's sha256 is stored. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash), index('password_reset_tokens_user_idx').on(t.userId)],
);

/**
 * Every file stored through FileStore, with who uploaded it: the per-user upload limits count these,
 * and a file nothing refers to a day after its upload is deleted (jobs: uploads-sweep).
 */
export const uploads = pgTable(
  'uploads',
  {
    name: text('name').primaryKey(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    /** `report_logo`: a white-label report's logo (PNG or JPEG), which only its organisation's reports show (issue 57) */
    kind: text('kind', { enum: ['avatar', 'image', 'document', 'report_logo'] }).notNull(),
    /** the organisation a report logo was uploaded for */
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_created_idx').on(t.createdAt)],
);

/**
 * The live article of a released placement (one per placement): its URL, its health, and when it is
 * checked next while the guarantee watches it (modules/placements/publication.ts). A placement
 * released without a live link has a row with no URL, which the admin can add later.
 */
export const publications = pgTable(
  'publications',
  {
    placementId: uuid('placement_id')
      .primaryKey()
      .references(() => placements.id, { onDelete: 'cascade' }),
    url: text('url'),
    health: text('health', { enum: PUBLICATION_HEALTHS }).notNull().default('unverified'),
    overrideReason: text('override_reason'),
    // what the release went without: its live URL, the brand's approval (issue 57; RELEASE_SKIPS)
    releasedWithout: text('released_without', { enum: RELEASE_SKIPS }).array().notNull().default(sql`'{}'::text[]`),
    // problem codes the admin accepted with the override: a later check failing only on these passes
    acceptedProblems: text('accepted_problems').array().notNull().default(sql`'{}'::text[]`),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    guaranteeEndsAt: timestamp('guarantee_ends_at', { withTimezone: true, mode: 'date' }).notNull(),
    // of the article's text at the first passing check
    fingerprint: text('fingerprint'),
    // null: not watched (no URL, refunded, or the guarantee is over)
    nextCheckAt: timestamp('next_check_at', { withTimezone: true, mode: 'date' }),
    // the first failing check not yet confirmed by a second one
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    lastCheck: jsonb('last_check').$type<PublicationCheck>(),
    // when the last case closed because a check passed again ("Restored")
    restoredAt: timestamp('restored_at', { withTimezone: true, mode: 'date' }),
    createdAt: bylineCreatedAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_now()`),
  },
  (t) => [
    index('publications_due_idx').on(t.nextCheckAt).where(sql`next_check_at IS NOT NULL`),
    index('publications_health_idx').on(t.health, t.publishedAt, t.placementId),
    index('publications_published_idx').on(t.publishedAt, t.placementId),
  ],
);

/** Every check of a live article, kept as evidence (the brand sees what was found, and when). */
export const publicationChecks = pgTable(
  'publication_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    result: text('result', { enum: ['pass', 'warning', 'fail'] }).notNull(),
    check: jsonb('check').$type<PublicationCheck>().notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('publication_checks_placement_idx').on(t.placementId, t.checkedAt)],
);

/**
 * A confirmed problem with a live article (two failing checks at least an hour apart): the outlet
 * has until `restoreBy` to fix it; a passing check closes it (restored), the deadline refunds.
 */
export const publicationCases = pgTable(
  'publication_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    evidence: jsonb('evidence').$type<PublicationCheck>().notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull(),
    restoreBy: timestamp('restore_by', { withTimezone: true, mode: 'date' }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    outcome: text('outcome', { enum: ['restored', 'refunded', 'withdrawn'] }),
  },
  (t) => [
    // at most one open case per placement
    uniqueIndex('publication_cases_open_unique').on(t.placementId).where(sql`closed_at IS NULL`),
    index('publication_cases_placement_idx').on(t.placementId, t.openedAt),
  ],
);

/**
 * A placement's timeline (shared/timeline.ts): append-only, one row per change, written in the
 * change's own transaction (modules/placements/timeline.ts).
 */
export const placementEvents = pgTable(
  'placement_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TIMELINE_KINDS }).notNull(),
    actorType: text('actor_type', { enum: ACTOR_TYPES }).notNull(),
    actorId: uuid('actor_id'),
    // the name as it was then: a renamed brand's history keeps what it said
    actorName: text('actor_name').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_now()`),
  },
  (t) => [
    index('placement_events_placement_idx').on(t.placementId, t.id),
    // a reminder goes once per placement and step (details.step), whatever the number of instances
    uniqueIndex('placement_events_reminder_once_idx')
      .on(t.placementId, t.kind, sql`(${t.details} ->> 'step')`)
      .where(sql`kind IN ('brief_reminder', 'review_reminder', 'deadline_reminder')`),
  ],
);

/** A placement's conversation between its brand and the editorial team (shared/messages.ts). */
export const placementMessages = pgTable(
  'placement_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    side: text('side', { enum: MESSAGE_SIDES }).notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    text: text('text').notNull(),
    // a private upload (storage/), served only to the two sides
    attachmentFile: text('attachment_file'),
    attachmentName: text('attachment_name'),
    attachmentType: text('attachment_type'),
    attachmentSize: integer('attachment_size'),
    createdAt: bylineCreatedAt(),
  },
  (t) => [
    index('placement_messages_placement_idx').on(t.placementId, t.createdAt, t.id),
    // unread counts: the other side's messages after a read mark
    index('placement_messages_unread_idx').on(t.placementId, t.side, t.createdAt),
  ],
);

/**
 * How far each side has read a conversation (the admins share one mark: the editorial team), and
 * when the other side last wrote (set by a trigger on every message insert, migration 0014). A side has unread messages exactly
 * when `last_other_at > read_at`: the partial index lists those conversations, so an unread count
 * reads only them, not every message ever written.
 */
export const conversationReads = pgTable(
  'conversation_reads',
  {
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    side: text('side', { enum: MESSAGE_SIDES }).notNull(),
    // null until the side first opens the conversation
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    lastOtherAt: timestamp('last_other_at', { withTimezone: true, mode: 'date' }),
    // the other side wrote after this side last read: a column, so that the planner has statistics
    // for it (on the comparison alone it guessed a third of the table and scanned it all)
    unread: boolean('unread').generatedAlwaysAs(sql`last_other_at > coalesce(read_at, '-infinity'::timestamptz)`),
  },
  (t) => [
    primaryKey({ columns: [t.placementId, t.side] }),
    // with read_at, the count of each unread conversation reads the mark from the index alone (without
    // it the planner preferred a sequential scan of every read mark)
    index('conversation_reads_unread_idx').on(t.side, t.placementId, t.readAt).where(sql`unread`),
  ],
);

/** When each side was last mailed about a conversation: at most one e-mail per 15 minutes. */
export const conversationNotices = pgTable(
  'conversation_notices',
  {
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    side: text('side', { enum: MESSAGE_SIDES }).notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.placementId, t.side] })],
);

/** An organisation's billing details (decisions 021, 033): printed on invoices issued after they are saved. */
export const billingDetails = pgTable('billing_details', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  legalName: text('legal_name').notNull(),
  addressLine1: text('address_line1').notNull(),
  addressLine2: text('address_line2'),
  postalCode: text('postal_code'),
  city: text('city').notNull(),
  // ISO 3166-1 alpha-2
  country: text('country').notNull(),
  taxId: text('tax_id'),
  // null: the account's e-mail
  email: text('email'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The last number given in each document series and year. Taken with an upsert in the transaction
 * that issues the document: the row lock orders concurrent issuers, and a rollback gives the number
 * back, so the numbers have no gaps.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    series: text('series').notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);

/** Invoices (one per payment, at fulfilment) and credit notes (one per refund): what they print, frozen. */
/**
 * A refund of part of a payment (issue 46: the difference of a swap for a cheaper outlet): claimed
 * with its ledger movement in one statement that never lets the refunds exceed the charge, then
 * made through the provider (its id as idempotency key), then completed with its credit note.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    reason: text('reason', { enum: REFUND_REASONS }).notNull(),
    providerRefundId: text('provider_refund_id'),
    // an admin's part refund (issue 47): who asked and the reason they wrote
    note: text('note'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: bylineCreatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('payment_refunds_payment_idx').on(t.paymentId), index('payment_refunds_pending_idx').on(t.createdAt).where(sql`completed_at IS NULL`)],
);

/**
 * Late credit (issue 59, drizzle/0054, decision 049): one row per placement and business day late,
 * claimed with its part refund (`refund_id`) before the provider is called; the key makes each day
 * credited once across every instance.
 */
export const lateCredits = pgTable(
  'late_credits',
  {
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'restrict' }),
    lateDay: integer('late_day').notNull(),
    refundId: uuid('refund_id')
      .notNull()
      .references(() => paymentRefunds.id, { onDelete: 'restrict' }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    createdAt: bylineCreatedAt(),
  },
  (t) => [primaryKey({ columns: [t.placementId, t.lateDay] })],
);

/** LATE_CREDIT_PERCENT, LATE_CREDIT_MAX_PERCENT, LATE_CANCEL_DAYS where SQL reads them: one row, written at boot (db/late-credit-settings.ts). */
export const lateCreditSettings = pgTable(
  'late_credit_settings',
  {
    id: boolean('id').primaryKey().default(true),
    percent: integer('percent').notNull().default(2),
    maxPercent: integer('max_percent').notNull().default(20),
    cancelDays: integer('cancel_days').notNull().default(10),
  },
  (t) => [check('late_credit_settings_id_check', sql`${t.id}`)],
);

/**
 * DISPUTE_DAYS where SQL reads it (drizzle/0055): one row, written by the server at boot from its
 * config (db/dispute-settings.ts), so that a placement's life (the content dispute's window, a
 * guard of the table) reads the same days as the service's words.
 */
export const disputeSettings = pgTable(
  'dispute_settings',
  {
    id: boolean('id').primaryKey().default(true),
    disputeDays: integer('dispute_days').notNull().default(7),
  },
  (t) => [check('dispute_settings_id_check', sql`${t.id}`)],
);

/** What a money movement is (decision 041); `amount` is positive, its direction the kind's. */
export const MONEY_MOVEMENT_KINDS = ['charge', 'refund', 'swap_difference', 'credit', 'payout'] as const;
export type MoneyMovementKind = (typeof MONEY_MOVEMENT_KINDS)[number];

/**
 * The money ledger (issue 58, decision 041): one row per amount that moved, appended in the
 * transaction that moves it and never changed (a trigger refuses UPDATE, DELETE and TRUNCATE).
 * In: a `charge` (a payment at fulfilment, a swap's top-up: a payment of its own). Out to the
 * brand: a `refund` (full, or part with its `payment_refunds` request) and a `swap_difference` (a
 * cheaper swap's difference). `credit` and `payout` are room for later and counted by no total.
 * A part refund is appended when it is claimed (its provider call follows, `payment_refunds`
 * records when it was made and the provider's id); a full refund when the provider has made it.
 * Every amount is read through `payment_money`; refunds are appended only by ledger/ledger.ts.
 */
export const moneyMovements = pgTable(
  'money_movements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    // the placement the money is of (a top-up's: the placement it tops up)
    placementId: uuid('placement_id').references((): AnyPgColumn => placements.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: MONEY_MOVEMENT_KINDS }).notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    // a part refund's request (its provider call, its credit note)
    refundId: uuid('refund_id').references((): AnyPgColumn => paymentRefunds.id, { onDelete: 'restrict' }),
    reason: text('reason', { enum: REFUND_REASONS }),
    // the provider's reference: a charge's payment intent, a full refund's refund id
    providerRef: text('provider_ref'),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: bylineCreatedAt(),
  },
  (t) => [
    index('money_movements_payment_idx').on(t.paymentId, t.kind, t.amount),
    index('money_movements_placement_idx').on(t.placementId, t.createdAt),
    // what went back of one payment, summed from the index alone (ledger/ledger.ts refundedOf)
    index('money_movements_refunds_idx').on(t.paymentId, t.amount).where(sql`kind IN ('refund', 'swap_difference')`),
    uniqueIndex('money_movements_one_charge').on(t.paymentId).where(sql`kind = 'charge'`),
    uniqueIndex('money_movements_one_per_refund').on(t.refundId).where(sql`refund_id IS NOT NULL`),
    check('money_movements_kind', sql`kind IN ('charge', 'refund', 'swap_difference', 'credit', 'payout')`),
    check('money_movements_amount_positive', sql`amount > 0`),
    check('money_movements_refund_is_out', sql`refund_id IS NULL OR kind IN ('refund', 'swap_difference')`),
  ],
);

/** Every amount of a payment, from the ledger (drizzle/0044): charged, given back, left to refund. */
export const paymentMoney = pgView('payment_money', {
  paymentId: uuid('payment_id').notNull(),
  charged: numeric('charged', { precision: 14, scale: 2 }).notNull(),
  refunded: numeric('refunded', { precision: 14, scale: 2 }).notNull(),
  leftToRefund: numeric('left_to_refund', { precision: 14, scale: 2 }).notNull(),
}).existing();

export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // the payment it is of; an order's invoice is the order's (every line's invoice route answers it)
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    // a credit note of part of the payment (payment_refunds); null: of the whole, or of what was left
    refundId: uuid('refund_id').references((): AnyPgColumn => paymentRefunds.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: TAX_DOCUMENT_KINDS }).notNull(),
    number: text('number').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    content: jsonb('content').$type<TaxDocumentContent>().notNull(),
  },
  (t) => [
    uniqueIndex('tax_documents_payment_kind_unique').on(t.paymentId, t.kind).where(sql`refund_id IS NULL`),
    uniqueIndex('tax_documents_refund_unique').on(t.refundId).where(sql`refund_id IS NOT NULL`),
    uniqueIndex('tax_documents_order_kind_unique').on(t.orderId, t.kind),
    uniqueIndex('tax_documents_number_unique').on(t.number),
    check('tax_documents_of_one', sql`(payment_id IS NULL) <> (order_id IS NULL)`),
  ],
);

/**
 * An invitation to join an organisation (decision 033): sent by e-mail as a single-use link to
 * /invite/{token} (only the token's SHA-256 is kept), valid INVITATION_DAYS; accepted, revoked or
 * expired it answers 410. Resending makes a new token and a new expiry.
 */
export const orgInvitations = pgTable(
  'org_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    // stored lowercased, as users.email
    email: text('email').notNull(),
    role: text('role', { enum: ORG_ROLES }).notNull(),
    // the clients the member will be limited to (null: all)
    clientIds: uuid('client_ids').array(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('org_invitations_token_unique').on(t.tokenHash),
    // one open invitation per organisation and address (inviting again resends it)
    uniqueIndex('org_invitations_open_unique')
      .on(t.organisationId, t.email)
      .where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
    // profile completion asks whether the address has an open invitation (issue 57)
    index('org_invitations_open_email_idx').on(t.email).where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
    check('org_invitations_not_owner', sql`role <> 'owner'`),
  ],
);

/**
 * The organisation's audit log (decision 033): every change by a member, written in the change's
 * own transaction. Append-only: no route edits or deletes an entry, and a trigger (migration 0025)
 * refuses UPDATE and DELETE. The actor's name and e-mail are copied, so an entry outlives changes
 * to the account.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    actorId: uuid('actor_id'),
    actorName: text('actor_name'),
    actorEmail: text('actor_email').notNull(),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    subject: text('subject').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    address: text('address'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('audit_entries_org_at_idx').on(t.organisationId, t.at, t.id)],
);

/**
 * A purchase over the buyer's approval threshold (decision 034): asked for, then approved or
 * declined (with a reason) by an owner or admin other than the requester. Pending, it expires after
 * PURCHASE_REQUEST_DAYS; approved, the requester pays it through a checkout naming it, once.
 */
export const purchaseRequests = pgTable(
  'purchase_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    opportunityId: uuid('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'cascade' }),
    // the organisation's client it is bought for (null: none; decision 035)
    clientId: uuid('client_id').references((): AnyPgColumn => orgClients.id, { onDelete: 'restrict' }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    // a cart's request (issue 46): every line as it was asked for; `opportunity_id` is then the first's
    lines: jsonb('lines').$type<PurchaseRequestLine[]>(),
    status: text('status', { enum: PURCHASE_REQUEST_STATUSES }).notNull().default('pending'),
    reason: text('reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: bylineCreatedAt(),
    // its reminder before it expires (issue 59), set once by the conditional UPDATE that sends it
    remindedAt: timestamp('reminded_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('purchase_requests_org_created_idx').on(t.organisationId, t.createdAt, t.id)],
);

/**
 * An agency's client (decision 035): placements are bought for one client or none; each client has
 * its own billing details (its invoices and credit notes are addressed to it) and an optional
 * monthly cap, counted like the organisation's.
 */
export const orgClients = pgTable(
  'org_clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    // the client's monthly spend cap (calendar month, UTC); null: none
    monthlyCapUsd: numeric('monthly_cap_usd', { precision: 12, scale: 2 }),
    // its websites as the profile's is stored (https URLs): a placement bought for it must link to one
    // of them; none: to the buyer's own website (issue 57)
    websites: text('websites').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('org_clients_org_name_unique').on(t.organisationId, sql`lower(${t.name})`)],
);

/** A client's billing details: the shape of the organisation's (`billing_details`). */
export const clientBillingDetails = pgTable('client_billing_details', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => orgClients.id, { onDelete: 'cascade' }),
  legalName: text('legal_name').notNull(),
  addressLine1: text('address_line1').notNull(),
  addressLine2: text('address_line2'),
  postalCode: text('postal_code'),
  city: text('city').notNull(),
  country: text('country').notNull(),
  taxId: text('tax_id'),
  email: text('email'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * An edit request beyond the included rounds (issue 47): the brand's feedback and its reason tied to
 * the brief, awaiting the editorial team, who accept it (the round is opened) or decline it with a
 * reason. One pending per placement.
 */
export const revisionRequests = pgTable(
  'revision_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    feedback: text('feedback').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: REVISION_REQUEST_STATUSES }).notNull().default('pending'),
    answer: text('answer'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    answeredBy: uuid('answered_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: bylineCreatedAt(),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('revision_requests_placement_idx').on(t.placementId, t.createdAt),
    uniqueIndex('revision_requests_pending_unique').on(t.placementId).where(sql`status = 'pending'`),
  ],
);

/**
 * A cancellation asked for after writing started (issue 47): the editorial team answers by
 * `respond_by` (RESPONSE_DAYS) with a full or part refund or a refusal; unanswered by then, it is
 * granted in full by the job queue (`answered_by` null). One open per placement.
 */
export const cancellations = pgTable(
  'cancellations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    reason: text('reason'),
    status: text('status', { enum: CANCELLATION_STATUSES }).notNull().default('requested'),
    outcome: text('outcome', { enum: CANCELLATION_OUTCOMES }),
    // its refund on the ledger (decision 041), the one record of its amount (drizzle/0055 dropped the
    // copy; ledger.ts `cancellationAmountSql`): a part's from its claim, a full refund's once recorded
    movementId: uuid('movement_id').references((): AnyPgColumn => moneyMovements.id, { onDelete: 'restrict' }),
    answer: text('answer'),
    respondBy: timestamp('respond_by', { withTimezone: true, mode: 'date' }).notNull(),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    answeredBy: uuid('answered_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: bylineCreatedAt(),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('cancellations_placement_idx').on(t.placementId, t.createdAt),
    uniqueIndex('cancellations_open_unique').on(t.placementId).where(sql`status = 'requested'`),
    index('cancellations_due_idx').on(t.respondBy).where(sql`status = 'requested'`),
  ],
);

/**
 * A dispute (issue 47): the brand's complaint about a placement's content (from the first draft to
 * DISPUTE_DAYS after release) or its live link (during the publication guarantee), what it asks
 * for, and its course: the editorial team answers by `respond_by` (RESPONSE_DAYS), the brand
 * accepts an offer or escalates by `escalate_by`, an admin who neither released the placement nor
 * answered decides by `decide_by`. A deadline the team misses grants what was asked, once (the
 * job queue). A link dispute is decided by Byline's own checks: a confirmed problem is the
 * publication case (`case_id`). One unresolved per placement.
 */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['content', 'link'] }).notNull(),
    reason: text('reason', { enum: DISPUTE_REASONS }).notNull(),
    asked: text('asked', { enum: DISPUTE_OUTCOMES }).notNull(),
    askedAmount: numeric('asked_amount', { precision: 12, scale: 2 }),
    text: text('text').notNull(),
    status: text('status', { enum: DISPUTE_STATUSES }).notNull().default('open'),
    resolution: text('resolution', { enum: DISPUTE_RESOLUTIONS }),
    respondBy: timestamp('respond_by', { withTimezone: true, mode: 'date' }),
    answerAction: text('answer_action', { enum: DISPUTE_ACTIONS }),
    offerAmount: numeric('offer_amount', { precision: 12, scale: 2 }),
    answerReason: text('answer_reason'),
    answeredBy: uuid('answered_by').references(() => users.id, { onDelete: 'set null' }),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    escalateBy: timestamp('escalate_by', { withTimezone: true, mode: 'date' }),
    escalatedAt: timestamp('escalated_at', { withTimezone: true, mode: 'date' }),
    decideBy: timestamp('decide_by', { withTimezone: true, mode: 'date' }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
    // its refund on the ledger (decision 041), the one record of its amount (drizzle/0055 dropped the
    // copy; ledger.ts `disputeRefundedSql`): a part's from its claim, a full refund's once recorded
    movementId: uuid('movement_id').references((): AnyPgColumn => moneyMovements.id, { onDelete: 'restrict' }),
    caseId: uuid('case_id').references(() => publicationCases.id, { onDelete: 'set null' }),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: bylineCreatedAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('disputes_placement_idx').on(t.placementId, t.createdAt),
    uniqueIndex('disputes_unresolved_unique').on(t.placementId).where(sql`status <> 'resolved'`),
    index('disputes_status_idx').on(t.status, t.createdAt),
    index('disputes_respond_idx').on(t.respondBy).where(sql`status = 'open'`),
    index('disputes_escalate_idx').on(t.escalateBy).where(sql`status = 'offered'`),
    index('disputes_decide_idx').on(t.decideBy).where(sql`status = 'escalated'`),
  ],
);

/**
 * A report of an organisation's placements (issue 48): its filters, columns, white label and
 * schedule. `last_digest` is a hash of the last scheduled report sent: nothing changed, nothing sent.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    clientId: uuid('client_id').references((): AnyPgColumn => orgClients.id, { onDelete: 'cascade' }),
    fromDay: text('from_day'),
    toDay: text('to_day'),
    status: text('status', { enum: PLACEMENT_STATES }),
    columns: text('columns').array().notNull(),
    showPrices: boolean('show_prices').notNull().default(false),
    whiteLabel: jsonb('white_label').$type<{ logoFile: string | null; color: string | null; footer: string | null }>(),
    cadence: text('cadence', { enum: ['weekly', 'monthly'] }),
    recipients: text('recipients').array().notNull().default(sql`'{}'::text[]`),
    // the schedule's last period handled ('2026-W48', '2026-11'): each period once, whatever the instances
    lastPeriod: text('last_period'),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }),
    lastDigest: text('last_digest'),
    // signs each recipient's unsubscribe link (HMAC of the address)
    unsubscribeKey: text('unsubscribe_key').notNull(),
    createdBy: uuid('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: bylineCreatedAt(),
  },
  (t) => [
    index('reports_org_created_idx').on(t.organisationId, t.createdAt),
    index('reports_scheduled_idx').on(t.lastSentAt).where(sql`cadence IS NOT NULL`),
  ],
);

/**
 * A link that opens a report or one placement's proof signed out (issue 48), until it expires or
 * is revoked. Only the token's hash is kept.
 */
export const shares = pgTable(
  'shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    /** the token itself, so members can copy the link again while it is active (issue 57); cleared on revoke */
    token: text('token'),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'cascade' }),
    placementId: uuid('placement_id').references(() => placements.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    views: integer('views').notNull().default(0),
    lastViewedAt: timestamp('last_viewed_at', { withTimezone: true, mode: 'date' }),
    createdBy: uuid('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /**
     * made by a member who sees no amounts (a client reviewer, decision 035): the page never shows a
     * price, whatever the report says and whatever that member's role becomes (issue 57)
     */
    withoutPrices: boolean('without_prices').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('shares_token_unique').on(t.tokenHash),
    index('shares_org_created_idx').on(t.organisationId, t.createdAt),
    check('shares_one_subject', sql`(report_id IS NULL) <> (placement_id IS NULL)`),
  ],
);
