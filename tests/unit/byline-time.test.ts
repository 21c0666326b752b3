/**
 * Byline's time (issue 59): every rule on the server reads `now()` from lib/clock.ts (the test
 * clock's offset added), never the wall clock. The wall clock stays only where it must, each file
 * with the number of reads it has; a new `new Date()` or `Date.now()` anywhere else (or one more in
 * these files) fails here: read `now()` for a rule, or add it below saying why it is wall-clock.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../src/server');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The wall clock's reads that are meant (file: how many). */
const WALL_CLOCK: Record<string, number> = {
  // sign-in sessions, password resets, sign-in addresses: security, not a rule of the trade
  'modules/auth/session.ts': 3,
  'modules/auth/routes.ts': 1,
  'modules/auth/password-reset.ts': 3,
  'modules/auth/signin-addresses.ts': 2,
  // invitations (a link's expiry is a credential's), a member's removal, downloads' file names
  'modules/org/service.ts': 7,
  'modules/org/routes.ts': 1,
  'modules/org/audit.ts': 1,
  'modules/profile/service.ts': 2,
  'modules/invoices/routes.ts': 1,
  // when a metrics file was imported
  'modules/outlets/metrics-import.ts': 1,
  // share links: credentials that expire on the wall clock
  'modules/reports/service.ts': 4,
  // the mail queue's sweep, file sweeps, rate limits' pruning, ops, logs, shutdown
  'jobs/mail.ts': 1,
  'jobs/boss.ts': 2,
  'ops/worker.ts': 1,
  'ops/request-log.ts': 2,
  'ops/shutdown.ts': 2,
  'main.ts': 1,
  'mail/outbox.ts': 1,
  'mail/mailer.ts': 1,
  'storage/spooled-file.ts': 1,
  'storage/uploads.ts': 1,
  'lib/rate-limit.ts': 3,
  // the fetch's own time; modules/placements/live-check.ts moves it to Byline's time (outbound/ imports no lib/)
  'outbound/page-check.ts': 1,
  // Stripe's webhook signature tolerance is Stripe's wall clock
  'providers/stripe.ts': 1,
  // the demo's content, made at seeding
  'setup/seed.ts': 1,
  // the clock itself
  'lib/clock.ts': 1,
};

describe("Byline's time", () => {
  it('no rule reads the wall clock: `new Date()` and `Date.now()` only where they are meant', () => {
    const found: Record<string, number> = {};
    for (const file of files(ROOT)) {
      const count = (readFileSync(file, 'utf8').match(/new Date\(\)|Date\.now\(\)/g) ?? []).length;
      if (count) found[path.relative(ROOT, file)] = count;
    }
    expect(found).toEqual(WALL_CLOCK);
  });

  it('SQL in the server compares rules with clock_now(), not now()', () => {
    const found: Record<string, number> = {};
    for (const file of files(ROOT)) {
      // the SQL of the server's statements: its sql`…` templates (their text, not what they interpolate)
      const templates = [...readFileSync(file, 'utf8').matchAll(/sql`([^`]*)`/g)].map((m) => m[1].replace(/\$\{[^}]*\}/g, ''));
      const count = templates.reduce((n, text) => n + (text.match(/(?<!clock_)\bnow\(\)/g) ?? []).length, 0);
      if (count) found[path.relative(ROOT, file)] = count;
    }
    // the test clock's own row: when it was last moved or reset, on the wall clock
    expect(found).toEqual({ 'lib/clock.ts': 2 });
  });
});
