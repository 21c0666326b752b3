import { z } from 'zod';

const bool = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true');

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
  /** Seed demo content on first start of an empty embedded database. */
  SEED_DEMO: bool.default(true),
  /** Create (or reset the password of) this admin at start. */
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  /** Days a session stays valid. */
  SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // 'info' also logs every request
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
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
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (Boolean(config.ADMIN_EMAIL) !== Boolean(config.ADMIN_PASSWORD)) {
    throw new Error('Invalid environment configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (Boolean(config.STRIPE_SECRET_KEY) !== Boolean(config.STRIPE_WEBHOOK_SECRET)) {
    throw new Error('Invalid environment configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  }
  return config;
}

export function publicUrl(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}
