/**
 * npm run test:mutation — a small runner of NAMED mutants over the money and security code
 * (issue 15, "Safe for real money"; docs/reliability.md). Each mutant is one small, realistic bug
 * (a dropped WHERE condition, `>` for `>=`, a guard removed, a check weakened): it is applied to its
 * file, the few test files that should notice it are run, and the file is restored. A mutant the
 * tests do not notice "survives": either a test is missing, or the mutant is harmless/equivalent
 * and its `survives` field says why. (No Stryker: on two cores its full run takes hours; this list
 * takes minutes and names what each test is for.)
 *
 *   npm run test:mutation                         every mutant, tests on PGlite
 *   npm run test:mutation -- --only refunds       the mutants whose name contains "refunds"
 *   npm run test:mutation -- --postgres           on PGlite and on PostgreSQL (TEST_DATABASE_URL);
 *                                                 a mutant counts as killed only if killed on both
 *   npm run test:mutation -- --postgres-only      on PostgreSQL only
 *   npm run test:mutation -- --list               check and print the list, run nothing
 *   options: --timeout <seconds per run> (default 300), --no-baseline, --in-place,
 *            --json <file>, --markdown <file>
 *
 * Safety: by default the mutants are applied in a scratch copy of the working tree (node_modules
 * linked), so the checkout itself is never modified and others working in it are not disturbed;
 * `--in-place` mutates the checkout. Either way the original content is always written back
 * (try/finally, and on SIGINT/SIGTERM/exit). Every `find` must match exactly once, or the run
 * stops before anything is changed: the list cannot rot silently. Before the mutants, the listed
 * test files are run once unmutated (the baseline): they must pass.
 *
 * Exit code: 0 when every mutant is killed or survives with a written reason; 1 when one survives
 * without a reason or a run errs; 2 when the list or the baseline is broken.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';

export interface Mutant {
  /** "area: what the bug is" */
  name: string;
  /** the file mutated, from the project root */
  file: string;
  /** exact text (or a regular expression) that must occur exactly once in the file */
  find: string | RegExp;
  /** what it becomes (for a regular expression, $1... refer to its groups) */
  replace: string;
  /** the smallest set of test files that should kill it (tests/api/... or tests/unit/...) */
  tests: string[];
  /** only the tests whose name matches (vitest -t), to keep the run short */
  grep?: string;
  /** the real bug this stands for, when the name does not say it all */
  why?: string;
  /** why it is harmless or equivalent, for a mutant no test can or should kill */
  survives?: string;
  /** why only PostgreSQL can kill it (PGlite is one connection: transactions never overlap) */
  postgresOnly?: string;
  /**
   * why only PGlite can kill it: on the PostgreSQL server the test databases share one cluster, and
   * other test files commit while a test waits (a page kept by snapshot is then read again anyway)
   */
  pgliteOnly?: string;
  /** a mutant of a migration: the test databases are migrated again with it (and again after) */
  migration?: boolean;
}

const P = 'src/server/modules/payments/';
const A = 'src/server/modules/auth/';
const PL = 'src/server/modules/placements/';
const S = 'src/server/storage/';
const M9 = 'drizzle/0009_claim_limits.sql';
const T = {
  checkout: 'tests/api/payments-checkout.test.ts',
  admin: 'tests/api/payments-admin.test.ts',
  stripe: 'tests/api/payments-stripe.test.ts',
  guarantee: 'tests/api/payments-guarantee.test.ts',
  webhook: 'tests/api/webhook-safety.test.ts',
  money: 'tests/api/money-mutants.test.ts',
  twoInstances: 'tests/api/two-instances.test.ts',
  limits: 'tests/api/limits.test.ts',
  messages: 'tests/api/messages.test.ts',
  auth: 'tests/api/auth.test.ts',
  staticClient: 'tests/api/static-client.test.ts',
  sessions: 'tests/api/sessions-csrf.test.ts',
  permissions: 'tests/api/permissions.test.ts',
  matrix: 'tests/api/security-matrix.test.ts',
  uploads: 'tests/api/uploads.test.ts',
  logo: 'tests/api/logo-upload.test.ts',
  documents: 'tests/api/documents.test.ts',
  hostile: 'tests/api/hostile-files.test.ts',
  svg: 'tests/unit/svg-sanitize.test.ts',
  publication: 'tests/api/publication.test.ts',
  invoices: 'tests/api/invoices.test.ts',
  exportCsv: 'tests/api/payments-export.test.ts',
  org: 'tests/api/org.test.ts',
  security57: 'tests/api/security-57.test.ts',
};
const INV = 'src/server/modules/invoices/';
const O = 'src/server/outbound/';
const ORG = 'src/server/modules/org/';
const D = 'src/server/modules/disputes/';
const R = 'src/server/modules/reports/';
const CA = 'tests/api/client-amounts.test.ts';
const ONE_CONNECTION = 'PGlite runs one transaction at a time, so the lock has nothing to exclude there';

// prettier-ignore
export const MUTANTS: Mutant[] = [
  // ---- payments: slots.ts ----------------------------------------------------------------------
  { name: 'slots: hold sweep closes a hold the built-in checkout already charged', file: P + 'slots.ts',
    find: "WHERE status = 'open' AND test_provider_ref IS NULL AND (${where})", replace: "WHERE status = 'open' AND (${where})",
    tests: [T.money], why: 'a crash between Pay and fulfilment: the slot is given away and the charged brand refunded as sold out' },
  { name: 'slots: slot condition filled_slots < max_slots dropped', file: P + 'slots.ts',
    find: '    lt(opportunities.filledSlots, opportunities.maxSlots),\n', replace: '', tests: [T.money] },
  { name: 'slots: filled_slots <= max_slots (off by one: one slot too many)', file: P + 'slots.ts',
    find: 'lt(opportunities.filledSlots, opportunities.maxSlots)', replace: 'sql`${opportunities.filledSlots} <= ${opportunities.maxSlots}`', tests: [T.money] },
  { name: "slots: status = 'available' dropped (claims on published / in-progress opportunities)", file: P + 'slots.ts',
    find: "    eq(opportunities.status, 'available'),\n    lt(", replace: '    lt(', tests: [T.checkout], grep: 'refuses' },
  { name: 'slots: purchase deadline ignored', file: P + 'slots.ts',
    find: 'since === null ? undefined : or(', replace: 'since === null || true ? undefined : or(', tests: [T.checkout], grep: 'refuses' },
  { name: 'slots: deadline day itself refused (>= becomes >)', file: P + 'slots.ts',
    find: 'gte(opportunities.deadlineDate, since)', replace: 'sql`${opportunities.deadlineDate} > ${since}`', tests: [T.checkout], grep: 'deadline day' },
  { name: 'slots: the last slot does not mark the opportunity full (>= becomes >)', file: P + 'slots.ts',
    find: "+ 1 >= ${opportunities.maxSlots} THEN 'full'", replace: "+ 1 > ${opportunities.maxSlots} THEN 'full'", tests: [T.checkout], grep: 'last slot' },
  { name: 'slots: holds expiring together give back one slot per opportunity', file: P + 'slots.ts',
    find: 'SET filled_slots = GREATEST(o.filled_slots - c.n, 0),', replace: 'SET filled_slots = GREATEST(o.filled_slots - 1, 0),', tests: [T.checkout], grep: 'expireCheckouts closes holds' },
  { name: 'slots: releaseSlot gives nothing back', file: P + 'slots.ts',
    find: 'filledSlots: sql`GREATEST(${opportunities.filledSlots} - 1, 0)`,', replace: 'filledSlots: sql`${opportunities.filledSlots}`,', tests: [T.admin], grep: 'refund' },
  { name: 'slots: a hold is not expired at its exact expiry instant (<= becomes <)', file: P + 'slots.ts',
    find: 'expires_at <= ${now.toISOString()}', replace: 'expires_at < ${now.toISOString()}', tests: [T.money], grep: 'instant' },

  // ---- payments: checkout.ts -------------------------------------------------------------------
  { name: 'checkout: Stripe idempotency key differs per attempt', file: P + 'checkout.ts',
    find: '    idempotencyKey: `checkout-${holdId}`,', replace: '    idempotencyKey: `checkout-${randomUUID()}`,', tests: [T.stripe], grep: 'idempotency key' },
  { name: 'checkout: a resumed hold asks Stripe with a new idempotency key', file: P + 'checkout.ts',
    find: '      idempotencyKey: `checkout-${hold.id}`,', replace: '      idempotencyKey: `checkout-${hold.id}-${now.getTime()}`,', tests: [T.stripe], grep: 'resumed' },
  { name: 'checkout: built-in Pay accepts an expired hold', file: P + 'checkout.ts',
    find: '        gt(checkouts.expiresAt, now),\n', replace: '', tests: [T.checkout], grep: 'expired checkout' },
  { name: "checkout: another brand's checkout is visible (owner filter dropped)", file: P + 'checkout.ts',
    find: '.where(and(eq(checkouts.providerSessionId, sessionId), eq(checkouts.brandId, brandId)));',
    replace: '.where(eq(checkouts.providerSessionId, sessionId));', tests: [T.checkout], grep: 'cancel on the built-in' },
  { name: 'checkout: Pay does not check the owner in its UPDATE', file: P + 'checkout.ts',
    find: "        eq(checkouts.brandId, brandId),\n        eq(checkouts.status, 'open'),", replace: "        eq(checkouts.status, 'open'),", tests: [T.checkout], grep: 'built-in',
    survives: "equivalent: payTestCheckout first calls checkoutView(db, brandId, sessionId), which answers 404 for another brand's session (killed by the owner-filter mutant above), so the UPDATE's own brand condition can never be the one that refuses" },
  { name: 'checkout: a failed Stripe call keeps the slot', file: P + 'checkout.ts',
    find: "    await closeCheckouts(db, checkoutById(holdId), 'cancelled', now);\n    throw upstreamFailed('checkout_session_failed'", replace: "    throw upstreamFailed('checkout_session_failed'", tests: [T.money], grep: 'provider fails' },

  // ---- payments: fulfil.ts ---------------------------------------------------------------------
  { name: 'fulfil: charged amount not compared with the hold', file: P + 'fulfil.ts',
    find: 'if (session.amountCents !== expected || currency !== CURRENCY) {', replace: 'if (currency !== CURRENCY) {', tests: [T.webhook], grep: 'another amount' },
  { name: 'fulfil: charged currency not compared with usd', file: P + 'fulfil.ts',
    find: 'if (session.amountCents !== expected || currency !== CURRENCY) {', replace: 'if (session.amountCents !== expected) {', tests: [T.webhook], grep: 'currency' },
  { name: 'fulfil: processed-webhook-event check removed', file: P + 'fulfil.ts',
    find: '  if (seen) return { handled: false };\n', replace: '', tests: [T.webhook], grep: 'redelivered' },
  { name: 'fulfil: row lock dropped on the hold (two fulfilments at once)', file: P + 'fulfil.ts',
    find: ".where(eq(checkouts.id, hold.id)).for('no key update');", replace: '.where(eq(checkouts.id, hold.id));', tests: [T.checkout, T.twoInstances], grep: 'double clicks|both instances at once',
    postgresOnly: ONE_CONNECTION },
  { name: 'fulfil: an open hold takes a second slot when paid', file: P + 'fulfil.ts',
    find: "const holdsSlot = h.status === 'open' || h.status === 'completed' ||", replace: "const holdsSlot = h.status === 'completed' ||", tests: [T.checkout], grep: 'paid payment' },
  { name: 'fulfil: sold out while paying is not refunded', file: P + 'fulfil.ts',
    find: "...(holdsSlot ? {} : { refundRequestedAt: now, refundReason: 'sold_out' as const }),", replace: '...(holdsSlot ? {} : {}),', tests: [T.checkout], grep: 'sold out meanwhile' },
  { name: 'fulfil: a late payment is held to the purchase deadline', file: P + 'fulfil.ts',
    find: 'reserveSlot(tx, h.opportunityId, now, { ignoreDeadline: true })', replace: 'reserveSlot(tx, h.opportunityId, now)', tests: [T.money], grep: 'deadline',
    why: 'the brand started paying before the deadline; a completion after midnight must still get a free slot, not a refund' },
  { name: 'fulfil: an expired Stripe session keeps its slot', file: P + 'fulfil.ts',
    find: "    if (session.status === 'expired') {\n      await closeCheckouts(db, checkoutById(hold.id), 'expired', now);\n", replace: "    if (session.status === 'expired') {\n", tests: [T.stripe], grep: 'expired gives the slot back' },
  { name: 'fulfil: a complete but unpaid (async) session is booked', file: P + 'fulfil.ts',
    find: "const paid = session.status === 'complete' && (session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required');", replace: "const paid = session.status === 'complete';", tests: [T.stripe], grep: 'async_payment_failed' },

  // ---- payments: refunds.ts --------------------------------------------------------------------
  { name: "refunds: recordRefund's status guard removed (a refund recorded twice)", file: P + 'refunds.ts',
    find: "    if (!refundable) return { payment: before, changed: false };\n", replace: '', tests: [T.guarantee], grep: 'two sweeps' },
  { name: 'refunds: row lock dropped on the payment (two refunds at once)', file: P + 'refunds.ts',
    find: ".where(eq(payments.id, paymentId)).for('no key update');", replace: '.where(eq(payments.id, paymentId));', tests: [T.guarantee, T.twoInstances], grep: 'two sweeps|both instances at once',
    postgresOnly: ONE_CONNECTION },
  { name: 'refunds: provider idempotency key changes per call', file: P + 'refunds.ts',
    find: '    idempotencyKey: payment.id,\n', replace: '    idempotencyKey: `${payment.id}-${now.getTime()}`,\n', tests: [T.guarantee] },
  { name: 'refunds: refund claim ignores the status (a released payment refunded)', file: P + 'refunds.ts',
    find: "    .where(and(eq(payments.id, paymentId), eq(payments.status, 'paid')))\n    .returning();\n  if (!claimed)", replace: '    .where(eq(payments.id, paymentId))\n    .returning();\n  if (!claimed)', tests: [T.admin], grep: 'refund' },
  { name: 'refunds: 90-day guarantee one day late', file: P + 'refunds.ts',
    find: 'GUARANTEE_DAYS * DAY_MS', replace: '(GUARANTEE_DAYS + 1) * DAY_MS', tests: [T.guarantee], grep: 'day 89' },
  { name: 'refunds: 90-day guarantee excludes the 90th day itself (<= becomes <)', file: P + 'refunds.ts',
    find: 'lte(payments.paidAt, cutoff)', replace: 'lte(payments.paidAt, new Date(cutoff.getTime() - 1))', tests: [T.guarantee], grep: 'day 89' },
  { name: 'publication: release ignores a refund in progress (refund_requested_at IS NULL dropped)', file: PL + 'release.ts',
    find: "and(eq(payments.id, paymentId), eq(payments.status, 'paid'), isNull(payments.refundRequestedAt)))", replace: "and(eq(payments.id, paymentId), eq(payments.status, 'paid')))", tests: [T.admin], grep: 'refund has started' },
  { name: "publication: release of a payment in any status (status = 'paid' dropped)", file: PL + 'release.ts',
    find: "and(eq(payments.id, paymentId), eq(payments.status, 'paid'), isNull(", replace: 'and(eq(payments.id, paymentId), isNull(', tests: [T.admin], grep: 'release' },
  { name: 'refunds: a refund keeps the slot', file: P + 'refunds.ts',
    find: '    if (before.holdsSlot) await releaseSlot(tx, before.opportunityId);\n', replace: '', tests: [T.admin], grep: 'refund' },
  { name: 'refunds: a sold-out refund frees a slot it never had', file: P + 'refunds.ts',
    find: '    if (before.holdsSlot) await releaseSlot(tx, before.opportunityId);', replace: '    await releaseSlot(tx, before.opportunityId);', tests: [T.checkout], grep: 'sold out meanwhile' },
  { name: 'refunds: a dashboard refund believed without asking Stripe', file: P + 'refunds.ts',
    find: '  if (!(await provider.isRefunded(providerRef))) return 0;\n', replace: '', tests: [T.stripe], grep: 'charge.refunded' },

  // ---- payments: queries.ts, routes.ts, admin-routes.ts ------------------------------------------
  { name: "payments service: escrow balance counts every status (status = 'paid' dropped)", file: P + 'service.ts',
    find: " AND ${payments.status} = 'paid'\n    ${byClients", replace: '\n    ${byClients', tests: [T.admin], grep: 'wallet' },
  { name: "payments service: a brand's payment list shows every brand's payments (brandId filter dropped)", file: P + 'service.ts',
    find: "      sql`${payments.organisationId} = ${sql.placeholder('organisationId')}`,\n      o.byClients ? inClients(payments.clientId) : undefined,\n      o.cursor ? afterCursor(payments.createdAt",
    replace: "      sql`true`,\n      o.byClients ? inClients(payments.clientId) : undefined,\n      o.cursor ? afterCursor(payments.createdAt", tests: [T.admin], grep: 'own payments' },
  { name: 'payments service: admin totals count refunded payments as held', file: P + 'service.ts',
    find: "FILTER (WHERE ${payments.status} = 'paid')", replace: "FILTER (WHERE ${payments.status} IN ('paid', 'refunded'))", tests: [T.admin], grep: 'totals' },
  { name: "payments service: a brand's payment pages kept in memory (a change made elsewhere not seen)", file: P + 'service.ts',
    find: '  return brandPaymentsPage(\n    db,\n    { byClients, cursor: Boolean(page.cursor) },',
    replace: '  const kept = ((globalThis as { keptPages?: Map<string, Promise<JsonPageRow[]>> }).keptPages ??= new Map());\n  const key = JSON.stringify([scope, page]);\n  if (!kept.has(key)) kept.set(key, brandPaymentsPage(db, { byClients, cursor: Boolean(page.cursor) }, { organisationId: scope.organisationId, ...(byClients ? { clientIds: scope.clientIds } : {}), ...pageValues(page) }));\n  return kept.get(key)!;\n  return brandPaymentsPage(\n    db,\n    { byClients, cursor: Boolean(page.cursor) },',
    tests: [T.admin], grep: 'read the database' },
  { name: 'payments service: Admin Payments pages kept in memory (a change made elsewhere not seen)', file: P + 'service.ts',
    find: 'export function adminPayments(\n  db: Db,',
    replace: 'export function adminPayments(db: Db, filter: { opportunityId?: string; status?: PaymentStatus; q?: string }, page: Page): Promise<JsonPageRow[]> {\n  const key = JSON.stringify([filter, page]);\n  if (!keptAdminPages.has(key)) keptAdminPages.set(key, readAdminPayments(db, filter, page));\n  return keptAdminPages.get(key)!;\n}\nconst keptAdminPages = new Map<string, Promise<JsonPageRow[]>>();\nfunction readAdminPayments(\n  db: Db,',
    tests: [T.admin], grep: 'read the database' },
  { name: "routes: checkout open to any signed-in user (its contract's access brand → user)", file: P + 'routes.ts',
    find: "      access: 'brand',\n      tags: ['Checkout'],\n      spec: true,\n", replace: "      access: 'user',\n      tags: ['Checkout'],\n      spec: true,\n", tests: [T.checkout], grep: 'PERMISSIONS' },
  { name: 'checkout: checkouts not counted against the brand\'s limit', file: P + 'checkout.ts',
    find: "            < ${sql.placeholder('limitMax')}::int", replace: "            < ${sql.placeholder('limitMax')}::int + 1000000", tests: [T.limits], grep: 'checkouts started a minute' },
  { name: 'routes: the built-in Pay button works with Stripe too', file: P + 'routes.ts',
    find: "      if (provider.name !== 'test') throw notFound('checkout_not_found', CHECKOUT_NOT_FOUND);\n", replace: '', tests: [T.stripe], grep: 'sends the server price' },
  { name: "admin-routes: refund needs any signed-in user (its contract's access admin → user)", file: P + 'admin-routes.ts',
    find: "      access: 'admin',\n      tags: ['Payments'],\n      summary: 'Refund a payment held in escrow or published, in full or in part',", replace: "      access: 'user',\n      tags: ['Payments'],\n      summary: 'Refund a payment held in escrow or published, in full or in part',", tests: [T.matrix], grep: 'refund' },
  { name: "placement routes: release open to any signed-in user (its contract's access admin → user)", file: PL + 'publication-routes.ts',
    find: "      access: 'admin',\n      tags: ['Publication'],\n      spec: true,\n      summary: 'Publish: the article is live", replace: "      access: 'user',\n      tags: ['Publication'],\n      spec: true,\n      summary: 'Publish: the article is live", tests: [T.admin], grep: 'release' },

  // ---- payments: the Stripe provider's webhook check -----------------------------------------------
  { name: "webhook: its contract declares the event as a JSON body (a signed event is refused, the raw bytes never reach the check)", file: P + 'webhook-routes.ts',
    find: "        access: 'webhook',\n", replace: "        access: 'webhook',\n        body: z.looseObject({ id: z.string(), type: z.string() }),\n",
    tests: [T.webhook], grep: 'booked as before' },
  { name: 'stripe: webhook timestamp from the future accepted (only the past checked)', file: 'src/server/providers/stripe.ts',
    find: 'Math.abs(now.getTime() / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS', replace: 'now.getTime() / 1000 - timestamp > WEBHOOK_TOLERANCE_SECONDS', tests: [T.webhook], grep: 'minutes off' },
  { name: 'stripe: a signed event without an id accepted', file: 'src/server/providers/stripe.ts',
    find: "if (typeof event.id !== 'string' || !event.id || typeof event.type !== 'string') {", replace: "if (typeof event.type !== 'string') {", tests: [T.webhook], grep: 'without an id' },

  // ---- auth ------------------------------------------------------------------------------------
  { name: 'access: an admin route lets any signed-in user through', file: 'src/server/lib/contract.ts',
    find: "  if (access === 'admin' && user.role !== 'admin') throw forbidden('admins_only', 'Only admins can do this');\n", replace: '', tests: [T.permissions] },
  { name: 'access: a signed-in route lets visitors through', file: 'src/server/lib/contract.ts',
    find: '  if (!user) throw unauthorized();\n', replace: '  if (!user) return;\n', tests: [T.auth], grep: 'visitor' },
  { name: 'access: approved check removed (pending brands buy)', file: 'src/server/lib/contract.ts',
    find: "    if (!user.approved) throw forbidden('account_awaiting_approval', 'Your account is awaiting approval');\n", replace: '', tests: [T.checkout], grep: 'PERMISSIONS' },
  { name: 'access: brand role not required (admins buy placements)', file: 'src/server/lib/contract.ts',
    find: "    if (user.role !== 'brand') throw forbidden('brands_only', 'Only brands can do this');\n", replace: '', tests: [T.checkout], grep: 'PERMISSIONS' },
  { name: 'access: completed profile not required', file: 'src/server/lib/contract.ts',
    find: "    if (!user.name) throw forbidden('profile_incomplete', 'Please complete your profile first');\n", replace: '', tests: [T.money], grep: 'profile',
    why: 'the approve endpoint takes any pending brand, so an approved brand without a profile exists' },
  { name: 'session: expired sessions accepted (expiry check removed)', file: A + 'session.ts',
    find: " AND ${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,", replace: '`,', tests: [T.auth], grep: 'expired session' },
  { name: 'session: token stored in the clear (hashing removed)', file: A + 'session.ts',
    find: "export const hashToken = (token: string) => hash('sha256', token, 'hex');", replace: 'export const hashToken = (token: string) => token;', tests: [T.sessions], grep: 'only as its hash' },
  { name: 'session: sign-out deletes by the raw token (the session lives on)', file: A + 'session.ts',
    find: '  await db.delete(sessions).where(eq(sessions.id, hashToken(token)));', replace: '  await db.delete(sessions).where(eq(sessions.id, token));', tests: [T.sessions], grep: 'signing out' },
  { name: 'session: 32-bit session tokens', file: A + 'session.ts',
    find: "const token = randomBytes(32).toString('base64url');", replace: "const token = randomBytes(4).toString('base64url');", tests: [T.sessions], grep: 'only as its hash' },
  { name: 'auth: a failed sign-in given back instead of a successful one', file: A + 'service.ts',
    find: / {2}if \(!user \|\| !ok\) throw unauthorized\('invalid_credentials', INVALID_CREDENTIALS\);\n( {2}\/\/ the right password[^\n]*\n) {2}await releaseClaims\(db, claimed\);\n/,
    replace: '  if (!user || !ok) {\n    await releaseClaims(db, claimed);\n    throw unauthorized(\'invalid_credentials\', INVALID_CREDENTIALS);\n  }\n$1', tests: [T.limits], grep: '100 concurrent wrong passwords' },
  { name: 'auth: a successful sign-in still counts as a failure', file: A + 'service.ts',
    find: '  await releaseClaims(db, claimed);\n  await forgiveSigninFailures', replace: '  await forgiveSigninFailures', tests: [T.money], grep: 'successful sign-ins',
    why: "the owner's own successful sign-ins from a shared address (an office) would lock the address out" },
  { name: 'auth: per-account lockout ignores the address (a stranger locks the owner out)', file: A + 'service.ts',
    find: '{ limit: limits.signinFailuresPerAccount, subject: `${email} ${ctx.client}` },', replace: '{ limit: limits.signinFailuresPerAccount, subject: email },', tests: [T.limits], grep: 'stranger' },
  { name: 'auth: sign-up creates an approved brand', file: A + 'service.ts',
    find: "values({ email, password, role: 'brand', approved: false })", replace: "values({ email, password, role: 'brand', approved: true })", tests: [T.auth], grep: 'ignores a role' },

  { name: 'messages: a brand\'s messages not counted', file: 'src/server/modules/messages/routes.ts',
    find: "              caller.side === 'brand'\n                ? await claimLimits", replace: "              caller.side === 'nobody'\n                ? await claimLimits", tests: [T.messages], grep: 'LIMIT_MESSAGES' },
  { name: 'messages: the count kept when the message is not stored', file: 'src/server/modules/messages/routes.ts',
    find: '              if (claimed.length) await releaseClaims(db, claimed);\n', replace: '', tests: [T.messages], grep: 'LIMIT_MESSAGES' },
  { name: 'messages: the brand side open to any signed-in user (its contract says user, not brand)', file: 'src/server/modules/messages/routes.ts',
    find: "    access: 'brand',\n    who:", replace: "    access: 'user',\n    who:", tests: [T.messages], grep: 'a pending brand gets 403' },
  // ---- security headers (lib/security-headers.ts, app.ts) ----------------------------------------
  { name: 'security headers: not copied onto the reply', file: 'src/server/app.ts',
    find: "    reply.headers(headers).header('x-request-id', req.id);", replace: "    reply.header('x-request-id', req.id);", tests: [T.staticClient], grep: 'security headers' },
  { name: "security headers: inline scripts allowed (script-src gains 'unsafe-inline')", file: 'src/server/lib/security-headers.ts',
    find: "        scriptSrc: [\"'self'\"],", replace: "        scriptSrc: [\"'self'\", \"'unsafe-inline'\"],", tests: [T.staticClient, T.auth], grep: 'security headers',
    why: 'a script smuggled into a page (a message, a brief) would run; the policy is what stops it' },
  // ---- rate-limit.ts ---------------------------------------------------------------------------
  { name: 'rate-limit: one request fewer than the limit (> becomes >=)', file: M9, migration: true,
    find: '    IF used + wanted > p_maxes[i] THEN', replace: '    IF used + wanted >= p_maxes[i] THEN', tests: [T.limits], grep: '100 concurrent wrong passwords' },
  { name: 'rate-limit: one request more than the limit', file: M9, migration: true,
    find: '    IF used + wanted > p_maxes[i] THEN', replace: '    IF used + wanted > p_maxes[i] + 1 THEN', tests: [T.limits], grep: '100 concurrent wrong passwords' },
  { name: 'rate-limit: advisory lock removed (concurrent requests all pass)', file: M9, migration: true,
    find: "    PERFORM pg_advisory_xact_lock(hashtextextended(p_buckets[i] || E'\\n' || p_subjects[i], 0));\n", replace: '',
    tests: [T.limits], grep: '100 concurrent', postgresOnly: ONE_CONNECTION },
  { name: 'rate-limit: the window is ignored (events count forever)', file: M9, migration: true,
    find: '      WHERE bucket = p_buckets[i] AND subject = p_subjects[i] AND at > since;\n', replace: '      WHERE bucket = p_buckets[i] AND subject = p_subjects[i];\n', tests: [T.money], grep: 'window' },
  { name: 'rate-limit: a refused claim still records the others', file: 'src/server/lib/rate-limit.ts',
    find: '  if (row.refused > 0) {', replace: '  if (row.refused > 0 && sorted.length === 1) {', tests: [T.limits], grep: 'stranger cannot lock|30 failed sign-ins' },

  // ---- storage ---------------------------------------------------------------------------------
  { name: 'file-type: any type file-type names taken for an image', file: S + 'file-type.ts',
    find: '  const ext = found && IMAGE_EXT.get(found.ext);', replace: "  const ext = found && (IMAGE_EXT.get(found.ext) ?? (found.ext as 'png'));", tests: [T.hostile], grep: 'avatar' },
  { name: 'file-type: GIF version not checked (file-type takes anything starting "GIF")', file: S + 'file-type.ts',
    find: "  if (ext === 'gif' && !GIF_HEADER.test(file.head.toString('latin1', 0, 6))) return null;\n", replace: '', tests: [T.hostile], grep: 'avatar' },
  { name: 'document-type: any type file-type names taken for a draft', file: S + 'document-type.ts',
    find: '    default:\n      return { ok: false, message: DOCUMENT_TYPE_MESSAGE };',
    replace: '    default:\n      return found ? { ok: true, ext: found.ext as DocumentExt, mime: found.mime } : { ok: false, message: DOCUMENT_TYPE_MESSAGE };',
    tests: [T.hostile], grep: 'draft document' },
  { name: 'document-type: any OLE2 container taken for a Word document', file: S + 'document-type.ts',
    find: "      if (!(await fileIncludes(file, WORD_STREAM))) return { ok: false, message: 'This file is not a Word document' };\n", replace: '', tests: [T.hostile], grep: 'draft document' },
  { name: 'document-type: checkDocx skipped (zip bombs taken for drafts)', file: S + 'document-type.ts',
    find: '      const problem = await checkDocx(bytes).finally(() => bytes.close());', replace: '      const problem = null;\n      await bytes.close();', tests: [T.hostile], grep: 'draft document' },
  { name: "document-type: only what file-type names 'docx' is checked (a plain zip is trusted)", file: S + 'document-type.ts',
    find: '      const problem = await checkDocx(bytes).finally(() => bytes.close());', replace: "      const problem = found.ext === 'docx' ? await checkDocx(bytes) : null;\n      await bytes.close();", tests: [T.hostile], grep: 'draft document' },
  { name: 'document-type: .docx unpacked size not limited (zip bombs)', file: S + 'document-type.ts',
    find: "    if (unpacked > DOCX_MAX_UNPACKED_BYTES) return 'This document is too large once unpacked (100 MB at most)';\n", replace: '', tests: [T.hostile], grep: 'draft document' },
  { name: 'document-type: .docx part count not limited', file: S + 'document-type.ts',
    find: "  if (entries > DOCX_MAX_ENTRIES) return 'This document has too many parts';\n", replace: '', tests: [T.hostile], grep: 'draft document' },
  { name: 'svg-sanitize: <script> allowed', file: S + 'svg-sanitize.ts',
    find: "  'svg', 'g', 'defs',", replace: "  'svg', 'script', 'g', 'defs',", tests: [T.svg] },
  { name: 'svg-sanitize: on* event handlers kept', file: S + 'svg-sanitize.ts',
    find: "    if (uri !== '' || !ATTRIBUTES.has(local)) continue;", replace: "    if (uri !== '' || !(ATTRIBUTES.has(local) || local.startsWith('on'))) continue;", tests: [T.svg] },
  { name: 'svg-sanitize: references outside the document kept', file: S + 'svg-sanitize.ts',
    find: 'if (HREF_ELEMENTS.has(tag.local) && LOCAL_REF.test(value.trim()))', replace: 'if (HREF_ELEMENTS.has(tag.local))', tests: [T.svg] },
  { name: 'svg-sanitize: CSS url() / @font-face to anywhere kept', file: S + 'svg-sanitize.ts',
    find: '  return dangerous.test(rest) ? null : text;', replace: '  return /@import/.test(rest) ? null : text;', tests: [T.svg] },
  { name: 'uploads: brands upload without limits', file: S + 'uploads.ts',
    find: "  if (uploader.role !== 'admin') {", replace: "  if (uploader.role === 'nobody') {", tests: [T.limits], grep: 'counts files' },
  { name: 'uploads: upload bytes not weighed', file: S + 'uploads.ts',
    find: 'weight: file.source.size },', replace: 'weight: 1 },', tests: [T.limits], grep: 'counts bytes' },
  { name: 'uploads: unreferenced-upload sweep ignores every reference', file: S + 'uploads.ts',
    find: '              AND NOT ${referenced(sql`u.name`)} LIMIT ${limit})`,', replace: '              LIMIT ${limit})`,', tests: [T.limits], grep: 'nothing refers' },
  { name: "uploads: sweep ignores opportunities' logos", file: S + 'uploads.ts',
    find: "WHERE ${opportunities.logoUrl} = '/uploads/' || ${name}\n             OR (", replace: 'WHERE (', tests: [T.money], grep: 'sweep' },
  { name: "uploads: sweep ignores opportunities' example images", file: S + 'uploads.ts',
    find: "\n             OR ('/uploads/' || ${name}) = ANY(${opportunities.exampleUrls}))", replace: ')', tests: [T.money], grep: 'sweep' },
  { name: 'uploads: sweep deletes attached draft documents', file: S + 'uploads.ts',
    find: "\n  OR EXISTS (SELECT 1 FROM ${placements} WHERE ${placements.draftDocumentFile} = '/api/files/' || ${name})", replace: '', tests: [T.money], grep: 'sweep' },
  { name: 'file-store: stored names may contain dots and slashes (path traversal)', file: S + 'file-store.ts',
    find: 'const SAFE_NAME = /^[A-Za-z0-9_-]+\\.[a-z0-9]+$/;', replace: 'const SAFE_NAME = /^[A-Za-z0-9_.\\/-]+\\.[a-z0-9]+$/;', tests: [T.hostile], grep: 'leaves the uploads' },
  { name: 'file-store: names not checked when reading (path traversal)', file: S + 'file-store.ts',
    find: '    async get(name) {\n      if (!isSafeStoredName(name)) return null;\n', replace: '    async get(name) {\n', tests: [T.uploads, T.documents],
    survives: 'equivalent today: both readers (GET /uploads/:name and GET /api/files/:name) check isSafeStoredName (and an extension) before calling get(); the check in get() is the second line of defence for a future caller' },

  // ---- upload routes: the bytes decide the type ------------------------------------------------------
  { name: 'upload routes: avatar typed by its file name', file: 'src/server/modules/profile/routes.ts',
    find: "const { file } = await readUpload(req, 'avatar', AVATAR_MAX_BYTES, 'Please upload an image smaller than 5MB');\n        try {\n          const type = await detectImage(file);",
    replace: "const { file, filename } = await readUpload(req, 'avatar', AVATAR_MAX_BYTES, 'Please upload an image smaller than 5MB');\n        try {\n          const named = (filename.split('.').pop() ?? '').toLowerCase().replace('jpeg', 'jpg');\n          const { MIME_BY_EXT } = await import('../../storage/file-type');\n          const type = MIME_BY_EXT[named]?.startsWith('image/') ? { ext: named as 'png', mime: MIME_BY_EXT[named] } : await detectImage(file);",
    tests: [T.hostile], grep: 'name and the bytes' },
  { name: 'upload routes: draft document typed by its file name', file: PL + 'documents.ts',
    find: "const { file } = await readUpload(req, 'file', DOCUMENT_MAX_BYTES, 'File must be smaller than 25MB');\n      try {\n        const type = await detectDocument(file);",
    replace: "const { file, filename } = await readUpload(req, 'file', DOCUMENT_MAX_BYTES, 'File must be smaller than 25MB');\n      try {\n        const named = (filename.split('.').pop() ?? '').toLowerCase() as DocumentExt;\n        const type = named in DOCUMENT_MIME ? { ok: true as const, ext: named, mime: DOCUMENT_MIME[named] } : await detectDocument(file);",
    tests: [T.hostile], grep: 'name and the bytes' },
  { name: 'upload routes: logo whose name claims another image type accepted', file: 'src/server/modules/opportunities/logo-upload.ts',
    find: '    if (claimed && actual && claimed !== actual) {', replace: '    if (claimed && actual && claimed !== actual && false) {', tests: [T.hostile], grep: 'name and the bytes' },

  // ---- publication (issue 17): the release's check, the watch, the address policy -----------------
  { name: 'publication: a release with a failing check goes through without a reason', file: PL + 'release.ts',
    find: "    check = await checkFor(deps, placement, request.liveUrl);\n    if (check.result === 'fail' && !reason) refuseProblems(check);",
    replace: '    check = await checkFor(deps, placement, request.liveUrl);', tests: [T.publication], grep: 'problems refuse the release' },
  { name: 'publication: an unapproved draft released with a link without a reason', file: PL + 'release.ts',
    find: "placement.placement.draftReviewStatus !== 'approved' && !reason", replace: "placement.placement.draftReviewStatus !== 'approved' && !reason && false",
    tests: [T.publication], grep: 'has not approved needs a reason' },
  { name: 'publication: the first failing check opens a case (no second check an hour later)', file: PL + 'watch.ts',
    find: 'if (!since || now.getTime() - since.getTime() < CONFIRM_AFTER_MS) {', replace: 'if (!since && false) {',
    tests: [T.publication], grep: 'confirmed an hour later|recovers within the hour' },
  { name: "publication: the restore deadline's own instant does not refund (>= becomes >)", file: PL + 'watch.ts',
    find: 'if (now >= open.restoreBy) {', replace: 'if (now > open.restoreBy) {', tests: [T.publication], grep: 'refunded once at the deadline' },
  { name: 'publication: the watch claims rows another instance holds (SKIP LOCKED dropped)', file: PL + 'watch.ts',
    find: 'ORDER BY next_check_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)', replace: 'ORDER BY next_check_at LIMIT ${batch})',
    tests: [T.publication], grep: 'two instances sweeping', postgresOnly: ONE_CONNECTION },
  { name: 'outbound: every IPv4 address counts as public (loopback, private, metadata reachable)', file: O + 'address-policy.ts',
    find: "  if (address.kind() === 'ipv4') return address.range() === 'unicast';", replace: "  if (address.kind() === 'ipv4') return true;",
    tests: [T.publication], grep: 'odd spellings|outside LINK_CHECK_ALLOW' },
  { name: 'outbound: IPv4 inside IPv6 (::ffff:127.0.0.2) judged as IPv6', file: O + 'address-policy.ts',
    find: "  if (v4) return v4.range() === 'unicast';", replace: '  if (v4) return true;', tests: [T.publication], grep: 'odd spellings' },

  // ---- issue 44: placements: one release path, lists read the database (placements/) ---------------
  { name: 'release 44: PATCH …/status {status: "released"} answered as a PlacementPayment (its answer union the other way round)', file: PL + 'publication-routes.ts',
    find: 'response: { 200: z.union([paymentSchema, placementPaymentSchema]) },', replace: 'response: { 200: z.union([placementPaymentSchema, paymentSchema]) },',
    tests: [T.publication], grep: 'one release path' },
  { name: 'release 44: PATCH …/status {status: "released", liveUrl} releases without checking the live article (a path of its own)', file: PL + 'publication-routes.ts',
    find: '      return release(req, req.params.id, request);', replace: '      return release(req, req.params.id, {});',
    tests: [T.publication], grep: 'takes the same path' },
  { name: 'contract 44: a call without a body refused like a JSON null (the spec’s release answers 400)', file: 'src/server/lib/contract.ts',
    find: '  if (req.body === undefined) req.body = {};', replace: '',
    tests: [T.publication], grep: "spec's body \\(none\\)|one release path" },
  { name: 'lists 44: My Articles pages kept in memory (a change made elsewhere not seen)', file: PL + 'lists.ts',
    find: 'export function myArticles(db: Db, scope: Scope, filter: MyArticlesQuery, page: Page): Promise<JsonPageRow[]> {',
    replace: 'export function myArticles(db: Db, scope: Scope, filter: MyArticlesQuery, page: Page): Promise<JsonPageRow[]> {\n  const key = JSON.stringify([scope, filter, page]);\n  if (!keptArticles.has(key)) keptArticles.set(key, readMyArticles(db, scope, filter, page));\n  return keptArticles.get(key)!;\n}\nconst keptArticles = new Map<string, Promise<JsonPageRow[]>>();\nfunction readMyArticles(db: Db, scope: Scope, filter: MyArticlesQuery, page: Page): Promise<JsonPageRow[]> {',
    tests: ['tests/api/projects.test.ts'], grep: 'read the database' },
  { name: 'lists 44: Admin Projects pages kept in memory (a change made elsewhere not seen)', file: PL + 'lists.ts',
    find: 'export function adminProjects(db: Db, filter: AdminProjectsQuery, page: Page): Promise<JsonPageRow[]> {',
    replace: 'export function adminProjects(db: Db, filter: AdminProjectsQuery, page: Page): Promise<JsonPageRow[]> {\n  const key = JSON.stringify([filter, page]);\n  if (!keptProjects.has(key)) keptProjects.set(key, readAdminProjects(db, filter, page));\n  return keptProjects.get(key)!;\n}\nconst keptProjects = new Map<string, Promise<JsonPageRow[]>>();\nfunction readAdminProjects(db: Db, filter: AdminProjectsQuery, page: Page): Promise<JsonPageRow[]> {',
    tests: ['tests/api/projects.test.ts'], grep: 'read the database' },
  { name: 'placements 44: a release leaves the placement in progress (its money released, its tab not moved)', file: PL + 'release.ts',
    find: "      .set({ state: 'published' })\n      .where(eq(placements.paymentId, released.id))", replace: "      .set({ state: 'in_progress' })\n      .where(eq(placements.paymentId, released.id))",
    tests: ['tests/api/placement-split.test.ts'], grep: 'release: paid' },
  { name: 'placements 44: a refund leaves the placement in progress', file: P + 'refunds.ts',
    find: ".set({ state: 'refunded' })", replace: ".set({ state: 'in_progress' })",
    tests: ['tests/api/placement-split.test.ts'], grep: 'refund of a held payment' },
  { name: "placements 44: migration 0023 gives a released payment's placement the state of a held one", file: 'drizzle/0023_placements.sql', migration: true,
    find: "CASE \"status\" WHEN 'released' THEN 'published'", replace: "CASE \"status\" WHEN 'released' THEN 'in_progress'",
    tests: ['tests/api/placement-split.test.ts'], grep: 'every payment gets its placement' },
  { name: 'lists 44: Admin Payments by status without its index (each page reads every newer payment)', file: 'drizzle/0024_payments_status_list_index.sql', migration: true,
    find: 'USING btree ("status","created_at","id");', replace: 'USING btree ("status");',
    tests: [T.admin], grep: 'pages through its index' },
  { name: "lists 44: My Articles lists every brand's placements (brandId filter dropped)", file: PL + 'lists.ts',
    find: "        sql`${placements.organisationId} = ${sql.placeholder('organisationId')}`,\n        o.tab ? ARTICLE_TAB_SQL[o.tab] : undefined,", replace: '        undefined,\n        o.tab ? ARTICLE_TAB_SQL[o.tab] : undefined,',
    tests: ['tests/api/projects.test.ts'], grep: 'read the database' },
  { name: 'lists 44: overdue judged against the moment the server started (the time taken in Node, not the database’s now())', file: PL + 'item.ts',
    find: '${draftDueAt} < now()), false)`', replace: '${draftDueAt} < ${new Date().toISOString()}::timestamptz), false)`',
    tests: ['tests/api/projects.test.ts'], grep: 'overdue follows the clock' },

  // ---- invoices (issue 21): numbers, privacy, the export --------------------------------------
  { name: 'invoices: a brand downloads another brand\'s invoice (owner filter dropped)', file: INV + 'service.ts',
    find: '.where(and(eq(payments.id, paymentId), opts.organisationId ? eq(payments.organisationId, opts.organisationId) : undefined))', replace: '.where(and(eq(payments.id, paymentId), undefined))',
    tests: [T.invoices], grep: 'keeps documents private' },
  { name: 'invoices: the receipt mail sent without its invoice (the attachment passed to the outbox skips the receipt)', file: INV + 'service.ts',
    find: 'if (!receipt || typeof data.invoiceNumber', replace: 'if (receipt || typeof data.invoiceNumber',
    tests: [T.invoices], grep: 'receipt mail' },
  { name: 'invoices: every invoice takes number 1 of its year (the counter not advanced)', file: INV + 'issue.ts',
    find: "set: { last: sql`${documentCounters.last} + 1` }", replace: "set: { last: sql`1` }",
    tests: [T.invoices], grep: 'gapless' },
  { name: 'invoices: the tax included in the price computed as tax on top', file: INV + 'issue.ts',
    find: 'const divisor = 10_000 + rateBp;', replace: 'const divisor = 10_000;',
    tests: [T.invoices], grep: 'configured tax inside the price' },
  { name: 'export: formula cells not escaped', file: INV + 'export.ts',
    find: 'yield csvRows(rows.map((r) => PAYMENTS_EXPORT_COLUMNS.map((c) => r[c])));',
    replace: "yield rows.map((r) => PAYMENTS_EXPORT_COLUMNS.map((c) => r[c] ?? '').join(',') + '\\r\\n').join('');", tests: [T.exportCsv], grep: 'escapes cells' },

  // ---- planner settings of every connection (decision 025) -------------------------------------------
  { name: 'planner: a pooled connection keeps Memoize on', file: 'src/server/db/client.ts',
    postgresOnly: 'the embedded database sets it in pglite.ts (the next mutant); this one is the pool of a PostgreSQL server',
    find: 'client.query(NO_MEMOIZE).then(', replace: "client.query('SELECT 1').then(",
    tests: ['tests/api/planner-settings.test.ts'] },
  { name: 'planner: the embedded database keeps Memoize on', file: 'src/server/db/pglite.ts',
    pgliteOnly: 'a PostgreSQL server is planned through the pool, which client.ts sets (the mutant before); this one is the embedded database',
    find: "  await pglite.exec('SET enable_memoize = off');", replace: '',
    tests: ['tests/api/planner-settings.test.ts'] },

  // ---- the catalogue (opportunities/): the shortlist in the search's statement, the browse list, edits ---
  { name: "shortlist: another brand's saves flag the page (the brand left out of the flag)", file: 'src/server/modules/opportunities/shortlist.ts',
    find: 'WHERE ${saved.organisationId} = ${organisationId} AND ${saved.opportunityId} = ${o.id}', replace: 'WHERE ${saved.opportunityId} = ${o.id}',
    tests: ['tests/api/catalogue-search-pages.test.ts'], grep: 'one save each' },
  { name: "shortlist: saved=true lists every brand's saves (the brand left out)", file: 'src/server/modules/opportunities/shortlist.ts',
    find: 'FROM ${saved} WHERE ${saved.organisationId} = ${organisationId})`', replace: 'FROM ${saved})`',
    tests: ['tests/api/catalogue-search.test.ts'], grep: 'shortlist search asked again' },
  { name: 'browse list: today worked out once (an expired opportunity listed after midnight)', file: 'src/server/modules/opportunities/claimable.ts',
    find: 'const since = startOfUtcDay(now).toISOString();',
    replace: 'const since = ((globalThis as { firstSince?: string }).firstSince ??= startOfUtcDay(now).toISOString());',
    tests: ['tests/api/browse-list.test.ts'], grep: 'deadline day is over' },
  { name: "search keys: an outlet's new on-time rate not copied to its opportunities (the on-time sort out of step)",
    file: 'drizzle/0043_search_keys.sql', migration: true,
    find: '  WHERE outlet_id = NEW.id AND outlet_on_time IS DISTINCT FROM coalesce(NEW.on_time_rate, -1);',
    replace: '  WHERE false AND outlet_on_time IS DISTINCT FROM coalesce(NEW.on_time_rate, -1);',
    tests: ['tests/api/search-keys.test.ts'] },
  { name: "search keys: a new opportunity without its outlet's on-time rate (sorted last until the outlet's rate moves)",
    file: 'drizzle/0043_search_keys.sql', migration: true,
    find: "  IF TG_OP = 'INSERT' OR NEW.outlet_id IS DISTINCT FROM OLD.outlet_id THEN",
    replace: "  IF TG_OP = 'UPDATE' AND NEW.outlet_id IS DISTINCT FROM OLD.outlet_id THEN",
    tests: ['tests/api/search-keys.test.ts'] },
  { name: 'browse list: LIST_MAX not applied (the whole claimable list in one answer)', file: 'src/server/modules/opportunities/routes.ts',
    find: 'await browseList(db, deps.config.LIST_MAX, after)', replace: 'await browseList(db, 1_000_000, after)',
    tests: ['tests/api/list-max.test.ts'], grep: 'plain browse list' },
  { name: 'browse list: the next page starts at the last item sent (one item twice)', file: 'src/server/modules/opportunities/claimable.ts',
    find: 'AND (${o.createdAt}, ${o.id}) < (${sql.placeholder(\'at\')}', replace: 'AND (${o.createdAt}, ${o.id}) <= (${sql.placeholder(\'at\')}',
    tests: ['tests/api/list-max.test.ts'], grep: 'plain browse list' },
  { name: 'shortlist: LIST_MAX not applied', file: 'src/server/modules/opportunities/routes.ts',
    find: 'await listSaved(db, orgOf(req), deps.config.LIST_MAX, after)', replace: 'await listSaved(db, orgOf(req), 1_000_000, after)',
    tests: ['tests/api/list-max.test.ts'], grep: 'shortlist' },
  { name: 'browse list: the ETag not of the list (a 304 for a list that changed)', file: 'src/server/modules/opportunities/routes.ts',
    find: "createHash('sha256').update(page.body)", replace: "createHash('sha256').update('')",
    tests: ['tests/api/browse-list.test.ts'], grep: 'revalidating' },
  { name: "opportunities: an edit moves the deadline to another past day (the stored day's exception for any day)", file: 'src/server/modules/opportunities/routes.ts',
    find: "      if (refusal) throw badRequest('deadline_refused', refusal, { deadlineDate: refusal });\n", replace: '',
    tests: ['tests/api/opportunities.test.ts'], grep: 'keeps the stored past deadline' },
  // ---- conversation and timeline pages, read from the database every time (decision 029) ------------
  { name: "conversation: a brand's page not limited to its own payment", file: 'src/server/modules/messages/conversation.ts',
    find: "${o.brand ? sql`AND ${paymentVisibleSql(true)}` : sql``}", replace: '',
    tests: ['tests/api/conversation-pages.test.ts'], grep: 'handed to another brand' },
  { name: 'conversation: an empty page answered without asking whether the payment may be seen', file: 'src/server/modules/messages/conversation.ts',
    find: "if (!rows.length && !(await paymentVisible(db, paymentId, caller.side === 'brand' ? caller.organisationId : undefined))) {",
    replace: 'if (!rows.length && false) {',
    tests: ['tests/api/conversation-pages.test.ts'], grep: '404 of a missing one' },
  { name: "timeline: a brand's page not limited to its own payment", file: 'src/server/modules/timeline/service.ts',
    find: "${o.brand ? sql`AND ${paymentVisibleSql(true)}` : sql``}", replace: '',
    tests: ['tests/api/conversation-pages.test.ts'], grep: 'timeline asked again' },
  { name: 'timeline: an empty page answered without asking whether the payment may be seen', file: 'src/server/modules/timeline/service.ts',
    find: 'if (!rows.length && !(await paymentVisible(db, paymentId, opts.organisationId)))', replace: 'if (!rows.length && false)',
    tests: ['tests/api/conversation-pages.test.ts'], grep: 'same 404' },
  { name: "timeline: the brand side's route asks for no brand (every placement's timeline)", file: 'src/server/modules/timeline/routes.ts',
    find: "{ prefix: '/api/brand', access: 'brand', orgOf },", replace: "{ prefix: '/api/brand', access: 'brand', orgOf: () => undefined },",
    tests: ['tests/api/timeline.test.ts'], grep: "is the brand's own" },
  // ---- PDFs rendered on worker threads (decision 030) ------------------------------------------------
  { name: 'PDFs: rendered on the main thread', file: 'src/server/modules/invoices/render-pool.ts',
    find: 'export async function renderOnPool(doc: StoredDocument, opts: RenderOptions = {}, timeoutMs = RENDER_TIMEOUT_MS): Promise<Buffer> {',
    replace: "export async function renderOnPool(doc: StoredDocument, opts: RenderOptions = {}, timeoutMs = RENDER_TIMEOUT_MS): Promise<Buffer> {\n  if (doc) return (await import('./pdf')).renderDocumentPdf(doc, opts);",
    tests: ['tests/unit/render-pool.test.ts'], grep: 'event loop stays free' },
  { name: 'PDFs: a document that failed to render answered as an empty file', file: 'src/server/modules/invoices/render-pool.ts',
    find: 'throw new Error(`the PDF could not be rendered: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);', replace: 'return Buffer.alloc(0);',
    tests: ['tests/unit/render-pool.test.ts'], grep: 'cannot be rendered' },
  { name: "PDFs: a render's own time limit ignored", file: 'src/server/modules/invoices/render-pool.ts',
    find: 'const signal = AbortSignal.timeout(timeoutMs);', replace: 'const signal = AbortSignal.timeout(RENDER_TIMEOUT_MS);',
    tests: ['tests/unit/render-pool.test.ts'], grep: 'takes longer than its time' },
  // ---- the checkout's lookup of a brand's open hold --------------------------------------------------
  { name: "checkout: the expiry sweep's index serves the hold lookup (status = 'open' only)", file: 'drizzle/0019_checkout_expiry_index_predicate.sql', migration: true,
    find: "WHERE status = 'open' AND test_provider_ref IS NULL;", replace: "WHERE status = 'open';",
    tests: ['tests/api/checkout-lookup-plan.test.ts'], why: 'every claim reads every open hold' },
  // ---- issue 43: the publication watch's times and outbound (H1) ------------------------------------
  { name: "publication watch: the guarantee's last instant not watched (<= becomes <)", file: PL + 'watch.ts',
    find: 'const watched = sql`(${at} <= guarantee_ends_at OR', replace: 'const watched = sql`(${at} < guarantee_ends_at OR',
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'last check, at the guarantee' },
  { name: 'publication watch: a failure being confirmed is not watched once the guarantee has ended', file: PL + 'watch.ts',
    find: " OR health = 'issue' OR failing_since IS NOT NULL)`;", replace: " OR health = 'issue')`;",
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'last check, at the guarantee|in the last hour' },
  { name: "publication watch: the confirming check capped at the guarantee's end (so never run)", file: PL + 'watch.ts',
    find: 'nextCheckAt: new Date(first.getTime() + CONFIRM_AFTER_MS) })', replace: 'nextCheckAt: watchUntil(new Date(first.getTime() + CONFIRM_AFTER_MS)) })',
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'last check, at the guarantee|in the last hour' },
  { name: 'publication watch: a case opens with its next check a full interval on, past the restore deadline', file: PL + 'watch.ts',
    find: 'nextCheckAt: next < restoreBy ? next : restoreBy', replace: 'nextCheckAt: next',
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'never after the restore deadline' },
  { name: 'publication watch: a check during an open case schedules the next one after the restore deadline', file: PL + 'watch.ts',
    find: 'nextCheckAt: next < open.restoreBy ? next : open.restoreBy', replace: 'nextCheckAt: next',
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'never after the restore deadline' },
  { name: 'publication watch: the refund a check interval after the restore deadline', file: PL + 'watch.ts',
    find: 'if (now >= open.restoreBy) {', replace: 'if (now.getTime() >= open.restoreBy.getTime() + terms.checkIntervalHours * HOUR) {',
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'never after the restore deadline|last check, at the guarantee' },
  { name: 'publication watch: Recheck now runs on a refunded placement (and records its check)', file: PL + 'watch.ts',
    find: "add its URL first');\n  if (pub.health === 'refunded') throw conflict('placement_refunded', 'This placement was refunded');\n", replace: "add its URL first');\n",
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'records nothing|never after the restore deadline' },
  { name: 'publication watch: a quiet passing check forgets the problem accepted at release (health ok)', file: PL + 'watch.ts',
    find: "    const warned = check.result !== 'pass' || pub.acceptedProblems.length > 0;\n    const next = watchUntil(", replace: "    const warned = check.result !== 'pass';\n    const next = watchUntil(",
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'keeps the health at warning' },
  { name: 'publication watch: a pass after a failure or closing a case forgets the problem accepted at release', file: PL + 'watch.ts',
    find: "      const warned = check.result !== 'pass' || pub.acceptedProblems.length > 0;\n      await tx", replace: "      const warned = check.result !== 'pass';\n      await tx",
    tests: ['tests/api/publication-watch-times.test.ts'], grep: 'keeps the health at warning' },
  { name: 'outbound: a 400 page read as the article (>= 400 becomes > 400)', file: O + 'fetch-page.ts',
    find: 'if (status >= 400) {', replace: 'if (status > 400) {', tests: ['tests/unit/outbound-fetch.test.ts'], grep: 'http_error with the status' },
  { name: 'outbound: a public address dialled on a non-standard port when another address of its name is allowed there', file: O + 'target.ts',
    find: '      if (!standardPort) wrongPort = true;', replace: '      if (!standardPort && !isPublicAddress(address)) wrongPort = true;',
    tests: ['tests/unit/outbound-fetch.test.ts'], grep: 'never reaches the public one' },
  { name: 'outbound: a LINK_CHECK_ALLOW entry without a port opens every port', file: O + 'address-policy.ts',
    find: 'return { place: entry, ports: WEB_PORTS, bracketed: false };', replace: 'return { place: entry, ports: [[1, 65535]], bracketed: false };',
    tests: ['tests/unit/outbound-fetch.test.ts', 'tests/api/publication-allow-ports.test.ts'], grep: 'bare' },
  { name: "outbound: a LINK_CHECK_ALLOW host name opens every port, not only its entry's", file: O + 'address-policy.ts',
    find: 'allow.hosts.some((entry) => entry.name === h && opens(entry.ports, port))', replace: 'allow.hosts.some((entry) => entry.name === h)',
    tests: ['tests/unit/outbound-fetch.test.ts'], grep: 'exactly that port|port no entry names' },
  { name: "outbound: a LINK_CHECK_ALLOW address opens every port, not only its entry's (also through redirects)", file: O + 'address-policy.ts',
    find: 'return rangesOf(allow, ip).some((r) => opens(r.ports, port));', replace: 'return namesAddress(allow, ip);',
    tests: ['tests/unit/outbound-fetch.test.ts', 'tests/api/publication-allow-ports.test.ts'], grep: 'exactly that port|port no entry names|another port of the same address' },
  { name: 'outbound: a LINK_CHECK_ALLOW port above 65535 accepted at start', file: O + 'address-policy.ts',
    find: 'from >= 1 && to <= 65535 && from <= to', replace: 'from >= 1 && from <= to',
    tests: ['tests/unit/config.test.ts'], grep: 'LINK_CHECK_ALLOW' },
  // ---- issue 57: the tests that were missing (teams, cart, fair terms, disputes, reports, the watch) ----
  { name: 'org 57: PATCH/DELETE a member found by id alone (another organisation’s member changed or removed)', file: ORG + 'service.ts',
    find: "    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId)))\n    .for('no key update');\n  if (!row) throw notFound('member_not_found', MEMBER_NOT_FOUND);",
    replace: "    .where(eq(users.id, userId))\n    .for('no key update');\n  if (!row) throw notFound('member_not_found', MEMBER_NOT_FOUND);",
    tests: [T.org], grep: 'naming another organisation' },
  { name: 'org 57: PUT …/limits on a member found by id alone (another organisation’s member)', file: ORG + 'budget.ts',
    find: '      .where(and(eq(users.id, userId), eq(users.organisationId, by.organisationId)))', replace: '      .where(eq(users.id, userId))',
    tests: [T.org], grep: 'naming another organisation' },
  { name: "org 57: the audit filter's `to` day exclusive (its own day left out)", file: ORG + 'service.ts',
    find: 'q.to ? lt(auditEntries.at, new Date(new Date(`${q.to}T00:00:00.000Z`).getTime() + 86_400_000)) : undefined',
    replace: 'q.to ? lt(auditEntries.at, new Date(`${q.to}T00:00:00.000Z`)) : undefined',
    tests: [T.org], grep: 'is inclusive like' },
  { name: "budget 57: a checkout pays another member's approved purchase request", file: ORG + 'budget.ts',
    find: ', eq(purchaseRequests.requestedBy, member.userId)));\n  if (!pr || pr.opportunityId', replace: '));\n  if (!pr || pr.opportunityId',
    tests: ['tests/api/budget.test.ts'], grep: 'only its requester pays' },
  { name: "budget 57: a cart checkout pays another member's approved cart request", file: ORG + 'budget.ts',
    find: ', eq(purchaseRequests.requestedBy, member.userId)));\n  if (!pr?.lines)', replace: '));\n  if (!pr?.lines)',
    tests: ['tests/api/budget.test.ts'], grep: 'only its requester pays' },
  { name: 'cart 57: a cart racing another checks out the lines it could hold (a partial order)', file: P + 'orders.ts',
    find: '      if (taken.length < ids.length) {\n',
    replace: '      if (taken.length < ids.length && taken.length > 0) lines.splice(0, lines.length, ...lines.filter((l) => taken.some((t) => t.id === l.opportunityId)));\n      if (taken.length === 0) {\n',
    tests: ['tests/api/cart.test.ts'], grep: 'sharing only one opportunity',
    postgresOnly: 'on PGlite the two checkouts run one after the other: the loser reads its cart once the winner holds the shared slot, and is refused before its transaction' },
  { name: 'swap 57: a swap chosen after swapBy, before the refund job ran, goes through', file: P + 'swap.ts',
    find: "  if (placement.swapBy && placement.swapBy <= now) throw conflict('swap_window_passed', 'The time to choose an alternative has passed: this placement is being refunded in full');\n", replace: '',
    tests: ['tests/api/bulk-and-swap.test.ts'], grep: 'after swapBy' },
  { name: 'disputes 57: an escalation after escalateBy, before the deadline job ran, goes through', file: D + 'service.ts',
    find: "      if (d.escalateBy && now > d.escalateBy) throw conflict('escalation_window_passed', 'The time to escalate this dispute has passed');\n", replace: '',
    tests: ['tests/api/disputes.test.ts'], grep: 'after escalateBy' },
  { name: 'ledger 58: a checkout\'s charge left off the ledger', file: P + 'fulfil.ts',
    find: '    await appendCharge(tx, payment.id, now, payment.brandId);\n', replace: '',
    tests: ['tests/api/money-ledger.test.ts'], grep: 'to the cent' },
  { name: 'ledger 58: a refund claimed without locking the payment first (two claims read the same total)', file: P + 'ledger.ts',
    find: '  await tx.execute(sql`SELECT id FROM payments WHERE id = ${paymentId} FOR NO KEY UPDATE`);\n', replace: '',
    tests: ['tests/api/money-ledger.test.ts'], grep: 'at once', postgresOnly: ONE_CONNECTION },
  { name: 'refunds 57: a part may take all that is left (< becomes <=): held with nothing left to refund', file: P + 'ledger.ts',
    find: 'AND pm.left_to_refund > ${amount}::numeric', replace: 'AND pm.left_to_refund >= ${amount}::numeric',
    tests: ['tests/api/fair-terms.test.ts'], grep: 'sum is the amount' },
  { name: 'disputes 57: a link dispute rejected on two passing checks however close together', file: D + 'service.ts',
    find: 'passes.length >= 2 && passes[passes.length - 1].checkedAt.getTime() - passes[0].checkedAt.getTime() >= 3_600_000',
    replace: 'passes.length >= 2',
    tests: ['tests/api/disputes.test.ts'], grep: 'only on two passing checks' },
  { name: 'disputes 57: two passing checks exactly an hour apart not enough (>= becomes >)', file: D + 'service.ts',
    find: 'passes[0].checkedAt.getTime() >= 3_600_000', replace: 'passes[0].checkedAt.getTime() > 3_600_000',
    tests: ['tests/api/disputes.test.ts'], grep: 'only on two passing checks' },
  { name: "disputes 57: a member limited to clients reaches another client's dispute (or one for no client)", file: D + 'service.ts',
    find: '  placement.organisationId === scope.organisationId &&\n  (scope.clientIds === null || (placement.clientId !== null && scope.clientIds.includes(placement.clientId)));',
    replace: '  placement.organisationId === scope.organisationId;',
    tests: ['tests/api/disputes.test.ts'], grep: 'limited to clients' },
  { name: "disputes 57: accepting an offer checks the organisation only (the clients forgotten)", file: D + 'service.ts',
    find: 'return resolve(tx, d, offered(d), actor, now);\n    },\n    { organisationId: member.organisationId, clientIds: member.clientIds },',
    replace: 'return resolve(tx, d, offered(d), actor, now);\n    },\n    { organisationId: member.organisationId, clientIds: null },',
    tests: ['tests/api/disputes.test.ts'], grep: 'limited to clients' },
  { name: 'revisions 57: edits requested past the included rounds (the rounds condition dropped from the move)', file: PL + 'review.ts',
    find: ', draftAttached, sql`${placements.revisionsUsed} < ${placements.revisionsIncluded}`)!,', replace: ', draftAttached)!,',
    tests: ['tests/api/fair-terms.test.ts'], grep: 'last included round' },
  { name: 'reports 57: a stored price column printed without show_prices', file: R + 'service.ts',
    find: "(report.columns as ReportColumn[]).filter((c) => c !== 'price' || (report.showPrices && reader.seesAmounts));", replace: "(report.columns as ReportColumn[]).filter((c) => c !== 'price' || reader.seesAmounts);",
    tests: ['tests/api/reports.test.ts'], grep: 'without showPrices' },
  { name: 'reports 57: ISO week with Sunday as day 0 (a Sunday counted in the next week)', file: R + 'service.ts',
    find: 'thursday.setUTCDate(thursday.getUTCDate() + 4 - (thursday.getUTCDay() || 7));', replace: 'thursday.setUTCDate(thursday.getUTCDate() + 4 - thursday.getUTCDay());',
    tests: ['tests/api/reports.test.ts'], grep: 'ISO weeks' },
  { name: 'publication watch 57: a second checker claims the refund again (firstClaim dropped)', file: PL + 'watch.ts',
    find: "claimPublishedRefund(tx, pub.placementId, now, 'not_restored', { firstClaim: true })", replace: "claimPublishedRefund(tx, pub.placementId, now, 'not_restored')",
    tests: [T.publication], grep: 'two checkers race' },
  // ---- issue 43: search paging, timeline, limits, invoices (H2) ---------------------------------------
  { name: 'search paging: the cursor ignored (every page the first one again)', file: 'src/server/modules/opportunities/search.ts',
    find: 'WHERE ${and(where, after, extra)}', replace: 'WHERE ${and(where, extra)}',
    tests: ['tests/api/catalogue-search-pages.test.ts', 'tests/api/catalogue-search.test.ts'], grep: 'four pages|concatenated' },
  { name: "search paging: the keyset compared with >= (each page repeats the last one's last item)", file: 'src/server/modules/opportunities/search.ts',
    find: "const cmp = sort.asc ? sql.raw('>') : sql.raw('<');", replace: "const cmp = sort.asc ? sql.raw('>=') : sql.raw('<=');",
    tests: ['tests/api/catalogue-search-pages.test.ts', 'tests/api/catalogue-search.test.ts'], grep: 'four pages|concatenated' },
  { name: 'search paging: the cursor compares the sort key alone (ties across a page boundary skipped)', file: 'src/server/modules/opportunities/search.ts',
    find: 'sql`(${sort.key}, ${o.id}) ${cmp} (${cursor.key}::${sql.raw(CAST[sort.cast])}, ${cursor.id}::uuid)`', replace: 'sql`${sort.key} ${cmp} ${cursor.key}::${sql.raw(CAST[sort.cast])}`',
    tests: ['tests/api/catalogue-search-pages.test.ts', 'tests/api/catalogue-search.test.ts'], grep: 'four pages|concatenated' },
  { name: 'search paging: a Link to an empty page after an exactly full last one', file: 'src/server/modules/opportunities/search.ts',
    find: 'rows.length > limit ? encodeSearchCursor', replace: 'rows.length >= limit && last ? encodeSearchCursor',
    tests: ['tests/api/catalogue-search-pages.test.ts'], grep: 'exactly full' },
  { name: 'search deadline: deadlineAfter lists the day itself (> becomes >=)', file: 'src/server/modules/opportunities/search.ts',
    find: "q.deadlineAfter ? sql`${deadlineKey} > ${", replace: "q.deadlineAfter ? sql`${deadlineKey} >= ${",
    tests: ['tests/api/catalogue-search-pages.test.ts'], grep: 'deadlines strictly after' },
  { name: "search deadline: today worked out once (the deadline compared with the first search's day)", file: 'src/server/modules/opportunities/search.ts',
    find: '  const since = startOfUtcDay(now).toISOString();',
    replace: '  const since = ((globalThis as { firstSince?: string }).firstSince ??= startOfUtcDay(now).toISOString());',
    tests: ['tests/api/catalogue-search-pages.test.ts'], grep: 'midnight' },
  { name: 'search count: the cap read as the count (1,001 matches answered "1000", not "1000+")', file: 'src/server/modules/opportunities/search.ts',
    find: 'WHERE ${where} LIMIT ${SEARCH_COUNT_CAP + 1}),', replace: 'WHERE ${where} LIMIT ${SEARCH_COUNT_CAP}),',
    tests: ['tests/api/catalogue-search-pages.test.ts'], grep: 'X-Total-Count' },
  { name: 'search count: exactly the cap answered "1000+" (> becomes >=)', file: 'src/server/modules/opportunities/search.ts',
    find: 'atLeast: total > SEARCH_COUNT_CAP', replace: 'atLeast: total >= SEARCH_COUNT_CAP',
    tests: ['tests/api/catalogue-search-pages.test.ts'], grep: 'X-Total-Count' },
  { name: 'search count: next pages counted again (every page pays the count the client never reads)', file: 'src/server/modules/opportunities/search.ts',
    find: '  const counted = cursor\n', replace: '  const counted = false\n',
    tests: ['tests/api/catalogue-search-pages.test.ts', 'tests/api/catalogue-search.test.ts'], grep: 'X-Total-Count|four pages|concatenated' },
  { name: 'timeline paging: a Link to an empty page after an exactly full one', file: 'src/server/modules/timeline/service.ts',
    find: 'more: rows.length > opts.limit }', replace: 'more: rows.length >= opts.limit }',
    tests: ['tests/api/timeline.test.ts'], grep: 'exactly full' },
  { name: 'limits prune: counted events deleted after an hour, whatever the windows (a daily limit resets)', file: 'src/server/jobs/boss.ts',
    find: 'await pruneRateLimitHits(handle.db, new Date(), opts.rateLimitKeepMs);', replace: 'await pruneRateLimitHits(handle.db, new Date(), 3_600_000);',
    tests: ['tests/api/limits-prune.test.ts'] },
  { name: 'limits prune: the recent events deleted and the old ones kept (lt becomes gt)', file: 'src/server/lib/rate-limit.ts',
    find: 'await db.delete(rateLimitHits).where(lt(rateLimitHits.at, new Date(now.getTime() - keepMs)));', replace: 'await db.delete(rateLimitHits).where(gt(rateLimitHits.at, new Date(now.getTime() - keepMs)));',
    tests: ['tests/api/limits-prune.test.ts'] },
  { name: 'limits prune: events kept for the shortest window instead of the longest', file: 'src/server/limits.ts',
    find: 'export const longestWindowMs = (limits: Limits) => Math.max(', replace: 'export const longestWindowMs = (limits: Limits) => Math.min(',
    tests: ['tests/api/limits-prune.test.ts'] },
  { name: 'invoices tax: the included tax truncated instead of rounded half up', file: INV + 'issue.ts',
    find: 'return Math.floor((2 * totalCents * rateBp + divisor) / (2 * divisor));', replace: 'return Math.floor((totalCents * rateBp) / divisor);',
    tests: [T.invoices], grep: 'half up' },
  { name: "invoices tax: the credit note works its tax out again, truncated", file: INV + 'issue.ts',
    find: "  const content: TaxDocumentContent = {\n    ...(p && toCents(p.refunded) > 0 ? withTotal(part, part.totalCents - toCents(p.refunded)) : part),\n    invoiceNumber: invoice.number,\n    refundReason: refundReason ?? 'admin',",
    replace: "  const base = p && toCents(p.refunded) > 0 ? withTotal(part, part.totalCents - toCents(p.refunded)) : part;\n  const tax = Math.floor((base.totalCents * base.taxRateBp) / (10_000 + base.taxRateBp));\n  const content: TaxDocumentContent = {\n    ...base,\n    taxCents: tax,\n    netCents: base.totalCents - tax,\n    invoiceNumber: invoice.number,\n    refundReason: refundReason ?? 'admin',",
    tests: [T.invoices], grep: 'half up' },
  { name: "invoices reverse charge: applied to a buyer with a VAT number of the seller's own country", file: INV + 'issue.ts',
    find: 'const reverseCharge = buyerVat !== null && buyerVat !== sellerVat;', replace: 'const reverseCharge = buyerVat !== null;',
    tests: [T.invoices], grep: "seller's own country" },
  // ---- issue 43: security (H3) -------------------------------------------------------------------------
  { name: 'security 43: the forgot-password link made before the answer (its time tells a known e-mail)', file: A + 'routes.ts',
    find: "afterAnswer(reply, mailing, () => mailResetLink(db, normalised, now), 'password reset link not queued');", replace: 'await mailResetLink(db, normalised, now);',
    tests: ['tests/api/password-reset.test.ts'], grep: 'answers before the link is made' },
  { name: "security 43: strangers' reset requests count against the owner's signed-in address too", file: A + 'password-reset.ts',
    find: 'subject: owners ? `${email} ${ctx.client}` : email', replace: 'subject: email',
    tests: ['tests/api/password-reset-limits.test.ts'] },
  { name: 'security 43: an address that signed in to any account is let through for every e-mail', file: A + 'signin-addresses.ts',
    find: 'return rows.some((r) => r.email === email);', replace: 'return rows.length > 0;',
    tests: ['tests/api/password-reset-limits.test.ts'], grep: 'only for the accounts signed in from it' },
  { name: 'security 43: a Stripe-Signature header with two t= checked by its first', file: 'src/server/providers/stripe.ts',
    find: "if (stamps.length > 1) throw new WebhookSignatureError('Stripe-Signature header has more than one timestamp');", replace: '',
    tests: ['tests/api/webhook-safety.test.ts'], grep: 'more than one timestamp' },
  { name: 'security 43: the session cookie Secure only over https, in production too', file: A + 'session.ts',
    find: "secure: production || req.protocol === 'https'", replace: "secure: req.protocol === 'https'",
    tests: ['tests/api/sessions-csrf.test.ts'], grep: 'always Secure in production' },
  { name: 'security 43: ADMIN_EMAIL naming the demo admin not refused', file: 'src/server/setup/demo.ts',
    find: "if (config.NODE_ENV !== 'production' || !DEMO_ACCOUNTS.some((a) => a.email === email)) return null;", replace: 'return null;',
    tests: ['tests/api/production-start.test.ts'], grep: 'ADMIN_EMAIL',
    pgliteOnly: 'the production start test runs the built server on its embedded database only' },
  { name: "security 43: ADMIN_EMAIL's admin made before the production refusal", file: 'src/server/main.ts',
    find: '  // demo content only ever goes into a fresh embedded database',
    replace: '  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) await upsertAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);\n  // demo content only ever goes into a fresh embedded database',
    tests: ['tests/api/production-start.test.ts'], grep: 'ADMIN_EMAIL',
    pgliteOnly: 'the production start test runs the built server on its embedded database only' },
  // ---- issue 43: tabs, My Articles, the brief once approved (H4) ---------------------------------------
  { name: 'tabs 43: approved drafts back under the brand\'s Needs Review', file: PL + 'tabs.ts',
    find: "  'needs-review': underReview,", replace: "  'needs-review': sql.raw(`(placements.state = 'in_progress' AND placements.draft_review_status <> 'awaiting_brand_brief')`),",
    tests: ['tests/api/tab-placement.test.ts'], grep: 'My Articles' },
  { name: 'tabs 43: a published project counted under Approved as well as Published', file: PL + 'tabs.ts',
    find: '  approved: approvedHeld,\n  published:', replace: "  approved: sql.raw(`(placements.draft_review_status = 'approved' AND placements.state <> 'refunded')`),\n  published:",
    tests: ['tests/api/tab-placement.test.ts'], grep: 'Projects' },
  { name: "tabs 43: the Approved tab's index kept in its old order (unpublished first)", file: 'drizzle/0023_placements.sql', migration: true,
    find: `USING btree ("created_at","id") WHERE state = 'in_progress' AND draft_review_status = 'approved';`,
    replace: `USING btree (((state = 'in_progress')::int),"created_at","id") WHERE draft_review_status = 'approved' AND state <> 'refunded';`,
    tests: ['tests/api/tab-placement.test.ts'], grep: 'partial index', why: 'each Approved page sorts every approved draft, published ones too' },
  { name: 'tabs 43: My Articles does not count its Approved tab', file: PL + 'lists.ts',
    find: "      approved: count('approved'),", replace: '      approved: sql<number>`0`,',
    tests: ['tests/api/tab-placement.test.ts'], grep: 'counts what each tab lists' },
  { name: 'brief 43: a brief saved after its draft was approved', file: PL + 'brief.ts',
    find: "  if (p.draftReviewStatus === 'approved') throw conflict('brief_locked_approved', 'This draft has been approved; its brief can no longer change');", replace: '',
    tests: ['tests/api/tab-placement.test.ts'], grep: 'after the approval' },
  { name: 'brief 43: the earlier flow sends its brief to a payment whose draft is approved', file: PL + 'brief.ts',
    find: "const open = held.filter((p) => p.draftReviewStatus !== 'approved');", replace: 'const open = held;',
    tests: ['tests/api/tab-placement.test.ts'], grep: 'earlier flow' },

  // ---- clients kept apart (issue 57): briefs and templates per client, the client's websites ----
  { name: 'clients 57: a client\'s new brief pre-filled from another client\'s brief', file: PL + 'brief.ts',
    find: '        placement.clientId === null ? isNull(placements.clientId) : eq(placements.clientId, placement.clientId),\n', replace: '',
    tests: ['tests/api/client-briefs.test.ts'], grep: 'never another client' },
  { name: 'clients 57: a placement bought for no client pre-filled from a client\'s brief', file: PL + 'brief.ts',
    find: 'placement.clientId === null ? isNull(placements.clientId) :', replace: 'placement.clientId === null ? undefined :',
    tests: ['tests/api/client-briefs.test.ts'], grep: 'bought for no client starts' },
  { name: 'clients 57: a member limited to clients sees every template of the organisation', file: PL + 'templates.ts',
    find: '    member.clientIds === null ? undefined : member.clientIds.length ? inArray(briefTemplates.clientId, member.clientIds) : sql`false`,',
    replace: '    undefined,',
    tests: ['tests/api/client-briefs.test.ts'], grep: 'never sees' },
  { name: 'clients 57: a placement lists every template, not its client\'s', file: PL + 'templates.ts',
    find: '.where(and(visible(member), owner))', replace: '.where(and(visible(member), owner && undefined))',
    tests: ['tests/api/client-briefs.test.ts'], grep: 'lists its client' },
  { name: 'clients 57: a template saved from a client\'s placement kept as the organisation\'s', file: PL + 'templates.ts',
    find: 'const clientId = input.paymentId === undefined ? null : await clientOfPlacement(db, member, input.paymentId);',
    replace: 'const clientId: string | null = null; if (input.paymentId !== undefined) await clientOfPlacement(db, member, input.paymentId);',
    tests: ['tests/api/client-briefs.test.ts'], grep: 'belongs to the client' },
  { name: 'clients 57: another client\'s template opened by id by a member limited to clients', file: PL + 'templates.ts',
    find: '    .from(briefTemplates)\n    .where(and(eq(briefTemplates.id, id), visible(member)));',
    replace: '    .from(briefTemplates)\n    .where(and(eq(briefTemplates.id, id), eq(briefTemplates.organisationId, member.organisationId)));',
    tests: ['tests/api/client-briefs.test.ts'], grep: 'never sees' },
  { name: 'clients 57: a member limited to clients reaches a placement bought for no client (its templates)', file: 'src/server/db/payment-access.ts',
    find: '(row.clientId === null || !member.clientIds.includes(row.clientId))', replace: '(row.clientId !== null && !member.clientIds.includes(row.clientId))',
    tests: ['tests/api/client-briefs.test.ts'], grep: 'never sees' },
  { name: 'clients 57: the client\'s websites validated as any text', file: 'src/shared/schemas/org.ts',
    find: ".array(websiteSchema, { error: 'List the websites, one per entry' })", replace: ".array(z.string(), { error: 'List the websites, one per entry' })",
    tests: ['tests/api/client-website.test.ts'], grep: 'validated like' },
  { name: 'clients 57: a client\'s placement checked for a link to the buyer\'s site, not the client\'s', file: PL + 'live-check.ts',
    find: '  clientWebsites?.length ? [...clientWebsites] : buyerWebsite ? [buyerWebsite] : [];', replace: '  buyerWebsite ? [buyerWebsite] : [];',
    tests: ['tests/api/client-website.test.ts'], grep: 'client’s domains' },
  { name: 'clients 57: the release and the check on demand look for the buyer\'s site (placementOf)', file: PL + 'live-check.ts',
    find: 'return { ...rest, websites: linkTargets(clientWebsites, buyerWebsite) };', replace: 'return { ...rest, websites: linkTargets(null, buyerWebsite) };',
    tests: ['tests/api/client-website.test.ts'], grep: 'client’s domains' },
  { name: 'clients 57: the watch (and so link disputes) looks for the buyer\'s site', file: PL + 'watch.ts',
    find: '{ websites: linkTargets(clientWebsites, buyerWebsite), linkType }', replace: '{ websites: linkTargets(null, buyerWebsite), linkType }',
    tests: ['tests/api/client-website.test.ts'], grep: 'client’s domains' },
  { name: 'clients 57: a client without a website checked for no link at all', file: PL + 'live-check.ts',
    find: ': buyerWebsite ? [buyerWebsite] : [];', replace: ': [];',
    tests: ['tests/api/client-website.test.ts'], grep: 'falls back' },
  { name: 'clients 57: of a client\'s several websites only the first looked for', file: O + 'page-check.ts',
    find: 'const sites = brandSites(opts.brandWebsites);', replace: 'const sites = brandSites(opts.brandWebsites).slice(0, 1);',
    tests: ['tests/unit/page-check.test.ts'], grep: 'several websites' },
  // ---- issue 57, security (medium and low) and the API's departures from the issue texts ----
  { name: 'security 57: a member changes their own limits (an admin clears its own cap)', file: 'src/shared/org.ts',
    find: "  if (by.self) return 'You cannot change your own limits';\n", replace: '',
    tests: [T.security57], grep: 'above the member' },
  { name: "security 57: an admin sets limits on the owner", file: 'src/shared/org.ts',
    find: "  if (targetRole === 'owner') return", replace: "  if (targetRole === 'owner' && by.role !== 'admin') return",
    tests: [T.security57], grep: 'above the member' },
  { name: "security 57: an admin changes another admin's limits", file: 'src/shared/org.ts',
    find: "targetRole === 'admin' && by.role !== 'owner'", replace: "targetRole === 'admin' && by.role === 'buyer'",
    tests: [T.security57], grep: 'above the member' },
  { name: 'security 57: the limits refusal worked out but not enforced by the server', file: ORG + 'budget.ts',
    find: "    if (refused) throw forbidden('limits_not_yours_to_set', refused);\n", replace: '',
    tests: [T.security57], grep: 'above the member' },
  { name: 'security 57: invitations mailed without the organisation\'s hourly limit', file: ORG + 'service.ts',
    find: "(issue 57)\n  return withClaims(db, [{ limit: limits.invitationMails, subject: by.organisationId }]", replace: "(issue 57)\n  return withClaims(db, []",
    tests: [T.security57], grep: 'invitation mails an hour' },
  { name: 'security 57: invitation resends mailed without the limit', file: ORG + 'service.ts',
    find: "id: string, now = new Date()): Promise<OrgInvitation> {\n  return withClaims(db, [{ limit: limits.invitationMails, subject: by.organisationId }]", replace: "id: string, now = new Date()): Promise<OrgInvitation> {\n  return withClaims(db, []",
    tests: [T.security57], grep: 'invitation mails an hour' },
  { name: 'security 57: invitation mails counted per member, not per organisation', file: ORG + 'service.ts',
    find: "(issue 57)\n  return withClaims(db, [{ limit: limits.invitationMails, subject: by.organisationId }]", replace: "(issue 57)\n  return withClaims(db, [{ limit: limits.invitationMails, subject: by.userId }]",
    tests: [T.security57], grep: 'invitation mails an hour' },
  { name: 'security 57: a refused request keeps its claim (a 409 invitation counts as a mail)', file: 'src/server/lib/rate-limit.ts',
    find: '    await releaseClaims(db, claimed);\n    throw err;', replace: '    throw err;',
    tests: [T.security57], grep: 'invitation mails an hour' },
  { name: 'security 57: a changed cadence (every recipient mailed at the next run) counts only added addresses', file: R + 'service.ts',
    find: '  if (cadence !== before.cadence) return recipients.length;\n', replace: '',
    tests: [T.security57], grep: 'report recipients an hour' },
  { name: 'security 57: addresses added to a running schedule not counted', file: R + 'service.ts',
    find: '  return recipients.filter((r) => !before.recipients.includes(r)).length;', replace: '  return 0;',
    tests: [T.security57], grep: 'report recipients an hour' },
  { name: 'security 57: names keep their line breaks (a header or CSV line of their own)', file: 'src/shared/schemas/one-line.ts',
    find: "value.replace(BREAKS, ' ').replace(INVISIBLE, '')", replace: "value.replace(INVISIBLE, '')",
    tests: [T.security57], grep: 'one line' },
  { name: 'security 57: names keep their other control characters and bidirectional overrides', file: 'src/shared/schemas/one-line.ts',
    find: "value.replace(BREAKS, ' ').replace(INVISIBLE, '')", replace: "value.replace(BREAKS, ' ')",
    tests: [T.security57], grep: 'one line' },
  { name: 'security 57: a report’s name taken as typed (breaks and all)', file: 'src/shared/schemas/reports.ts',
    find: "    name: nameSchema('Give the report a name', 120, 'At most 120 characters'),", replace: "    name: z.string().trim().min(1, 'Give the report a name').max(120, 'At most 120 characters'),",
    tests: [T.security57], grep: 'one line' },
  { name: 'security 57: a brief template’s name taken as typed', file: 'src/shared/schemas/brief.ts',
    find: "  name: nameSchema('Name the template', 100, 'At most 100 characters'),", replace: "  name: z.string().trim().min(1, 'Name the template').max(100, 'At most 100 characters'),",
    tests: [T.security57], grep: 'one line' },
  { name: 'security 57: the name given at an invitation’s accept taken as typed', file: 'src/shared/schemas/org.ts',
    find: "  name: nameSchema('Name is required', 120, 'Name must be at most 120 characters').optional(),", replace: "  name: z.string().trim().min(1).max(120).optional(),",
    tests: [T.security57], grep: 'one line' },
  { name: 'security 57: the CSV formula guard forgets = + - @ (a report cell runs as a formula)', file: 'src/shared/csv.ts',
    find: 'const FORMULA_START = /^[=+\\-@\\t\\r\\uff1d\\uff0b\\uff0d\\uff20]/;', replace: 'const FORMULA_START = /^[\\t\\r]/;',
    tests: [T.security57, T.exportCsv], grep: 'formula' },
  { name: 'security 57: a report names any stored file as its logo (the check at its making dropped)', file: R + 'service.ts',
    find: "  if (wl?.logoFile && !(await reportLogoOf(db, member.organisationId, wl.logoFile))) throw notFound('logo_not_found', LOGO_NOT_FOUND);\n", replace: '',
    tests: [T.security57], grep: 'logo' },
  { name: 'security 57: another organisation’s report logo accepted', file: R + 'service.ts',
    find: "eq(uploads.kind, 'report_logo'), eq(uploads.organisationId, organisationId)", replace: "eq(uploads.kind, 'report_logo')",
    tests: [T.security57], grep: 'logo' },
  { name: 'security 57: any upload of the organisation accepted as a report logo (an avatar, an attachment)', file: R + 'service.ts',
    find: "eq(uploads.kind, 'report_logo'), eq(uploads.organisationId, organisationId)", replace: 'eq(uploads.name, name)',
    tests: [T.security57], grep: 'logo' },
  { name: 'security 57: the share page and the PDF inline whatever file a stored report names', file: R + 'documents.ts',
    find: '  const name = await reportLogoOf(db, report.organisationId, report.whiteLabel?.logoFile);', replace: "  const name = report.whiteLabel?.logoFile?.replace(/^\\/uploads\\//, '');",
    tests: [T.security57], grep: 'logo' },
  { name: 'security 57: the migration makes any logo a report named its report logo', file: 'drizzle/0038_report_logos.sql', migration: true,
    find: ' AND w."organisation_id" = r."organisation_id"', replace: '',
    tests: [T.security57], grep: 'the migration keeps the logos' },
  { name: 'security 57: the metrics import reads a file of any number of rows (the cap off by one: 50,001 read)', file: 'src/server/modules/outlets/metrics-import.ts',
    find: '  if (records.length - 1 > IMPORT_MAX_ROWS)', replace: '  if (records.length - 1 > IMPORT_MAX_ROWS + 1)',
    tests: [T.security57], grep: '50,000 rows' },
  { name: 'security 57: the metrics import refuses exactly 50,000 rows (> becomes >=)', file: 'src/server/modules/outlets/metrics-import.ts',
    find: '  if (records.length - 1 > IMPORT_MAX_ROWS)', replace: '  if (records.length - 1 >= IMPORT_MAX_ROWS)',
    tests: [T.security57], grep: '50,000 rows' },
  { name: "security 57: the metrics import's 400 keyed by \"line N\" again, not the dry run's list", file: 'src/server/modules/outlets/routes.ts',
    find: '              errors: result.errors,', replace: '              errors: Object.fromEntries(result.errors.map((e) => [`line ${e.line}`, e.message])),',
    tests: ['tests/api/outlets.test.ts'], grep: 'refused whole' },
  // ---- issue 57: what a new agency team met (invitation sign-up, bulk approval, the audit log) ----
  { name: 'team 57: profile completion ignores an open invitation (a second organisation, the invitation never accepted)', file: 'src/server/modules/profile/service.ts',
    find: "  if (invitation) throw conflict('invited_to_organisation', invitedRefusal(invitation));\n", replace: '',
    tests: [T.org], grep: 'issue 57' },
  { name: 'team 57: a revoked invitation still holds the address (its company form refused)', file: 'src/server/modules/profile/service.ts',
    find: 'isNull(orgInvitations.acceptedAt), isNull(orgInvitations.revokedAt), gt(', replace: 'isNull(orgInvitations.acceptedAt), gt(',
    tests: [T.org], grep: 'issue 57' },
  { name: 'team 57: a removal not recorded (the removed member signs in to the company form, untold)', file: ORG + 'service.ts',
    find: '{ removedFrom: by.organisationId, removedAt: new Date() }', replace: '{ removedFrom: null, removedAt: null }',
    tests: [T.org], grep: 'issue 57' },
  { name: 'team 57: joining again leaves the old removal on record', file: ORG + 'service.ts',
    find: '        approved: user.approved || organisationApproved,\n        removedFrom: null,\n        removedAt: null,\n',
    replace: '        approved: user.approved || organisationApproved,\n',
    tests: [T.org], grep: 'issue 57' },
  { name: "team 57: the approval queue's same-domain warning names the brand's own organisation", file: 'src/server/modules/approvals/service.ts',
    find: '      AND m.organisation_id IS DISTINCT FROM "users".organisation_id\n', replace: '',
    tests: [T.org], grep: 'issue 57' },
  { name: "team 57: the approval queue warns of every gmail.com organisation", file: 'src/server/modules/approvals/service.ts',
    find: "  'gmail.com', 'googlemail.com',", replace: "  'googlemail.com',",
    tests: [T.org], grep: 'issue 57' },
  { name: "audit 57: a role change reads the old role as the new (\"Changed Vic's role to Viewer\")", file: ORG + 'audit-words.ts',
    find: '      const to = role(d.to);\n', replace: '      const to = role(d.from);\n',
    tests: ['tests/api/audit-words.test.ts'], grep: 'in words' },
  { name: "audit 57: the CSV's Action column writes the code again (role_changed)", file: ORG + 'service.ts',
    find: 'r.actorEmail, words[i].actionText, words[i].title,', replace: 'r.actorEmail, r.action, words[i].title,',
    tests: ['tests/api/audit-words.test.ts'], grep: 'in words' },
  { name: 'audit 57: a placement titled by its outlet alone (no article, no client)', file: ORG + 'audit-words.ts',
    find: "out.placements.set(p.id, [p.outlet, p.title, p.client].filter(Boolean).join(' · '))", replace: 'out.placements.set(p.id, p.outlet)',
    tests: ['tests/api/audit-words.test.ts'], grep: 'in words' },
  { name: "audit 57: another organisation's placement titled (its outlet and article shown)", file: ORG + 'audit-words.ts',
    find: '.where(and(eq(placements.organisationId, organisationId), inArray(placements.id, [...placementIds])));',
    replace: '.where(inArray(placements.id, [...placementIds]));',
    tests: ['tests/api/audit-words.test.ts'], grep: 'another organisation' },
  { name: 'audit 57: the Member filter lists current members only (a removed member cannot be chosen)', file: ORG + 'audit-words.ts',
    find: '.where(and(eq(auditEntries.organisationId, organisationId), isNotNull(auditEntries.actorId)))\n    .orderBy(auditEntries.actorId',
    replace: '.where(and(eq(auditEntries.organisationId, organisationId), eq(users.organisationId, organisationId)))\n    .orderBy(auditEntries.actorId',
    tests: ['tests/api/audit-words.test.ts'], grep: 'in words' },
  { name: "audit 57: a removed member named by the account (no name left) rather than the entries' copy", file: ORG + 'audit-words.ts',
    find: "        : { id: r.id!, name: r.copiedName, email: r.copiedEmail, kind };", replace: "        : { id: r.id!, name: r.name, email: r.copiedEmail, kind };",
    tests: ['tests/api/audit-words.test.ts'], grep: 'in words' },
  { name: "timeline 57: a member's entries named by the organisation's brand name again", file: 'src/server/modules/timeline/service.ts',
    find: 'SELECT coalesce(nullif(${users.name}, \'\'), ${users.email})', replace: 'SELECT coalesce(nullif(${users.brandName}, \'\'), nullif(${users.name}, \'\'), ${users.email})',
    tests: ['tests/api/audit-words.test.ts'], grep: 'names the member' },
  { name: 'security 57: a release without a live URL recorded as any other (nothing said it went without)', file: PL + 'release.ts',
    find: "request.liveUrl === undefined ? ['live_url', ", replace: "false ? ['live_url', ",
    tests: [T.security57], grep: 'spec’s call' },
  { name: "security 57: a release without a live URL says nothing of the brand's approval it went without", file: PL + 'release.ts',
    find: "...(work.draftReviewStatus !== 'approved' ? (['approval'] as const) : [])", replace: '',
    tests: [T.security57], grep: 'spec’s call' },
  { name: 'security 57: a release without a live URL left out of the audit log', file: PL + 'release.ts',
    find: '    if (without.length && actor.type === \'admin\') {', replace: '    if (without.length && actor.type === \'system\') {',
    tests: [T.security57], grep: 'spec’s call' },
  { name: 'security 57: Admin Payments does not say what a release went without', file: P + 'service.ts',
    find: '  sql: sql`coalesce(${publications.releasedWithout}, \'{}\'::text[])`,', replace: '  sql: sql`\'{}\'::text[]`,',
    tests: [T.security57], grep: 'spec’s call' },
  { name: 'security 57: GET /api/org refuses the owner of an organisation not approved yet (403 "awaiting approval")', file: ORG + 'routes.ts',
    find: "      access: 'any-brand',\n      tags: ['Organisation'],\n      summary: 'The signed-in member’s organisation and role, approved or not',",
    replace: "      access: 'brand',\n      tags: ['Organisation'],\n      summary: 'The signed-in member’s organisation and role, approved or not',",
    tests: [T.security57], grep: 'before the organisation is approved' },

  // ---- no amount for a client reviewer (issue 57): decided when read or sent, by who reads ----
  { name: 'amounts 57: refundedAmount left in a client reviewer\'s answers (My Articles, its page)', file: 'src/server/lib/amounts.ts',
    find: "  'refundedAmount',\n", replace: '',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'amounts 57: a cancellation\'s amountUsd left in a client reviewer\'s answers', file: 'src/server/lib/amounts.ts',
    find: "  'amountUsd',\n", replace: '',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'amounts 57: the hook drops nothing (each route to redact its own answers, as before)', file: 'src/server/lib/amounts.ts',
    find: "if (!readerHidesAmounts(req.user) || typeof payload !== 'string') return done(null, payload);", replace: 'return done(null, payload);',
    tests: [CA, 'tests/api/clients.test.ts'], grep: 'whoever made it, and only|no answer it gets carries' },
  { name: 'reports 57: a report another member made with prices read with them by a client reviewer', file: R + 'service.ts',
    find: "(report.columns as ReportColumn[]).filter((c) => c !== 'price' || (report.showPrices && reader.seesAmounts));", replace: "(report.columns as ReportColumn[]).filter((c) => c !== 'price' || report.showPrices);",
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'reports 57: the files of a report asked for by a client reviewer made for anyone (reports ignore the viewer)', file: R + 'routes.ts',
    find: '        const reader = readerOf(member);', replace: '        const reader = { seesAmounts: true };',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'reports 57: a link a client reviewer made shows prices once it is promoted (the flag not kept)', file: R + 'service.ts',
    find: '      withoutPrices: !readerOf(member).seesAmounts,', replace: '      withoutPrices: false,',
    tests: [CA], grep: 'even once it is promoted' },
  { name: 'reports 57: a link read as its maker was when it was made (a buyer turned client reviewer still reads prices)', file: R + 'service.ts',
    find: '  if (!share.createdBy) return OUTSIDE_READER;', replace: '  if (share) return OUTSIDE_READER;',
    tests: [CA], grep: 'whoever made it, and only|even once it is promoted' },
  { name: 'reports 57: a client reviewer schedules a report to outside addresses', file: R + 'service.ts',
    find: '  if (readerOf(member).seesAmounts) return;', replace: '  return;',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'reports 57: a member limited to other clients named as a recipient', file: R + 'service.ts',
    find: '  const blind = members.filter((m) => !seesReport(report, m.clientIds));', replace: '  const blind: typeof members = [];',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'reports 57: the job mails a member limited to other clients since it was scheduled', file: R + 'service.ts',
    find: '        if (blind.has(email)) continue;\n', replace: '',
    tests: [CA], grep: 'since it was scheduled' },
  { name: 'reports 57: a scheduled report\'s files made for anyone, not their recipient', file: R + 'documents.ts',
    find: '    const docs = await reportDocuments(db, files, report, reader);', replace: '    const docs = await reportDocuments(db, files, report, { seesAmounts: true });',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'mail 57: a mail rendered as it was queued, not for who receives it now (a buyer turned client reviewer)', file: 'src/server/mail/outbox.ts',
    find: '  const reader = await mailReaderOf(db, row.toAddress);', replace: '  const reader = { seesAmounts: true };',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'mail 57: a receipt\'s invoice attached for a member who may not see amounts', file: INV + 'service.ts',
    find: '    if (!reader.seesAmounts) return [];\n', replace: '',
    tests: [CA], grep: 'whoever made it, and only' },
  { name: 'mail 57: the publication mail says the amount released to a client reviewer', file: 'src/server/mail/templates.ts',
    find: '          ...(amounts ? [`The payment of ${formatUsd(d.amount)} held in escrow has been released.`] : []),', replace: '          `The payment of ${formatUsd(d.amount)} held in escrow has been released.`,',
    tests: ['tests/unit/mail-templates.test.ts'], grep: 'client reviewer' },
  { name: 'mail 57: a terms update names the amount to a client reviewer', file: 'src/server/mail/templates.ts',
    find: "      const headline = amounts ? d.headline : (d.headlineWithoutAmount ?? d.headline.replace(MONEY_IN_TEXT, 'an amount'));", replace: '      const headline = d.headline;',
    tests: ['tests/unit/mail-templates.test.ts'], grep: 'client reviewer' },
  { name: 'client 57: a payment without its amounts read as money (the client reviewer\'s page crashed)', file: 'src/shared/payment.ts',
    find: '  if (p.amount === undefined || p.refundedAmount === undefined) return false;\n', replace: '',
    tests: ['tests/unit/partly-refunded.test.ts'], grep: 'without its amounts' },
  { name: 'client 57: the brief copied to the clipboard prints a price it does not have', file: 'src/client/features/placements/components/projects/brief-text.ts',
    find: '    ...(item.priceUsd !== undefined ? [`Price: ${formatUsd(item.priceUsd)}`] : []),', replace: '    `Price: ${formatUsd(item.priceUsd!)}`,',
    tests: ['tests/unit/partly-refunded.test.ts'], grep: 'clipboard' },
  // issue 57's polish: the behaviours fixed, each with the test that notices it back
  { name: 'polish 57: the invitation\'s subject names Byline twice', file: 'src/server/mail/templates.ts',
    find: 'subject: `${d.inviter} invited you to join ${d.organisation}`,', replace: 'subject: `${d.inviter} invited you to ${d.organisation} on ${PORTAL_NAME}`,',
    tests: ['tests/unit/mail-templates.test.ts'] },
  { name: 'polish 57: a brand\'s receipt shows the processor\'s id of the charge', file: 'src/server/mail/templates.ts',
    find: "          // no provider reference: a brand's is its invoice's number (issue 57)\n", replace: "          ['Payment reference', d.providerRef],\n",
    tests: ['tests/unit/mail-templates.test.ts'], grep: 'processor id' },
  { name: 'polish 57: a brief copied to "all without a brief" leaves out, unsaid, one with a draft', file: PL + 'bulk.ts',
    find: 'siblings.filter((s) => s.id !== paymentId && !s.submitted)', replace: 'siblings.filter((s) => s.id !== paymentId && !s.hasBrief)',
    tests: ['tests/api/bulk-and-swap.test.ts'], grep: 'copies a submitted brief' },
  { name: 'polish 57: a viewer is given an active share link to copy', file: 'src/server/modules/reports/service.ts',
    find: "const mayCopy = roleCan(member.role, 'work');", replace: 'const mayCopy = true;',
    tests: ['tests/api/reports.test.ts'], grep: 'copy again' },
  { name: 'polish 57: a client reviewer is given a link to a report with prices', file: 'src/server/modules/reports/service.ts',
    find: '!(hides && showPrices)', replace: 'true',
    tests: ['tests/api/reports.test.ts'], grep: 'copy again' },
  { name: 'polish 57: a revoked share link keeps its token', file: 'src/server/modules/reports/service.ts',
    find: '.set({ revokedAt: now, token: null })', replace: '.set({ revokedAt: now })',
    tests: ['tests/api/reports.test.ts'], grep: 'copy again' },
  { name: 'polish 57: the metrics dry run flags no value as stale', file: 'src/server/modules/outlets/metrics-import.ts',
    find: 'stale: row.asOf.getTime() < staleBefore,', replace: 'stale: false,',
    tests: ['tests/api/outlets.test.ts'], grep: 'stale line' },
  { name: 'polish 57: "n of m on time" counts every delivered placement as timed', file: 'src/server/modules/outlets/service.ts',
    find: '(SELECT count(*)::int FROM delivered WHERE tat_days IS NOT NULL) AS timed', replace: '(SELECT count(*)::int FROM delivered) AS timed',
    tests: ['tests/api/outlets.test.ts'], grep: 'counted by hand' },
  { name: 'polish 57: the admins\' list counts every member of every organisation', file: 'src/server/modules/org/service.ts',
    find: '(SELECT count(*)::int FROM users u WHERE u.organisation_id = organisations.id)', replace: '(SELECT count(*)::int FROM users u)',
    tests: ['tests/api/clients.test.ts'], grep: 'its invoice is addressed to the client' },
  // ---- ops: overload.ts (issue 61) ---------------------------------------------------------------
  { name: 'overload 61: no limit, every request queues behind the busy database', file: 'src/server/ops/overload.ts',
    find: '    if (inFlight >= max) {', replace: '    if (inFlight >= max && max < 0) {',
    tests: ['tests/api/overload.test.ts'], grep: 'at once past the limit' },
  { name: 'overload 61: a hung-up client keeps its slot until its handler ends', file: 'src/server/ops/overload.ts',
    find: "    reply.raw.once('close', () => {", replace: "    reply.raw.once('finish', () => {",
    tests: ['tests/api/overload.test.ts'], grep: 'hangs up' },
  { name: 'roles 61: a BYLINE_ROLE=worker process serves the whole API', file: 'src/server/app.ts',
    find: "  if (deps.role === 'worker') return app;\n", replace: '',
    tests: ['tests/api/roles.test.ts'], grep: 'the web process serves and queues',
    postgresOnly: 'the roles split processes over one PostgreSQL server; the embedded database belongs to one process' },
  { name: 'roles 61: a BYLINE_ROLE=web process delivers mail itself', file: 'src/server/jobs/mail.ts',
    find: '  if (opts.work === false) return;\n', replace: '',
    tests: ['tests/api/roles.test.ts'], grep: 'the web process serves and queues',
    postgresOnly: 'the roles split processes over one PostgreSQL server; the embedded database belongs to one process' },
  // errors at the edge (issue 58, decision 040)
  { name: 'errors 58: a refund beyond what is left is thrown as invalid input (400, not 409)', file: 'src/server/modules/payments/refunds.ts',
    find: "return conflict('more_than_left_to_refund',", replace: "return new DomainError('invalid', 'more_than_left_to_refund',",
    tests: ['tests/api/error-codes.test.ts'], grep: 'beyond what is left' },
  { name: 'errors 58: the error handler answers a refusal without its code', file: 'src/server/app.ts',
    find: 'message: err.message, code: err.code,', replace: 'message: err.message,',
    tests: ['tests/api/error-codes.test.ts'] },
  { name: 'errors 58: the conflict kind maps to the wrong status', file: 'src/server/lib/errors.ts',
    find: '  conflict: 409,', replace: '  conflict: 400,',
    tests: ['tests/api/error-codes.test.ts'], grep: 'beyond what is left' },
];
// ------------------------------------------------------------------------------------------------
// running them

type Db = 'pglite' | 'postgres';
type Outcome = 'killed' | 'timeout' | 'survived' | 'error' | 'skipped';
interface Leg {
  db: Db | 'unit';
  outcome: Outcome;
  seconds: number;
  detail: string;
  /** the test that killed it */
  killedBy?: string;
}
interface Result {
  mutant: Mutant;
  legs: Leg[];
  outcome: Outcome;
  seconds: number;
}

const ROOT = path.resolve(import.meta.dirname, '..');

function parseArgs(argv: string[]) {
  const opts = {
    dbs: ['pglite'] as Db[],
    only: [] as string[],
    timeoutMs: 300_000,
    baseline: true,
    inPlace: false,
    list: false,
    json: undefined as string | undefined,
    markdown: undefined as string | undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--postgres') opts.dbs = ['pglite', 'postgres'];
    else if (a === '--postgres-only') opts.dbs = ['postgres'];
    else if (a === '--only') opts.only.push(value().toLowerCase());
    else if (a === '--timeout') opts.timeoutMs = Number(value()) * 1000;
    else if (a === '--no-baseline') opts.baseline = false;
    else if (a === '--in-place') opts.inPlace = true;
    else if (a === '--list') opts.list = true;
    else if (a === '--json') opts.json = path.resolve(value());
    else if (a === '--markdown') opts.markdown = path.resolve(value());
    else throw new Error(`unknown option ${a} (see the comment at the top of scripts/mutation.ts)`);
  }
  if (!(opts.timeoutMs > 0)) throw new Error('--timeout must be a number of seconds');
  if (opts.dbs.includes('postgres') && !process.env.TEST_DATABASE_URL)
    throw new Error('--postgres needs TEST_DATABASE_URL');
  return opts;
}

/** Where `find` occurs: exactly once, or an error naming the mutant. */
function locate(m: Mutant, content: string): { index: number; text: string; replacement: string } {
  if (typeof m.find === 'string') {
    const first = content.indexOf(m.find);
    const count = first < 0 ? 0 : content.split(m.find).length - 1;
    if (count !== 1)
      throw new Error(`mutant "${m.name}": its find text occurs ${count} times in ${m.file} (must be exactly once)`);
    return { index: first, text: m.find, replacement: m.replace };
  }
  const re = new RegExp(m.find.source, m.find.flags.includes('g') ? m.find.flags : m.find.flags + 'g');
  const matches = [...content.matchAll(re)];
  if (matches.length !== 1)
    throw new Error(
      `mutant "${m.name}": its pattern matches ${matches.length} times in ${m.file} (must be exactly once)`,
    );
  const [match] = matches;
  const replacement = match[0].replace(new RegExp(m.find.source, m.find.flags.replace('g', '')), m.replace);
  return { index: match.index!, text: match[0], replacement };
}

function mutate(m: Mutant, content: string): string {
  const { index, text, replacement } = locate(m, content);
  if (replacement === text) throw new Error(`mutant "${m.name}": the replacement changes nothing`);
  return content.slice(0, index) + replacement + content.slice(index + text.length);
}

/** Every mutant must apply (exactly one match), parse, and name test files that exist. */
function checkList(root: string, mutants: Mutant[]) {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const m of mutants) {
    if (names.has(m.name)) problems.push(`two mutants are named "${m.name}"`);
    names.add(m.name);
    if (!m.tests.length) problems.push(`mutant "${m.name}" names no test file`);
    for (const t of m.tests)
      if (!existsSync(path.join(root, t))) problems.push(`mutant "${m.name}": no test file ${t}`);
    const file = path.join(root, m.file);
    if (!existsSync(file)) {
      problems.push(`mutant "${m.name}": no file ${m.file}`);
      continue;
    }
    try {
      const mutated = mutate(m, readFileSync(file, 'utf8'));
      if (/\.tsx?$/.test(m.file)) transformSync(mutated, { loader: 'ts', format: 'esm' });
    } catch (err) {
      problems.push(err instanceof Error ? err.message.split('\n')[0] : String(err));
    }
  }
  return problems;
}

const isUnit = (file: string) => file.startsWith('tests/unit/');
/** The vitest projects that hold the API files on a database (vitest.config.ts `apiProjects`). */
const projectsOf = (db: Db) => [`api-${db}`, `api-${db}-isolated`, `api-${db}-slow`];

let child: ChildProcess | null = null;

interface VitestRun {
  code: number | null;
  timedOut: boolean;
  report: VitestReport | null;
  seconds: number;
}
interface VitestReport {
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numFailedTestSuites: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/** Runs vitest on `files` in `cwd` (its own process group, so a timeout ends every worker). */
function runVitest(
  cwd: string,
  projects: string[],
  files: string[],
  grep: string | undefined,
  timeoutMs: number,
  log: string,
  env: NodeJS.ProcessEnv,
): Promise<VitestRun> {
  const jsonFile = `${log}.json`;
  rmSync(jsonFile, { force: true });
  const args = [
    path.join(cwd, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=json',
    `--outputFile=${jsonFile}`,
    '--bail=1',
    ...(grep ? ['-t', grep] : []),
    ...files,
  ];
  const started = Date.now();
  const out = openSync(`${log}.log`, 'w');
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, args, { cwd, env, detached: true, stdio: ['ignore', out, out] });
    child = proc;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(proc);
    }, timeoutMs);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      closeSync(out);
      child = null;
      let report: VitestReport | null = null;
      try {
        report = JSON.parse(readFileSync(jsonFile, 'utf8')) as VitestReport;
      } catch {
        report = null;
      }
      resolve({ code, timedOut, report, seconds: (Date.now() - started) / 1000 });
    });
  });
}

function killGroup(proc: ChildProcess) {
  try {
    if (proc.pid) process.kill(-proc.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The first failing test, and its message in one line. */
function firstFailure(report: VitestReport | null): { test: string; message: string } {
  for (const file of report?.testResults ?? []) {
    for (const a of file.assertionResults ?? []) {
      if (a.status === 'failed')
        return { test: a.fullName, message: (a.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300) };
    }
    if (file.status === 'failed' && file.message)
      return { test: path.basename(file.name), message: file.message.split('\n')[0].slice(0, 300) };
  }
  return { test: '', message: '' };
}

function classify(run: VitestRun): Omit<Leg, 'db'> {
  const seconds = run.seconds;
  if (run.timedOut) return { outcome: 'timeout', seconds, detail: 'the tests did not finish in time' };
  const r = run.report;
  if (!r) return { outcome: 'error', seconds, detail: `vitest wrote no report (exit ${run.code}); see the log` };
  if (run.code === 0 && r.success) {
    if (r.numPassedTests === 0)
      return { outcome: 'error', seconds, detail: 'no test ran (a test name pattern that matches nothing?)' };
    return { outcome: 'survived', seconds, detail: `${r.numPassedTests} tests passed` };
  }
  if (r.numFailedTests > 0 || r.numFailedTestSuites > 0) {
    const { test, message } = firstFailure(r);
    return { outcome: 'killed', seconds, detail: `${test}: ${message}`, killedBy: test };
  }
  return { outcome: 'error', seconds, detail: `vitest exited ${run.code} without a failing test; see the log` };
}

/** The mutant's overall result: killed only where every database killed it. */
function overall(legs: Leg[]): Outcome {
  const run = legs.filter((l) => l.outcome !== 'skipped');
  if (!run.length) return 'skipped';
  if (run.some((l) => l.outcome === 'error')) return 'error';
  if (run.some((l) => l.outcome === 'survived')) return 'survived';
  return run.every((l) => l.outcome === 'timeout') ? 'timeout' : 'killed';
}

/** A scratch copy of the working tree (node_modules linked): mutants never touch the checkout. */
function makeWorkspace(): string {
  const ws = mkdtempSync(path.join(os.tmpdir(), 'byline-mutation-'));
  const skip = new Set(['node_modules', '.git', 'dist', 'test-results', '.tmp', 'playwright-report', 'data']);
  cpSync(ROOT, ws, { recursive: true, filter: (src) => !skip.has(path.relative(ROOT, src).split(path.sep)[0]) });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(ws, 'node_modules'), 'dir');
  return ws;
}

/** The mutation currently applied, to undo it whatever happens. */
let applied: { file: string; original: string; mutated: string; from: string; to: string } | null = null;

function restore() {
  if (!applied) return;
  const { file, original, mutated, from, to } = applied;
  applied = null;
  const now = readFileSync(file, 'utf8');
  if (now === mutated || now === original) {
    writeFileSync(file, original);
    return;
  }
  // someone edited the file meanwhile (in place only): undo just the mutation
  if (now.split(to).length === 2) {
    writeFileSync(
      file,
      now.replace(to, () => from),
    );
    console.error(`\n! ${file} changed during the run; the mutation alone was undone, the other edits kept`);
    return;
  }
  console.error(
    `\n!!! ${file} changed during the run and the mutation could not be located: restore it by hand (replace\n${to}\nwith\n${from})`,
  );
}

let cleanup: (() => Promise<void>) | null = null;
function onSignal(signal: NodeJS.Signals) {
  console.error(`\n${signal}: restoring the mutated file and stopping`);
  if (child) killGroup(child);
  restore();
  const done = () => process.exit(signal === 'SIGINT' ? 130 : 143);
  if (cleanup) {
    setTimeout(done, 10_000).unref();
    cleanup().finally(done);
  } else done();
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const selected = MUTANTS.filter((m) => !opts.only.length || opts.only.some((o) => m.name.toLowerCase().includes(o)));
  // the mutants chosen must apply; with --only, the others' problems are said but do not stop the run
  const problems = checkList(ROOT, selected);
  if (problems.length) {
    console.error(`The mutant list is out of date with the code (${problems.length}):\n- ${problems.join('\n- ')}`);
    process.exit(2);
  }
  const others = opts.only.length ? checkList(ROOT, MUTANTS).length : 0;
  if (others) console.error(`(${others} other mutants no longer apply: run --list to see them)`);
  if (opts.list) {
    for (const [i, m] of selected.entries()) {
      console.log(
        `${String(i + 1).padStart(3)}. ${m.name}  [${m.file}]  → ${m.tests.map((t) => path.basename(t)).join(', ')}${m.grep ? ` -t "${m.grep}"` : ''}`,
      );
      if (m.why) console.log(`       why: ${m.why}`);
      if (m.survives) console.log(`       survives: ${m.survives}`);
      if (m.postgresOnly) console.log(`       PostgreSQL only: ${m.postgresOnly}`);
      if (m.pgliteOnly) console.log(`       PGlite only: ${m.pgliteOnly}`);
    }
    console.log(`${selected.length} of ${MUTANTS.length} mutants; every one applies to the current code.`);
    return;
  }
  if (!selected.length) throw new Error(`no mutant matches ${opts.only.join(', ')}`);

  const started = Date.now();
  const ws = opts.inPlace ? ROOT : makeWorkspace();
  const logs = mkdtempSync(path.join(os.tmpdir(), 'byline-mutation-logs-'));
  let teardown: (() => Promise<void>) | undefined;
  cleanup = async () => {
    restore();
    if (teardown) await teardown().catch((err) => console.error('dropping the test databases failed:', err));
    teardown = undefined;
    if (ws !== ROOT) rmSync(ws, { recursive: true, force: true });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', restore);

  let exitCode = 0;
  try {
    console.log(
      `${selected.length} mutants, tests on ${opts.dbs.join(' and ')}${ws === ROOT ? ', in place' : `, in ${ws}`}; logs in ${logs}`,
    );
    // the migrated PGlite dump and (with PostgreSQL) the template database, once for every run:
    // the test processes see BYLINE_TEST_SETUP_DONE and skip their own global setup
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
    const pgUrl = process.env.TEST_DATABASE_URL;
    if (!opts.dbs.includes('postgres')) delete process.env.TEST_DATABASE_URL;
    const cwd = process.cwd();
    process.chdir(ws);
    const setupModule = (await import(pathToFileURL(path.join(ws, 'tests/support/global-setup.ts')).href)).default as () => Promise<
      (() => Promise<void>) | void
    >;
    /** Migrates the test databases of the workspace (again: after a migration's mutant, and after its restore). */
    const migrateTestDatabases = async () => {
      if (teardown) await teardown();
      delete process.env.BYLINE_TEST_SETUP_DONE;
      process.chdir(ws);
      try {
        teardown = (await setupModule()) ?? undefined;
      } finally {
        process.chdir(cwd);
        if (pgUrl) process.env.TEST_DATABASE_URL = pgUrl;
      }
      if (!opts.dbs.includes('postgres')) delete process.env.TEST_DATABASE_URL;
      Object.assign(env, { BYLINE_TEST_SETUP_DONE: '1', BYLINE_TEST_RUN: process.env.BYLINE_TEST_RUN ?? '' });
      if (pgUrl && !opts.dbs.includes('postgres')) process.env.TEST_DATABASE_URL = pgUrl;
    };
    if (!opts.dbs.includes('postgres')) delete process.env.TEST_DATABASE_URL;
    await migrateTestDatabases();
    process.chdir(cwd);
    Object.assign(env, { BYLINE_TEST_SETUP_DONE: '1', BYLINE_TEST_RUN: process.env.BYLINE_TEST_RUN ?? '' });
    const dbsOf = (m: Mutant): (Db | 'unit')[] => (m.tests.every(isUnit) ? ['unit'] : opts.dbs);
    const projectsFor = (m: Mutant, db: Db | 'unit') =>
      db === 'unit' ? ['unit'] : [...(m.tests.some(isUnit) ? ['unit'] : []), ...projectsOf(db)];

    if (opts.baseline) {
      for (const db of opts.dbs) {
        const mutants = selected.filter(
          (m) => !m.tests.every(isUnit) && !(db === 'pglite' && m.postgresOnly) && !(db === 'postgres' && m.pgliteOnly),
        );
        const files = [...new Set(mutants.flatMap((m) => m.tests))].sort();
        if (db === opts.dbs[0]) files.push(...new Set(selected.flatMap((m) => m.tests).filter(isUnit)));
        if (!files.length) continue;
        const projects = [...new Set(files.flatMap((f) => (isUnit(f) ? ['unit'] : projectsOf(db))))];
        process.stdout.write(`baseline on ${db}: ${files.length} test files unmutated ... `);
        const run = await runVitest(
          ws,
          projects,
          [...new Set(files)],
          undefined,
          Math.max(opts.timeoutMs, 900_000),
          path.join(logs, `baseline-${db}`),
          env,
        );
        const leg = classify(run);
        console.log(`${leg.outcome === 'survived' ? 'pass' : 'FAIL'} (${run.seconds.toFixed(0)} s)`);
        if (leg.outcome !== 'survived') {
          console.error(
            `The tests fail without any mutant (${leg.detail}); see ${path.join(logs, `baseline-${db}.log`)}`,
          );
          exitCode = 2;
          process.exitCode = exitCode;
          return;
        }
      }
    }

    const results: Result[] = [];
    for (const [i, m] of selected.entries()) {
      const file = path.join(ws, m.file);
      const original = readFileSync(file, 'utf8');
      const { text, replacement } = locate(m, original);
      const mutated = mutate(m, original);
      const legs: Leg[] = [];
      const label = `[${String(i + 1).padStart(2)}/${selected.length}] ${m.name}`;
      process.stdout.write(`${label} ... `);
      try {
        applied = { file, original, mutated, from: text, to: replacement };
        writeFileSync(file, mutated);
        if (m.migration) await migrateTestDatabases();
        for (const db of dbsOf(m)) {
          if (db === 'pglite' && m.postgresOnly) {
            legs.push({
              db,
              outcome: 'skipped',
              seconds: 0,
              detail: `PostgreSQL only: ${m.postgresOnly} (run with --postgres)`,
            });
            continue;
          }
          if (db === 'postgres' && m.pgliteOnly) {
            legs.push({ db, outcome: 'skipped', seconds: 0, detail: `PGlite only: ${m.pgliteOnly}` });
            continue;
          }
          const log = path.join(logs, `${String(i + 1).padStart(2, '0')}-${db}`);
          const run = await runVitest(ws, projectsFor(m, db), m.tests, m.grep, opts.timeoutMs, log, env);
          legs.push({ db, ...classify(run) });
        }
      } finally {
        restore();
        if (m.migration) await migrateTestDatabases();
      }
      if (readFileSync(file, 'utf8') !== original) throw new Error(`${m.file} was not restored`);
      const result: Result = {
        mutant: m,
        legs,
        outcome: overall(legs),
        seconds: legs.reduce((s, l) => s + l.seconds, 0),
      };
      results.push(result);
      console.log(
        `${result.outcome}${legs.length > 1 ? ` (${legs.map((l) => `${l.db} ${l.outcome}`).join(', ')})` : ''} ${result.seconds.toFixed(0)} s`,
      );
    }

    const minutes = (Date.now() - started) / 60_000;
    report(results, opts.dbs, minutes, logs);
    if (opts.json)
      writeFileSync(
        opts.json,
        JSON.stringify(
          results.map((r) => ({ ...r, mutant: { ...r.mutant, find: String(r.mutant.find) } })),
          null,
          2,
        ),
      );
    if (opts.markdown) writeFileSync(opts.markdown, markdown(results, opts.dbs, minutes));
    const unexplained = results.filter((r) => r.outcome === 'survived' && !r.mutant.survives);
    const errors = results.filter((r) => r.outcome === 'error');
    exitCode = unexplained.length || errors.length ? 1 : 0;
  } finally {
    await cleanup();
    cleanup = null;
  }
  process.exitCode = exitCode;
}

function areaOf(file: string): string {
  if (file.includes('/modules/payments/') || file.includes('/payments/')) return 'payments';
  if (file.includes('/modules/auth/')) return 'auth';
  if (file.includes('rate-limit') || file.includes('claim_limits')) return 'rate limits';
  if (file.includes('/storage/')) return 'storage';
  if (file.includes('security-headers') || file.endsWith('/app.ts')) return 'headers';
  if (file.includes('/outbound/')) return 'outbound';
  if (/\/placements\/(release|watch|live-check|publication-routes)\.ts$/.test(file)) return 'publication';
  if (file.includes('/invoices/')) return 'invoices';
  if (file.includes('/db/') || file.startsWith('drizzle/')) return 'database';
  if (file.includes('upload') || file.includes('documents') || file.includes('/profile/')) return 'upload routes';
  return 'other';
}

function score(results: Result[]) {
  const run = results.filter((r) => r.outcome !== 'skipped');
  const killed = run.filter((r) => r.outcome === 'killed' || r.outcome === 'timeout').length;
  return { run: run.length, killed, skipped: results.length - run.length };
}

function report(results: Result[], dbs: Db[], minutes: number, logs: string) {
  const width = Math.min(96, Math.max(...results.map((r) => r.mutant.name.length)));
  console.log(`\n${'#'.padStart(3)}  ${'result'.padEnd(9)} ${'secs'.padStart(5)}  ${'mutant'.padEnd(width)}  file`);
  for (const [i, r] of results.entries()) {
    const name = r.mutant.name.length > width ? r.mutant.name.slice(0, width - 1) + '…' : r.mutant.name.padEnd(width);
    const mark = r.outcome === 'survived' ? (r.mutant.survives ? 'survived*' : 'SURVIVED') : r.outcome;
    console.log(
      `${String(i + 1).padStart(3)}  ${mark.padEnd(9)} ${r.seconds.toFixed(0).padStart(5)}  ${name}  ${r.mutant.file.replace('src/server/', '')}`,
    );
  }
  const areas = [...new Set(results.map((r) => areaOf(r.mutant.file)))];
  console.log('\nby area:');
  for (const area of areas) {
    const s = score(results.filter((r) => areaOf(r.mutant.file) === area));
    console.log(
      `  ${area.padEnd(14)} ${s.killed}/${s.run} killed${s.skipped ? ` (${s.skipped} PostgreSQL-only not run)` : ''}`,
    );
  }
  const s = score(results);
  console.log(
    `\nscore: ${s.killed}/${s.run} mutants killed (${((100 * s.killed) / Math.max(1, s.run)).toFixed(1)}%) on ${dbs.join(' and ')}${s.skipped ? `; ${s.skipped} PostgreSQL-only not run (use --postgres)` : ''}; ${minutes.toFixed(1)} min`,
  );
  for (const r of results.filter((x) => x.outcome === 'survived')) {
    console.log(
      r.mutant.survives
        ? `  survives (explained): ${r.mutant.name}\n      ${r.mutant.survives}`
        : `  SURVIVES WITHOUT A REASON: ${r.mutant.name} (${r.mutant.file}; tests ${r.mutant.tests.join(', ')})`,
    );
  }
  for (const r of results.filter((x) => x.outcome === 'error'))
    console.log(`  ERROR: ${r.mutant.name}: ${r.legs.map((l) => `${l.db}: ${l.detail}`).join('; ')}`);
  for (const r of results.filter((x) => x.outcome === 'killed' && x.mutant.survives))
    console.log(`  note: "${r.mutant.name}" is listed as surviving but was killed: its reason can go`);
  console.log(`logs: ${logs}`);
}

function markdown(results: Result[], dbs: Db[], minutes: number): string {
  const s = score(results);
  const rows = results.map((r, i) => {
    const legs = r.legs.length > 1 ? ` (${r.legs.map((l) => `${l.db}: ${l.outcome}`).join(', ')})` : '';
    const by =
      r.outcome === 'killed'
        ? (r.legs.find((l) => l.outcome === 'killed')?.killedBy ?? '')
        : (r.mutant.survives ?? r.mutant.postgresOnly ?? '');
    return `| ${i + 1} | ${r.mutant.name.replace(/\|/g, '\\|')} | \`${r.mutant.file.replace('src/server/', '')}\` | ${r.outcome}${legs} | ${by.replace(/\|/g, '\\|')} |`;
  });
  return [
    `Score on ${dbs.join(' and ')}: **${s.killed}/${s.run} killed**${s.skipped ? ` (${s.skipped} PostgreSQL-only not run)` : ''}, ${minutes.toFixed(1)} minutes.`,
    '',
    '| # | mutant | file | result | killed by / why it survives |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

// ensure a crash still restores the file before the process ends
process.on('uncaughtException', (err) => {
  restore();
  console.error(err);
  process.exit(1);
});

mkdirSync(os.tmpdir(), { recursive: true });
main().catch(async (err) => {
  restore();
  if (cleanup) await cleanup().catch(() => undefined);
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
