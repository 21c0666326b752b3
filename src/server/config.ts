import { z } from 'zod';

import { isIP } from 'node:net';
import { BRIEF_DAYS_DEFAULT, PROMISE_MIN_DELIVERIES_DEFAULT } from '../shared/promise';
import { LATE_CANCEL_DAYS_DEFAULT, LATE_CREDIT_MAX_PERCENT_DEFAULT, LATE_CREDIT_PERCENT_DEFAULT } from '../shared/late-credit';
import { EDIT_DAYS_DEFAULT, REVIEW_DAYS_DEFAULT } from '../shared/stage-clock';
import { DISPUTE_DAYS_DEFAULT, GUARANTEE_DAYS, RESPONSE_DAYS_DEFAULT, REVISIONS_INCLUDED_DEFAULT, SWAP_DAYS } from '../shared/constants';
import { parseAllowList } from './outbound/address-policy';

const bool = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true');

const WINDOW_UNITS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const SIZE_UNITS = { '': 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;

/** A limit: at most `max` (a count, or bytes with KB/MB/GB) per window, written like "10/1h" or "200MB/1d". */
export interface LimitSetting {
  max: number;
  windowMs: number;
}
const limit = z.string().transform((value, ctx): LimitSetting => {
  const m = /^\s*(\d+)\s*(KB|MB|GB)?\s*\/\s*(\d+)\s*([smhd])\s*$/i.exec(value);
  const max = m ? Number(m[1]) * SIZE_UNITS[(m[2]?.toUpperCase() ?? '') as keyof typeof SIZE_UNITS] : NaN;
  const windowMs = m ? Number(m[3]) * WINDOW_UNITS[m[4].toLowerCase() as keyof typeof WINDOW_UNITS] : NaN;
  if (!m || !(max >= 1) || !(windowMs >= 1000) || !Number.isSafeInteger(max)) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a limit such as "10/1h", "30/15m" or "200MB/1d"` });
    return z.NEVER;
  }
  return { max, windowMs };
});

/** Fastify's trustProxy: true/false, a hop count, or the proxies' addresses and CIDR ranges. */
const trustProxy = z.string().transform((value, ctx): boolean | number | string[] => {
  const v = value.trim();
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => {
    const [addr, bits, extra] = e.split('/');
    if (extra !== undefined || !isIP(addr)) return true;
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (isIP(addr) === 4 ? 32 : 128));
  });
  if (!entries.length || bad.length) {
    ctx.addIssue({ code: 'custom', message: `expected true, false, a hop count or comma-separated proxy addresses/CIDRs${bad.length ? ` (not understood: ${bad.join(', ')})` : ''}` });
    return z.NEVER;
  }
  return entries;
});

/** Every environment variable the server reads, validated once at start-up. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  /** Public address of the portal, used in links (checkout return URLs, e-mails). */
  PUBLIC_URL: z.url().optional(),
  /** Embedded database, uploads and mail live here when no external service is configured. */
  DATA_DIR: z.string().default('./data'),
  /** PostgreSQL server; when unset the embedded PGlite database under DATA_DIR/db is used. */
  DATABASE_URL: z.string().optional(),
  /**
   * Connections this server keeps to DATABASE_URL. More than the database's CPU cores can run at
   * once only adds switching between them; fewer leave it idle while answers travel.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * A streaming replica of DATABASE_URL's database (needs DATABASE_URL): the reads that may trail a
   * change by the replication lag go there (the catalogue, the search, outlet pages, report
   * contents), with a pool of DATABASE_POOL_SIZE of its own; every write, every transaction and
   * every read of what a user just changed stays on DATABASE_URL (docs/deploy.md).
   */
  DATABASE_READ_URL: z.string().optional(),
  /**
   * `1` when DATABASE_URL (and DATABASE_READ_URL) reach PostgreSQL through a pooler in transaction
   * mode (PgBouncer `pool_mode = transaction`): statements are then sent unnamed and the migrations'
   * lock is held by their transaction, since the pooler does not keep a session's state.
   */
  DATABASE_TRANSACTION_POOLER: bool.default(false),
  /**
   * What this process runs: `all` (the web server and the background jobs, as `npm start`), `web`
   * (the API and pages; jobs are only queued) or `worker` (the jobs, plus /healthz, /readyz and
   * /metrics on PORT), for deployments that scale the two apart (docs/deploy.md).
   */
  BYLINE_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  /**
   * API requests one server works on at once; past it, a 503 with `Retry-After: 1` at once rather than
   * a queue that grows until requests time out (ops/overload.ts). About what the pool answers in 0.1 s.
   */
  MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(48),
  // the most items a list without paging parameters answers at once; the rest follow through its
  // `Link: rel="next"` (docs/decisions/039)
  LIST_MAX: z.coerce.number().int().min(1).max(100_000).default(1000),
  // Uploaded files (storage/, decision 020): DATA_DIR/uploads, or an S3-compatible bucket.
  /** `disk` (DATA_DIR/uploads) or `s3`; unset: s3 when S3_BUCKET is set, else disk. */
  FILE_STORE: z.enum(['disk', 's3']).optional(),
  /** The bucket every instance keeps its uploads in. */
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** An S3-compatible service's address (MinIO, Cloudflare R2, …); unset: AWS S3. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Unset: the AWS SDK's own credentials (AWS_* variables, an instance role). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Address buckets as endpoint/bucket rather than bucket.endpoint (MinIO and most self-hosted services). */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Where the bucket's public/ objects are publicly readable (a CDN): GET /uploads/{image} then redirects there. */
  S3_PUBLIC_URL: z.url().optional(),
  /** MB of public images (1 MB each at most) each server keeps in memory, read from the bucket once; 0: none. */
  S3_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
  /** Seed demo content on first start of an empty embedded database; unset = on, except in production. */
  SEED_DEMO: bool.optional(),
  /** Create (or reset the password of) this admin at start. */
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  /** Days a session stays valid. */
  SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // 'info' also logs every request
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  /** Bearer token a Prometheus scraper sends to GET /metrics; unset = /metrics answers 404 and nothing is measured. */
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,200}$/, 'METRICS_TOKEN must be 16 to 200 printable characters without spaces (e.g. openssl rand -hex 32)')
    .optional(),
  /** Seconds SIGTERM waits for the requests in flight and the running jobs' current step before exiting anyway. */
  SHUTDOWN_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(20),
  /**
   * `stripe` or `test` (the built-in checkout: no money moves). Unset: stripe when its keys are set,
   * else test outside production; production without either refuses to start.
   */
  PAYMENT_PROVIDER: z.enum(['stripe', 'test']).optional(),
  /** Stripe secret key; when set (with STRIPE_WEBHOOK_SECRET) payments go through Stripe Checkout instead of the built-in test checkout. */
  STRIPE_SECRET_KEY: z.string().optional(),
  /** Signing secret of the webhook endpoint POST /api/webhooks/stripe ("whsec_..."). */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Send Stripe API calls elsewhere (a stand-in server in tests); default api.stripe.com:443 over https. */
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  /** SMTP server for e-mail ("smtp://user:pass@host:587", "smtps://..."); when unset each mail is written as an .eml file under DATA_DIR/mail and logged. */
  SMTP_URL: z.url().optional(),
  /** Sender of every e-mail ("Name <address>" or an address). */
  MAIL_FROM: z.string().min(3).default('Byline <no-reply@byline.local>'),
  /** Which proxies may set X-Forwarded-For/-Proto/-Host (Fastify's trustProxy); unset = none, the socket address is the client. */
  TRUST_PROXY: trustProxy.optional(),
  // Limits, shared by every instance (state in the database): "max/window".
  /** New accounts per client address. */
  LIMIT_SIGNUPS_PER_ADDRESS: limit.prefault('10/1h'),
  /** Failed sign-ins per client address (any accounts). */
  LIMIT_SIGNIN_FAILURES_PER_ADDRESS: limit.prefault('30/15m'),
  /** Failed sign-ins for one account from one client address: that pair is locked out, other clients are not. */
  LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: limit.prefault('10/15m'),
  /** Forgot-password requests per client address (each e-mail also gets at most 10 per 15 minutes). */
  LIMIT_PASSWORD_RESETS_PER_ADDRESS: limit.prefault('10/1h'),
  /** Invite-code attempts per user. */
  LIMIT_INVITE_CODE_ATTEMPTS: limit.prefault('10/1h'),
  /** Checkouts started per user. */
  LIMIT_CHECKOUTS: limit.prefault('30/1m'),
  /** Messages a brand sends in its placements' conversations (the editorial team is not limited). */
  LIMIT_MESSAGES: limit.prefault('100/1h'),
  /** Files uploaded per user, and their total size. */
  LIMIT_UPLOADS: limit.prefault('100/1d'),
  LIMIT_UPLOAD_BYTES: limit.prefault('200MB/1d'),
  /** Invitation e-mails (invitations and their resends) an organisation sends. */
  LIMIT_INVITATION_MAILS: limit.prefault('30/1h'),
  /** Recipients an organisation adds to its scheduled reports (each a mail to an outside address). */
  LIMIT_REPORT_RECIPIENTS: limit.prefault('50/1h'),
  // Publication checks (modules/placements, outbound/): the live article's page, fetched and watched.
  /**
   * Hosts, IPs or CIDRs the link checker may reach although they are not public (tests, intranets):
   * on ports 80 and 443, or exactly the `:port` / `:from-to` an entry names. Parsed here so that a
   * bad entry stops the start (outbound/address-policy.ts).
   */
  LINK_CHECK_ALLOW: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parseAllowList(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^LINK_CHECK_ALLOW: /, '') });
      }
    }),
  /** Pages checked at once by this server (one at a time per outlet host). */
  LINK_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Hours between two checks of a published article (jittered). */
  LINK_CHECK_INTERVAL_HOURS: z.coerce.number().min(0.01).max(24 * 30).default(24),
  /**
   * Days after publication the live article is watched and guaranteed ("Guaranteed until …"). Not
   * the spec's 90-day refund guarantee after payment (shared/constants.ts GUARANTEE_DAYS, fixed),
   * whose length it takes by default.
   */
  PUBLICATION_GUARANTEE_DAYS: z.coerce.number().int().min(1).max(3650).default(GUARANTEE_DAYS),
  /** Days a brand has to choose an alternative for a placement the outlet declined (issue 46); then it is refunded in full. */
  SWAP_DAYS: z.coerce.number().int().min(1).max(90).default(SWAP_DAYS),
  /** Days an outlet has to restore an article before the brand is refunded. */
  RESTORE_DAYS: z.coerce.number().int().min(1).max(365).default(10),
  // The fair terms (issue 47), shown on the terms page from these same values.
  /** Edit requests included with each placement; a further one needs the editorial team's yes. */
  REVISIONS_INCLUDED: z.coerce.number().int().min(0).max(20).default(REVISIONS_INCLUDED_DEFAULT),
  /** Days the editorial team has to answer a cancellation request; unanswered, it is granted in full. */
  RESPONSE_DAYS: z.coerce.number().int().min(1).max(60).default(RESPONSE_DAYS_DEFAULT),
  /** Days after release a brand may still dispute a placement's content. */
  DISPUTE_DAYS: z.coerce.number().int().min(1).max(365).default(DISPUTE_DAYS_DEFAULT),
  // The promise at purchase (issue 59, shared/promise.ts), shown on the terms page too.
  /** Deliveries an outlet needs before its own record (P50/P90 days to publish) makes its promise, not the listed turnaround. */
  PROMISE_MIN_DELIVERIES: z.coerce.number().int().min(1).max(50).default(PROMISE_MIN_DELIVERIES_DEFAULT),
  /** Business days a brand has to send its brief after payment; the promised date counts them. */
  BRIEF_DAYS: z.coerce.number().int().min(0).max(60).default(BRIEF_DAYS_DEFAULT),
  // Credit without a claim (issue 59, shared/late-credit.ts, decision 049), shown on the terms page too.
  /** Percent of the price credited to the brand for each business day a placement is late past its "Live by" date. */
  LATE_CREDIT_PERCENT: z.coerce.number().int().min(0).max(100).default(LATE_CREDIT_PERCENT_DEFAULT),
  /** The most, in percent of the price, all late credits of a placement add up to. */
  LATE_CREDIT_MAX_PERCENT: z.coerce.number().int().min(0).max(99).default(LATE_CREDIT_MAX_PERCENT_DEFAULT),
  /** Business days late after which the brand may cancel in one click for a full refund of what is left. */
  LATE_CANCEL_DAYS: z.coerce.number().int().min(1).max(250).default(LATE_CANCEL_DAYS_DEFAULT),
  /** Business days a brand has to review a draft (or the edits marked complete): its stage clock (decision 048). */
  REVIEW_DAYS: z.coerce.number().int().min(1).max(60).default(REVIEW_DAYS_DEFAULT),
  /** Business days the editorial team has for each round of edits: its stage clock (decision 048). */
  EDIT_DAYS: z.coerce.number().int().min(1).max(60).default(EDIT_DAYS_DEFAULT),
  // Timers of the workflow (modules/timeline/timers.ts), checked every 15 minutes.
  /** Days after payment on which a brand that has not submitted its brief is reminded, e.g. "3,7". */
  BRIEF_REMINDER_DAYS: z
    .string()
    .regex(/^\d{1,3}(,\d{1,3})*$/, 'BRIEF_REMINDER_DAYS must be whole days separated by commas, e.g. 3,7')
    .default('3,7')
    .transform((v) => [...new Set(v.split(',').map(Number))].filter((d) => d > 0).sort((a, b) => a - b)),
  /** Days a draft waits for the brand's review before a reminder. */
  REVIEW_REMINDER_DAYS: z.coerce.number().int().min(1).max(365).default(5),
  /** Days a draft waits for the brand's review before Byline approves it; 0: never. */
  AUTO_APPROVE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /**
   * Hours before an automatic step (the guarantee's refund, a cancellation or dispute granted for
   * want of an answer, a declined placement's refund, the first late credit, a purchase request
   * expiring) that the side who can still act is reminded, once.
   */
  REMINDER_HOURS: z.coerce.number().int().min(1).max(168).default(24),
  /** Markdown file of the terms brands agree to at sign-up and at claim (GET /api/terms, /terms); unset = content/terms.md. */
  TERMS_FILE: z.string().optional(),

  // Invoices and credit notes (modules/invoices, decision 021): the seller printed on them.
  /** The seller's legal name on invoices and credit notes. */
  INVOICE_SELLER_NAME: z.string().trim().min(1).max(200).default('Byline'),
  /** The seller's address, lines separated by \n (a literal backslash-n in an env file works too). */
  INVOICE_SELLER_ADDRESS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(/\r?\n|\\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  /** The seller's VAT or tax ID; an EU VAT number also decides when the reverse charge applies. */
  INVOICE_SELLER_TAX_ID: z.string().trim().max(40).optional(),
  /** The seller's billing contact e-mail, printed on documents. */
  INVOICE_SELLER_EMAIL: z.email('INVOICE_SELLER_EMAIL must be an e-mail address').optional(),
  /** Tax rate in percent included in every price (e.g. 20 or 7.7); 0 = no tax line. */
  INVOICE_TAX_RATE: z
    .string()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, 'INVOICE_TAX_RATE must be a percentage such as 20 or 7.7')
    .default('0')
    .transform((v) => {
      const [whole, frac = ''] = v.split('.');
      return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
    }),
  /** A font file (TTF/OTF/TTC) for names DejaVu Sans cannot print, e.g. Chinese (Debian: fonts-wqy-microhei). */
  INVOICE_FALLBACK_FONT: z.string().optional(),
});

export type Config = z.infer<typeof configSchema>;

/**
 * Reads and checks the environment. `serving: false` is for the command-line tools (migrate, seed,
 * remove demo data): they take no payments, so the production refusals below do not apply.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: { serving?: boolean } = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  // refused rather than ignored: a deployment that still sets the watch's old name would otherwise
  // silently get the default, and the name alone could be read as the 90-day refund after payment
  if (cleaned.GUARANTEE_DAYS !== undefined) {
    throw new Error(
      'Invalid environment configuration:\n  GUARANTEE_DAYS is now PUBLICATION_GUARANTEE_DAYS (the days a live article is watched after publication); set that instead',
    );
  }
  if (config.DATABASE_READ_URL && !config.DATABASE_URL) {
    throw new Error('Invalid environment configuration:\n  DATABASE_READ_URL (a replica) needs DATABASE_URL (its primary)');
  }
  if (config.DATABASE_TRANSACTION_POOLER && !config.DATABASE_URL) {
    throw new Error('Invalid environment configuration:\n  DATABASE_TRANSACTION_POOLER needs DATABASE_URL (the embedded database has no pooler)');
  }
  if (Boolean(config.ADMIN_EMAIL) !== Boolean(config.ADMIN_PASSWORD)) {
    throw new Error('Invalid environment configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (Boolean(config.STRIPE_SECRET_KEY) !== Boolean(config.STRIPE_WEBHOOK_SECRET)) {
    throw new Error('Invalid environment configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  }
  if (config.PAYMENT_PROVIDER === 'stripe' && !config.STRIPE_SECRET_KEY) {
    throw new Error('Invalid environment configuration:\n  PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  if (config.FILE_STORE === 's3' && !config.S3_BUCKET) {
    throw new Error('Invalid environment configuration:\n  FILE_STORE=s3 needs S3_BUCKET');
  }
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    throw new Error('Invalid environment configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  if (config.S3_PUBLIC_URL && fileStoreKind(config) !== 's3') {
    throw new Error('Invalid environment configuration:\n  S3_PUBLIC_URL needs the s3 file store (S3_BUCKET)');
  }
  if (opts.serving === false) return config;
  if (config.NODE_ENV === 'production' && config.SEED_DEMO) {
    throw new Error(
      'Refusing to start: SEED_DEMO=1 in production would create accounts whose passwords are published in the README.\n' +
        '  Unset SEED_DEMO (or set it to 0).',
    );
  }
  if (config.NODE_ENV === 'production' && !config.STRIPE_SECRET_KEY && config.PAYMENT_PROVIDER !== 'test') {
    throw new Error(
      'Refusing to start: no card provider is configured in production, so brands would get placements without paying.\n' +
        '  Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take real payments,\n' +
        '  or PAYMENT_PROVIDER=test to run with simulated payments on purpose (a "Test mode" banner shows on every page).',
    );
  }
  return config;
}

/** Which payment provider runs: Stripe when chosen or when its keys are set, else the built-in test checkout. */
export function paymentProviderKind(config: Config): 'stripe' | 'test' {
  if (config.PAYMENT_PROVIDER) return config.PAYMENT_PROVIDER;
  return config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET ? 'stripe' : 'test';
}

/** Where uploads are kept: the bucket when chosen or when S3_BUCKET is set, else DATA_DIR/uploads. */
export function fileStoreKind(config: Config): 'disk' | 's3' {
  return config.FILE_STORE ?? (config.S3_BUCKET ? 's3' : 'disk');
}

/** Demo content is seeded by default only outside production. */
export const seedsDemo = (config: Config) => config.SEED_DEMO ?? config.NODE_ENV !== 'production';

export function publicUrl(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}
