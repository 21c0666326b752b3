/**
 * One state machine (issue 58, decision 045): a placement's audit entry and its e-mails are written
 * only by timeline/effects.ts, from the placement's timeline entry. This scan of src/server/modules
 * fails when a service writes one itself again:
 * - `recordAudit(` only in effects.ts and for what is no placement's event (the organisation's
 *   members, budget, clients, billing, profile; a cart's order as a whole);
 * - a `notify…(` of mail/notify.ts only in effects.ts, but for the account mails (sign-up,
 *   approval) and a cart's order receipt;
 * - `enqueueMail(` / `enqueueAdminMail(` only for mails about no placement (password reset,
 *   invitations, purchase requests, messages, reports);
 * - rows of placement_events inserted only by timeline/service.ts (recordEvent, recordReminderOnce),
 *   which run the effects;
 * - and the table has a row for every timeline kind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TIMELINE_KINDS } from '../../src/shared/placement-machine';
import { EFFECTS } from '../../src/server/modules/timeline/effects';

const root = path.resolve(__dirname, '../..');
const modules = path.join(root, 'src/server/modules');
const EFFECTS_FILE = 'timeline/effects.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Each module file (path under src/server/modules) and its text without comments. */
const sources = filesUnder(modules).map((file) => ({
  rel: path.relative(modules, file).split(path.sep).join('/'),
  text: readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1'),
}));

/** Where `pattern` is called, as `file: name` (outside `allowed` files). */
function callsOutside(pattern: RegExp, allowed: Record<string, string>): string[] {
  return sources
    .filter((s) => s.rel !== EFFECTS_FILE && !(s.rel in allowed))
    .flatMap((s) => [...s.text.matchAll(pattern)].map((m) => `${s.rel}: ${m[0]}`));
}

/** The files that may still write an audit entry, and why theirs is no placement's event. */
const AUDIT_ALLOWED: Record<string, string> = {
  'org/audit.ts': 'recordAudit itself',
  'org/service.ts': 'the organisation and its members, invitations',
  'org/clients.ts': 'the clients and their billing details',
  'org/budget.ts': 'the monthly budget and purchase requests',
  'invoices/service.ts': "the organisation's billing details",
  'profile/service.ts': 'the profile',
  'payments/purchase.ts': "a cart's order paid, once for the whole order (its lines' entries have no audit)",
};

/** Mails about no placement's step, sent from where they happen. */
const ACCOUNT_NOTIFY = ['notifyBrandSignedUp', 'notifyBrandApproved'];
const NOTIFY_ALLOWED: Record<string, string> = {
  'payments/purchase.ts': "a cart's order receipt, one for the whole order",
};
const ENQUEUE_ALLOWED: Record<string, string> = {
  'auth/password-reset.ts': 'the password reset link',
  'org/service.ts': 'an invitation to the organisation',
  'org/budget.ts': 'purchase requests over budget',
  'messages/service.ts': "a message of a placement's conversation (no timeline entry)",
  'reports/service.ts': 'the scheduled reports',
};

describe('placement side effects come from the timeline (timeline/effects.ts)', () => {
  it('the scan sees the module files, and effects.ts writes audit entries and mails', () => {
    expect(sources.length).toBeGreaterThan(20);
    const effects = sources.find((s) => s.rel === EFFECTS_FILE)!;
    expect(effects.text).toMatch(/recordAudit\(/);
    expect(effects.text).toMatch(/notifyTermsUpdate\(/);
  });

  it('no audit entry is written outside effects.ts but for what is no placement event', () => {
    expect(callsOutside(/\brecordAudit\(/g, AUDIT_ALLOWED)).toEqual([]);
  });

  it('the audit actions of placement events are written by effects.ts only', () => {
    const effects = sources.find((s) => s.rel === EFFECTS_FILE)!;
    const placementActions = new Set([...effects.text.matchAll(/action: '([a-z_]+)'/g)].map((m) => m[1]));
    expect(placementActions.size).toBeGreaterThan(5);
    const elsewhere = sources
      .filter((s) => s.rel !== EFFECTS_FILE && s.rel !== 'payments/purchase.ts')
      .flatMap((s) => [...s.text.matchAll(/action: '([a-z_]+)'/g)].filter((m) => placementActions.has(m[1])).map((m) => `${s.rel}: ${m[1]}`));
    expect(elsewhere).toEqual([]);
  });

  it('no placement mail is queued outside effects.ts', () => {
    const notify = callsOutside(/\bnotify[A-Z]\w*(?=\()/g, NOTIFY_ALLOWED).filter((c) => !ACCOUNT_NOTIFY.includes(c.split(': ')[1]));
    expect(notify).toEqual([]);
    expect(callsOutside(/\benqueue(?:Admin)?Mail(?=\()/g, ENQUEUE_ALLOWED)).toEqual([]);
  });

  it('timeline entries are inserted by timeline/service.ts only (which runs their effects)', () => {
    const inserts = sources
      .filter((s) => s.rel !== 'timeline/service.ts')
      .filter((s) => /insert\(placementEvents\)|INSERT INTO \$\{placementEvents\}|INSERT INTO placement_events/.test(s.text))
      .map((s) => s.rel);
    expect(inserts).toEqual([]);
  });

  it('the table has one row for every timeline kind', () => {
    expect(Object.keys(EFFECTS).sort()).toEqual([...TIMELINE_KINDS].sort());
  });
});
