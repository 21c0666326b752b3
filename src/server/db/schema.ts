import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  bigserial,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    // the admin's pending-brands list
    index('users_pending_brands_idx').on(t.createdAt).where(sql`role = 'brand' AND approved = false AND name IS NOT NULL`),
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

export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_failures_email_idx').on(t.email, t.createdAt)],
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
  (t) => [uniqueIndex('invite_codes_code_unique').on(t.code)],
);

export const OPPORTUNITY_TYPES = ['profile_article', 'editorial_feature', 'advertorial_brand_voice', 'listicle'] as const;
export const OPPORTUNITY_STATUSES = ['available', 'claimed', 'in_progress', 'published', 'full'] as const;

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
  },
  (t) => [
    index('opportunities_status_created_idx').on(t.status, t.createdAt),
    index('opportunities_created_idx').on(t.createdAt),
  ],
);
