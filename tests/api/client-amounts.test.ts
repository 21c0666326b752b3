/**
 * Clients kept apart, and no amount for a client reviewer (issue 57, decision 035): "an answer,
 * file, page or e-mail reaching a member who may not see amounts contains none, whoever made it".
 *
 * An agency with two clients, each with its client reviewer, and a buyer of the first who becomes
 * one; its first client's placements swapped for a cheaper one (a part refund), cancelled before
 * writing (a full refund), part refunded by the editorial team, cancelled after writing for a part
 * refund, and published. Then, as each reviewer: every GET route of the server's own route table
 * (each placement, each report, each share link, each tab), the answers of what it may do (approve,
 * request edits), every report as CSV, PDF and the page of a link it makes, a schedule to itself,
 * and every mail it is sent through the SMTP stand-in, with their attachments: no price, no amount,
 * and only its client's placements. The checks can fail: the owner's copies do show the prices.
 */
import { eq, sql } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancellations, mailOutbox, users } from '../../src/server/db/schema';
import { AMOUNT_KEYS } from '../../src/server/lib/amounts';
import { smtpMailer } from '../../src/server/mail/mailer';
import { deliverPending } from '../../src/server/mail/outbox';
import { receiptAttachments } from '../../src/server/modules/invoices/service';
import { reportAttachments } from '../../src/server/modules/reports/documents';
import { runScheduledReports } from '../../src/server/modules/reports/service';
import { diskFileStore } from '../../src/server/storage/file-store';
import { ARTICLE_TABS } from '../../src/shared/enums';
import { AMOUNTS_REFUSAL } from '../../src/shared/org';
import { Agent, createTestApp, type Res, type TestApp } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { kinds, signedIn, uniqueEmail } from '../support/factories';
import { startSmtp, TEST_BASE_URL, TEST_FROM, type TestSmtp } from '../support/mail';
import { createOpportunity, sessionIdOf } from '../support/payments';
import { pdfText } from '../support/pdf';

const NOBODY = '00000000-0000-4000-8000-000000000000';
const TOPIC = 'amounts-walk';

/**
 * Every price and amount of the walk, each with three digits or more before the point (no time of
 * day, "…:17.354Z", can contain one): any text that holds one leaks it.
 */
const PRICES = {
  swapped: '4321.98', // declined, swapped for…
  alternative: '3876.54', // …this one: 445.44 refunded
  cancelled: '2222.22', // cancelled before writing: refunded in full
  partRefunded: '1500.00', // 117.35 refunded by the editorial team
  cancelledLate: '987.65', // cancelled after writing: 123.45 refunded
  published: '654.32',
  bolt: '5555.55', // the other client's: 166.66 refunded
};
const AMOUNTS = [...Object.values(PRICES), '445.44', '117.35', '1382.65', '123.45', '864.20', '166.66', '5388.89'];
const withCommas = (v: string) => v.replace(/\B(?=(\d{3})+(?!\d))/, ',');

/**
 * What of money a text shows: a known amount (as written or as a sum), or a dollar sum of any kind
 * (`anySum`: not in the public pages every visitor gets alike, the API's reference and the terms).
 */
function moneyIn(text: string, anySum = true): string[] {
  const found = AMOUNTS.flatMap((a) => [a, withCommas(a)]).filter((a) => text.includes(a));
  const dollars = anySum ? (text.match(/\$\s?\d[\d,]*(?:\.\d+)?/g) ?? []) : [];
  return [...new Set([...found, ...dollars])];
}

/** The money fields of a JSON answer, at any depth (the server's own list of them). */
function amountKeysIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => amountKeysIn(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(AMOUNT_KEYS.has(k) && (v === null || typeof v === 'string') ? [`${path}.${k}`] : []),
    ...amountKeysIn(v, `${path}.${k}`),
  ]);
}

let t: TestApp;
let smtp: TestSmtp;
const table: { method: string; url: string; access?: string; clientReview?: boolean }[] = [];
beforeAll(async () => {
  t = await createTestApp(
    { LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } },
    {
      onRoute: (r: RouteOptions) => {
        const cfg = r.config as { access?: string; clientReview?: boolean } | undefined;
        for (const m of [r.method].flat()) if (m !== 'HEAD') table.push({ method: m, url: r.url, access: cfg?.access, clientReview: cfg?.clientReview });
      },
    },
  );
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

type Signed = Awaited<ReturnType<typeof signedIn>>;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** Sends every queued mail as the running app does: with the receipt's invoice and a report's files. */
async function deliverMail() {
  const mailer = smtpMailer(smtp.url);
  const receipts = receiptAttachments();
  const reportFiles = reportAttachments(diskFileStore(t.uploadsDir));
  try {
    const done = await deliverPending(t.db, {
      mailer,
      from: TEST_FROM,
      baseUrl: TEST_BASE_URL,
      attachments: async (db, data, reader) => [...(await receipts(db, data, reader)), ...(await reportFiles(db, data, reader))],
    });
    expect(done.failed).toBe(0);
  } finally {
    mailer.close();
  }
}

/** A mail as its reader gets it: subject, both parts, and each attachment's text (a PDF's as read). */
async function readMail(raw: string) {
  const parsed = await PostalMime.parse(raw);
  const files: { name: string; text: string }[] = [];
  for (const a of parsed.attachments) {
    const bytes = Buffer.from(typeof a.content === 'string' ? a.content : new Uint8Array(a.content));
    files.push({ name: a.filename ?? '', text: a.mimeType === 'application/pdf' ? await pdfText(bytes) : bytes.toString('utf8') });
  }
  return { subject: parsed.subject ?? '', text: `${parsed.subject}\n${parsed.text}\n${parsed.html}`, files };
}

/** A signed-out browser's GET of a page. */
const page = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost:80' } });
  return { status: res.statusCode, text: res.body };
};
/** A file the API answers, as its reader gets it (a PDF's text). */
const file = async (who: Signed, url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost:80', cookie: who.agent.cookie! } });
  const pdf = String(res.headers['content-type'] ?? '').startsWith('application/pdf');
  return { status: res.statusCode, text: pdf && res.statusCode === 200 ? await pdfText(res.rawPayload) : res.body };
};

describe('a client reviewer', () => {
  it('gets no amount in any answer, file, page or mail, whoever made it, and only its client’s placements', async () => {
    // ---- the agency, its clients, their reviewers, and a buyer of the first ----
    const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Northwind Agency' });
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const orgId = owner.user.organisationId!;
    const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client') as { id: string };
    const bolt = ok(await owner.agent.post('/api/org/clients', { name: 'Bolt Bikes' }), 'client') as { id: string };
    const member = (name: string, orgRole: 'buyer' | 'reviewer', clientIds: string[]) =>
      signedIn(t.app, t.db, { ...kinds.approvedBrand, name, organisationId: orgId, orgRole, clientIds });
    const rita = await member('Rita Acme', 'reviewer', [acme.id]);
    const otto = await member('Otto Bolt', 'reviewer', [bolt.id]);
    const ben = await member('Ben Buyer', 'buyer', [acme.id]);

    const buy = async (who: Signed, clientId: string, priceUsd: string, title: string) => {
      const opp = await createOpportunity(t.db, { priceUsd, title, outletName: `Ledger ${title}`, topics: [TOPIC], domainAuthority: 50, maxSlots: 2 });
      const url = ok(await who.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId }), 'checkout').url as string;
      return ok(await who.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay').paymentId as string;
    };
    const draft = async (id: string) => {
      ok(await rita.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
      ok(await admin.agent.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: `https://docs.example.com/d/${id}` }), 'draft');
    };

    // swapped for a cheaper alternative: the difference refunded, the money still held
    const swapped = await buy(ben, acme.id, PRICES.swapped, 'Acme swaps outlets');
    const alternative = await createOpportunity(t.db, { priceUsd: PRICES.alternative, title: 'Acme elsewhere', outletName: 'The Other Ledger', topics: [TOPIC], domainAuthority: 52 });
    ok(await admin.agent.post(`/api/admin/payments/${swapped}/decline`, { reason: 'The outlet refused the topic' }), 'decline');
    expect(ok(await ben.agent.post(`/api/brand/projects/${swapped}/swap`, { opportunityId: alternative.id }), 'swap').refundedUsd).toBe('445.44');
    // cancelled before writing: refunded in full
    const cancelled = await buy(ben, acme.id, PRICES.cancelled, 'Acme cancels early');
    ok(await ben.agent.post(`/api/brand/projects/${cancelled}/cancel`, {}), 'cancel');
    // part refunded by the editorial team
    const partRefunded = await buy(owner, acme.id, PRICES.partRefunded, 'Acme part refunded');
    ok(await admin.agent.post(`/api/admin/payments/${partRefunded}/refund`, { amountUsd: '117.35', reason: 'Two days late' }), 'part refund');
    // cancelled after writing started: a part refund, the rest kept
    const cancelledLate = await buy(ben, acme.id, PRICES.cancelledLate, 'Acme cancels late');
    await draft(cancelledLate);
    ok(await ben.agent.post(`/api/brand/projects/${cancelledLate}/cancel`, { reason: 'Budget cut' }), 'ask to cancel');
    const [request] = await t.db.select({ id: cancellations.id }).from(cancellations).where(eq(cancellations.placementId, cancelledLate));
    ok(await admin.agent.post(`/api/admin/cancellations/${request.id}/answer`, { outcome: 'refund_partial', amountUsd: '123.45', reason: 'Half written' }), 'answer');
    // published: its draft approved by the client's reviewer
    const published = await buy(ben, acme.id, PRICES.published, 'Acme goes live');
    await draft(published);
    const answers: Res[] = [];
    answers.push(await rita.agent.post(`/api/brand/projects/${published}/request-edits`, { feedback: 'Shorter, please' }));
    ok(await admin.agent.post(`/api/admin/projects/${published}/mark-edits-complete`), 'edits complete');
    answers.push(await rita.agent.post(`/api/brand/projects/${published}/approve`));
    ok(await admin.agent.post(`/api/admin/payments/${published}/release`, {}), 'release');
    // the other client's, part refunded
    const forBolt = await buy(owner, bolt.id, PRICES.bolt, 'Bolt rides on');
    ok(await admin.agent.post(`/api/admin/payments/${forBolt}/refund`, { amountUsd: '166.66', reason: 'Late' }), 'bolt part refund');
    const acmePlacements = [swapped, cancelled, partRefunded, cancelledLate, published];
    const every = [...acmePlacements, forBolt];

    // reports the owner made, with prices, of each client and of everything
    const report = async (name: string, clientId?: string) =>
      (ok(await owner.agent.post('/api/org/reports', { name, ...(clientId ? { clientId } : {}), columns: ['outlet', 'title', 'status', 'price'], showPrices: true }), 'report') as { id: string }).id;
    const acmeReport = await report('Acme with prices', acme.id);
    const boltReport = await report('Bolt with prices', bolt.id);
    const everything = await report('Everything with prices');
    // the checks can fail: the owner's own copies show the prices and the amounts
    expect((await owner.agent.get(`/api/org/reports/${acmeReport}/csv`)).text).toContain(withCommas(PRICES.partRefunded));
    expect((await owner.agent.get(`/api/brand/my-articles/${swapped}`)).body.payment.refundedAmount).toBe('445.44');

    // ---- the buyer becomes a client reviewer: from now on it reads no amount, even in mail queued before ----
    ok(await owner.agent.patch(`/api/org/members/${ben.user.id}`, { role: 'reviewer', clientIds: [acme.id] }), 'role');

    // ---- schedules: a client reviewer mails only the organisation's members; nobody mails a member limited to another client ----
    const outside = uniqueEmail('client-side');
    const refused = await rita.agent.put(`/api/org/reports/${acmeReport}/schedule`, { cadence: 'weekly', recipients: [rita.user.email, outside] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`You can send this report only to members of your organisation: ${outside} is not one`);
    const blind = await owner.agent.put(`/api/org/reports/${acmeReport}/schedule`, { cadence: 'weekly', recipients: [otto.user.email] });
    expect(blind.status).toBe(400);
    expect(blind.body.message).toBe(`${otto.user.email} cannot receive this report: that member sees only other clients’ placements`);
    const [unchanged] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, outside));
    expect(unchanged).toBeUndefined();
    // the owner's schedule of its priced report: priced to an outside address; the reviewers' without prices
    ok(await owner.agent.put(`/api/org/reports/${everything}/schedule`, { cadence: 'weekly', recipients: [outside] }), 'owner schedule');
    ok(await rita.agent.put(`/api/org/reports/${acmeReport}/schedule`, { cadence: 'monthly', recipients: [rita.user.email, ben.user.email, owner.user.email] }), 'reviewer schedule');
    ok(await otto.agent.put(`/api/org/reports/${boltReport}/schedule`, { cadence: 'weekly', recipients: [otto.user.email] }), 'bolt schedule');
    expect((await runScheduledReports(t.db)).sort()).toEqual([acmeReport, boltReport, everything].sort());

    // ---- links the reviewers make of the owner's priced reports and of a placement's proof ----
    const share = async (who: Signed, url: string) => (ok(await who.agent.post(url, { expiresInDays: 7 }), 'share') as { url: string }).url.replace(/^https?:\/\/[^/]+/, '');
    const links = {
      rita: [await share(rita, `/api/org/reports/${acmeReport}/shares`), await share(rita, `/api/brand/projects/${published}/shares`)],
      otto: [await share(otto, `/api/org/reports/${boltReport}/shares`)],
      ben: [await share(ben, `/api/org/reports/${acmeReport}/shares`)],
    };
    // the owner's own link of the same report shows the prices (the check can fail)
    expect((await page(await share(owner, `/api/org/reports/${acmeReport}/shares`))).text).toContain(withCommas(PRICES.partRefunded));

    // ---- the walk: every GET route each reviewer can call ----
    const leaks: string[] = [];
    const fivexx: string[] = [];
    const note = (who: string, what: string, res: { status: number; text: string }, json?: unknown, anySum = true) => {
      if (res.status >= 500) fivexx.push(`${who} ${what}: ${res.status}`);
      const money = moneyIn(res.text, anySum);
      if (money.length) leaks.push(`${who} ${what} (${res.status}): ${money.join(', ')}`);
      const keys = json === undefined ? [] : amountKeysIn(json);
      if (keys.length) leaks.push(`${who} ${what} (${res.status}): ${keys.join(', ')}`);
    };
    const gets = table.filter((r) => r.method === 'GET' && ['brand', 'any-brand', 'user', 'public'].includes(r.access ?? ''));
    expect(gets.length).toBeGreaterThan(45);
    const reviewers = { rita: { who: rita, client: acme.id, theirs: acmePlacements, reports: [acmeReport] }, otto: { who: otto, client: bolt.id, theirs: [forBolt], reports: [boltReport] }, ben: { who: ben, client: acme.id, theirs: acmePlacements, reports: [acmeReport] } };
    for (const [name, r] of Object.entries(reviewers)) {
      const reached = new Set<string>();
      for (const route of gets) {
        // signed out: below; and the probe that answers 503 without background jobs (ops-health.test.ts)
        if (route.url.startsWith('/share/') || route.url === '/readyz') continue;
        const placementParam = /:(paymentId|placementId)\b/;
        const urls = placementParam.test(route.url)
          ? every.map((id) => route.url.replace(placementParam, id))
          : route.url.startsWith('/api/org/reports/:id')
            ? [acmeReport, boltReport].map((id) => route.url.replace(':id', id))
            : [route.url];
        for (const raw of urls) {
          const url = raw.replace(/:[A-Za-z]+/g, NOBODY);
          const pdf = url.endsWith('/pdf') || url.endsWith('/invoice') || url.endsWith('/credit-note');
          const res = pdf ? await file(r.who, url) : await r.who.agent.get(url);
          const json: unknown = pdf ? (res.status === 200 ? undefined : JSON.parse(res.text)) : (res as Res).body;
          note(name, `GET ${url}`, res, json, route.access !== 'public');
          if (res.status === 403 && route.access === 'brand') expect((json as { message?: string })?.message, url).toBe(AMOUNTS_REFUSAL);
          if (res.status < 300) reached.add(route.url);
          // another client's placement or report is not found, as another organisation's
          const other = every.filter((id) => !r.theirs.includes(id)).some((id) => url.includes(id)) || ([acmeReport, boltReport].some((id) => url.includes(id)) && !r.reports.some((id) => url.includes(id)));
          if (other && res.status !== 403) expect(res.status, `${name} ${url}`).toBe(404);
        }
      }
      // My Articles, every tab: only its client's placements, each without an amount
      const listed = new Set<string>();
      for (const tab of [undefined, ...ARTICLE_TABS]) {
        const res = await r.who.agent.get(`/api/brand/my-articles${tab ? `?tab=${tab}` : ''}`);
        expect(res.status).toBe(200);
        note(name, `My Articles ${tab ?? 'default'}`, res, res.body);
        for (const item of res.body as { payment: { id: string }; client: { id: string } }[]) {
          expect(item.client.id).toBe(r.client);
          listed.add(item.payment.id);
        }
      }
      expect([...listed].sort()).toEqual([...r.theirs].sort());
      expect(ok(await r.who.agent.get('/api/org/reports'), 'reports').map((x: { id: string }) => x.id)).toEqual(r.reports);
      expect([...reached]).toEqual(expect.arrayContaining(['/api/brand/my-articles', '/api/brand/my-articles/:paymentId', '/api/brand/placements/:placementId', '/api/brand/projects/:paymentId/timeline', '/api/brand/placements/:placementId/timeline', '/api/org/reports/:id/csv', '/api/org/reports/:id/pdf']));
    }
    // what the reviewer did answered without amounts too
    for (const [i, res] of answers.entries()) {
      expect(res.status, res.text).toBeLessThan(300);
      note('rita', `answer ${i}`, res, res.body);
    }
    // the pages of the links they made
    for (const [name, urls] of Object.entries(links)) {
      for (const url of urls) {
        const res = await page(url);
        expect(res.status).toBe(200);
        note(name, `share page ${url}`, res);
      }
    }
    expect((await page(links.rita[0])).text).toContain('Acme part refunded');
    expect((await page(links.otto[0])).text).not.toContain('Acme');

    // ---- every mail each of them was sent, with its attachments ----
    await deliverMail();
    const kindsSent = new Set<string>();
    for (const [name, r] of Object.entries(reviewers)) {
      const mails = smtp.to(r.who.user.email);
      expect(mails.length, name).toBeGreaterThan(0);
      for (const m of mails) {
        const mail = await readMail(m.raw);
        kindsSent.add(`${name}: ${mail.subject.replace(/:.*/, '')}`);
        note(name, `mail "${mail.subject}"`, { status: 200, text: mail.text });
        // nothing of the other client's, in the mail nor in its files
        const others = name === 'otto' ? 'Acme' : 'Bolt';
        expect(mail.text, mail.subject).not.toContain(others);
        for (const f of mail.files) {
          note(name, `mail "${mail.subject}" file ${f.name}`, { status: 200, text: f.text });
          expect(f.text, f.name).not.toContain(others);
        }
      }
    }
    // the mails that carry amounts to a buyer reached the one who became a reviewer, without them
    expect([...kindsSent]).toEqual(
      expect.arrayContaining([
        'ben: Payment received',
        'ben: Refund issued',
        'ben: Your article is published',
        expect.stringMatching(/^ben: Acme with prices/),
        expect.stringMatching(/^rita: Acme with prices/),
        expect.stringMatching(/^otto: Bolt with prices/),
        'rita: Your draft is ready for review',
      ]),
    );
    // an outside address the owner chose gets the report as the owner made it: with its prices
    const outsideMails = await Promise.all(smtp.to(outside).map((m) => readMail(m.raw)));
    expect(outsideMails).toHaveLength(1);
    expect(outsideMails[0].files.map((f) => f.text).join('\n')).toContain(withCommas(PRICES.partRefunded));
    // and a member limited to the other client never got Acme's report
    expect(smtp.to(otto.user.email).some((m) => m.subject.includes('Acme'))).toBe(false);

    expect(leaks).toEqual([]);
    expect(fivexx).toEqual([]);
  }, 600_000);
});

describe('the money fields the hook drops', () => {
  it('name every money field of every answer a client reviewer may get (deny by default)', async () => {
    const doc = (await new Agent(t.app).get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { 'x-access'?: string; 'x-client-review'?: boolean; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const MONEY = '^-?\\d+\\.\\d{2}$';
    const fields = new Map<string, string>();
    const seen = new Set<unknown>();
    const walk = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      const s = schema as Record<string, unknown>;
      if (typeof s.$ref === 'string') return walk(doc.components.schemas[s.$ref.split('/').pop()!], where);
      for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        const variants = [prop, ...((prop.anyOf ?? prop.oneOf ?? []) as Record<string, unknown>[])];
        if (variants.some((v) => v.pattern === MONEY)) fields.set(name, where);
        walk(prop, where);
      }
      for (const key of ['items', 'additionalProperties']) walk(s[key], where);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const v of (s[key] ?? []) as unknown[]) walk(v, where);
    };
    let routes = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const reachable = op['x-client-review'] || ['user', 'any-brand', 'public'].includes(op['x-access'] ?? '');
        if (!reachable) continue;
        routes++;
        seen.clear();
        for (const [status, answer] of Object.entries(op.responses ?? {}))
          if (status.startsWith('2')) for (const media of Object.values(answer.content ?? {})) walk(media.schema, `${method.toUpperCase()} ${path}`);
      }
    }
    expect(routes).toBeGreaterThan(30);
    // the walk finds them: My Articles' item has three
    expect([...fields.keys()]).toEqual(expect.arrayContaining(['priceUsd', 'amount', 'refundedAmount']));
    const unnamed = [...fields].filter(([name]) => !AMOUNT_KEYS.has(name)).map(([name, where]) => `${name} (${where})`);
    expect(unnamed).toEqual([]);
  });
});

describe('decided when read, by who reads', () => {
  it('a link a client reviewer made never shows prices, even once it is promoted; a buyer’s link shows none once the buyer is a client reviewer', async () => {
    const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Westwind Agency' });
    const orgId = owner.user.organisationId!;
    const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client') as { id: string };
    const opp = await createOpportunity(t.db, { priceUsd: PRICES.partRefunded, title: 'Acme, priced' });
    const url = ok(await owner.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: acme.id }), 'checkout').url as string;
    ok(await owner.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay');
    const report = (ok(await owner.agent.post('/api/org/reports', { name: 'Priced', clientId: acme.id, columns: ['title', 'price'], showPrices: true }), 'report') as { id: string }).id;
    const member = (orgRole: 'buyer' | 'reviewer', clientIds: string[] | null) =>
      signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `A ${orgRole}`, organisationId: orgId, orgRole, clientIds });
    const linkOf = async (who: Signed) => (ok(await who.agent.post(`/api/org/reports/${report}/shares`, {}), 'share') as { url: string }).url.replace(/^https?:\/\/[^/]+/, '');
    const sum = withCommas(PRICES.partRefunded);

    const reviewer = await member('reviewer', [acme.id]);
    const reviewersLink = await linkOf(reviewer);
    expect((await page(reviewersLink)).text).not.toContain(sum);
    // promoted: its link was made for its client's people, and stays without prices
    ok(await owner.agent.patch(`/api/org/members/${reviewer.user.id}`, { role: 'buyer', clientIds: null }), 'promote');
    expect((await reviewer.agent.get(`/api/org/reports/${report}/csv`)).text).toContain(sum);
    expect((await page(reviewersLink)).text).not.toContain(sum);

    const buyer = await member('buyer', [acme.id]);
    const buyersLink = await linkOf(buyer);
    expect((await page(buyersLink)).text).toContain(sum);
    ok(await owner.agent.patch(`/api/org/members/${buyer.user.id}`, { role: 'reviewer', clientIds: [acme.id] }), 'demote');
    expect((await page(buyersLink)).text).not.toContain(sum);
  });

  it('a scheduled report is not mailed to a member limited to other clients since it was scheduled', async () => {
    const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Eastwind Agency' });
    const orgId = owner.user.organisationId!;
    const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client') as { id: string };
    const bolt = ok(await owner.agent.post('/api/org/clients', { name: 'Bolt Bikes' }), 'client') as { id: string };
    const opp = await createOpportunity(t.db, { title: 'Acme, scheduled' });
    const url = ok(await owner.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: acme.id }), 'checkout').url as string;
    ok(await owner.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay');
    const report = (ok(await owner.agent.post('/api/org/reports', { name: 'Acme weekly', clientId: acme.id, columns: ['title'] }), 'report') as { id: string }).id;
    const mate = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'A buyer', organisationId: orgId, orgRole: 'buyer', clientIds: null });
    const outside = uniqueEmail('acme-side');
    ok(await owner.agent.put(`/api/org/reports/${report}/schedule`, { cadence: 'weekly', recipients: [mate.user.email, outside] }), 'schedule');
    ok(await owner.agent.patch(`/api/org/members/${mate.user.id}`, { clientIds: [bolt.id] }), 'limit');
    expect(await runScheduledReports(t.db)).toContain(report);
    const to = (await t.db.select({ to: mailOutbox.toAddress }).from(mailOutbox).where(sql`${mailOutbox.data}->>'reportId' = ${report}`)).map((m) => m.to);
    expect(to).toEqual([outside]);
  });
});
