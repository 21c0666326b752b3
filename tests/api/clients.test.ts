/**
 * Clients (issue 45, decision 035): an agency's clients, each placement bought for one; a client's
 * own billing details on its invoices, its own cap, its own view of My Articles and payments; members
 * limited to clients; and the client reviewer, who reaches only the routes without money and never
 * sees a price or an amount in any answer (checked against the server's own route table).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, checkouts, mailOutbox, payments, placements, taxDocuments, users } from '../../src/server/db/schema';
import { AMOUNTS_REFUSAL } from '../../src/shared/org';
import { Agent, createTestApp, type Res, type TestApp } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { kinds, PASSWORD, signedIn } from '../support/factories';
import { createOpportunity, sessionIdOf } from '../support/payments';

const NOBODY = '00000000-0000-4000-8000-000000000000';
/** A price no id, date or count contains: any answer that shows it leaks an amount. */
const PRICE = '4321.98';

let t: TestApp;
const table: { method: string; url: string; access?: string; clientReview?: boolean; actsOn?: Record<string, string> }[] = [];
beforeAll(async () => {
  t = await createTestApp(
    { LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } },
    {
      onRoute: (r: RouteOptions) => {
        const cfg = r.config as { access?: string; clientReview?: boolean; actsOn?: Record<string, string> } | undefined;
        for (const m of [r.method].flat())
          if (m !== 'HEAD') table.push({ method: m, url: r.url, access: cfg?.access, clientReview: cfg?.clientReview, actsOn: cfg?.actsOn });
      },
    },
  );
});
afterAll(() => t.close());

type Signed = Awaited<ReturnType<typeof signedIn>>;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** An agency: its owner and two clients. */
async function agency() {
  const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
  const orgId = owner.user.organisationId!;
  const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client');
  const bolt = ok(await owner.agent.post('/api/org/clients', { name: 'Bolt Bikes' }), 'client');
  const member = (orgRole: 'buyer' | 'reviewer' | 'viewer', clientIds: string[] | null) =>
    signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `A ${orgRole}`, organisationId: orgId, orgRole, clientIds });
  return { owner, orgId, acme: acme as { id: string }, bolt: bolt as { id: string }, member };
}

/** Buys an opportunity for a client (or none) through the test checkout; the placement's id. */
async function buyFor(who: Signed, clientId: string | null, priceUsd = '100.00') {
  const opp = await createOpportunity(t.db, { priceUsd });
  const res = await who.agent.post('/api/payments/checkout', { opportunityId: opp.id, ...(clientId ? { clientId } : {}) });
  const url = ok(res, 'checkout').url as string;
  return ok(await who.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay').paymentId as string;
}

const ids = (res: Res) => (res.body as { payment: { id: string } }[]).map((i) => i.payment.id).sort();

describe('clients', () => {
  it('owners and admins add, rename and cap clients; names are unique; others cannot', async () => {
    const { owner, acme, member } = await agency();
    const list = ok(await owner.agent.get('/api/org/clients'), 'list');
    expect(list.map((c: { name: string }) => c.name)).toEqual(['Acme Foods', 'Bolt Bikes']);
    expect(list[0]).toEqual({ id: acme.id, name: 'Acme Foods', monthlyCapUsd: null, spentUsd: '0.00', hasBilling: false, websites: [] });

    const dup = await owner.agent.post('/api/org/clients', { name: ' acme foods ' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('You already have a client with this name');
    expect((await owner.agent.post('/api/org/clients', { name: '' })).body.message).toBe('Client name is required');

    const renamed = ok(await owner.agent.patch(`/api/org/clients/${acme.id}`, { name: 'Acme Foods Ltd', monthlyCapUsd: '500' }), 'rename');
    expect(renamed).toMatchObject({ name: 'Acme Foods Ltd', monthlyCapUsd: '500.00' });
    const buyer = await member('buyer', null);
    expect((await buyer.agent.post('/api/org/clients', { name: 'Sneaky' })).status).toBe(403);
    expect((await buyer.agent.patch(`/api/org/clients/${acme.id}`, { name: 'Sneaky' })).status).toBe(403);
    // another organisation's client is not found
    const other = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await other.agent.patch(`/api/org/clients/${acme.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await other.agent.get(`/api/org/clients/${acme.id}/billing`)).status).toBe(404);

    const actions = await t.db.select({ action: auditEntries.action }).from(auditEntries).where(eq(auditEntries.organisationId, owner.user.organisationId!));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['client_added', 'client_changed']));
  });

  it('a placement bought for a client: its invoice is addressed to the client, its own view in My Articles and payments', async () => {
    const { owner, acme, bolt } = await agency();
    const billing = { legalName: 'Acme Foods SAS', addressLine1: '1 rue de la Paix', city: 'Paris', country: 'FR', email: 'ap@acme.example' };
    expect(ok(await owner.agent.put(`/api/org/clients/${acme.id}/billing`, billing), 'billing')).toMatchObject({ legalName: 'Acme Foods SAS', country: 'FR' });
    expect((await owner.agent.put(`/api/org/clients/${acme.id}/billing`, { ...billing, country: 'XX' })).status).toBe(400);

    const forAcme = await buyFor(owner, acme.id);
    const forBolt = await buyFor(owner, bolt.id);
    const forNone = await buyFor(owner, null);
    const [row] = await t.db.select({ p: placements.clientId, pay: payments.clientId }).from(placements).innerJoin(payments, eq(payments.id, placements.id)).where(eq(placements.id, forAcme));
    expect(row).toEqual({ p: acme.id, pay: acme.id });

    const [invoice] = await t.db.select().from(taxDocuments).where(and(eq(taxDocuments.paymentId, forAcme), eq(taxDocuments.kind, 'invoice')));
    expect(invoice.content.buyer).toMatchObject({ name: 'Acme Foods SAS', email: 'ap@acme.example' });
    expect(invoice.content.buyer.lines).toContain('1 rue de la Paix');
    // a client without billing details: the invoice names the client
    const [boltInvoice] = await t.db.select().from(taxDocuments).where(and(eq(taxDocuments.paymentId, forBolt), eq(taxDocuments.kind, 'invoice')));
    expect(boltInvoice.content.buyer.name).toBe('Bolt Bikes');

    expect(ids(await owner.agent.get('/api/brand/my-articles'))).toEqual([forAcme, forBolt, forNone].sort());
    expect(ids(await owner.agent.get(`/api/brand/my-articles?clientId=${acme.id}`))).toEqual([forAcme]);
    const item = (await owner.agent.get(`/api/brand/my-articles/${forAcme}`)).body;
    expect(item.client).toEqual({ id: acme.id, name: 'Acme Foods' });
    const pays = (await owner.agent.get(`/api/brand/payments?clientId=${bolt.id}`)).body as { id: string; client: unknown }[];
    expect(pays.map((p) => p.id)).toEqual([forBolt]);
    expect(pays[0].client).toEqual({ id: bolt.id, name: 'Bolt Bikes' });
    expect((await owner.agent.get('/api/brand/my-articles?clientId=nope')).status).toBe(400);
    // another organisation's client id shows nothing, and cannot be bought for
    const other = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await other.agent.get(`/api/brand/my-articles?clientId=${acme.id}`)).body).toEqual([]);
    const opp = await createOpportunity(t.db);
    const refused = await other.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: acme.id });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('Client not found');

    // the admins see the organisation and the client on every list
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const adminItem = ((await admin.agent.get('/api/admin/payments?limit=100')).body as { id: string }[]).find((p) => p.id === forAcme);
    expect(adminItem).toMatchObject({ organisation: { id: owner.user.organisationId }, client: { id: acme.id, name: 'Acme Foods' } });
    const project = (await admin.agent.get(`/api/admin/projects/${forAcme}`)).body;
    expect(project).toMatchObject({ organisation: { id: owner.user.organisationId }, client: { id: acme.id } });
    const org = ok(await admin.agent.get(`/api/admin/organisations/${owner.user.organisationId}`), 'admin org');
    expect(org).toMatchObject({ id: owner.user.organisationId, approved: true, spentUsd: '300.00', paidTotalUsd: '300.00', placements: 3 });
    expect(org.members.map((m: { email: string }) => m.email)).toEqual([owner.user.email]);
    expect(org.clients.map((c: { name: string }) => c.name)).toEqual(['Acme Foods', 'Bolt Bikes']);
    // the admins' export names the organisation and the client of each payment
    const csv = (await admin.agent.get(`/api/admin/payments/export.csv?q=${encodeURIComponent(owner.user.email)}`)).text;
    const [header, ...lines] = csv.trim().split('\r\n');
    expect(header.endsWith(',organisation,client,refunded_amount')).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines.filter((l) => l.endsWith(',Acme Foods,0.00'))).toHaveLength(1);
    expect(lines.filter((l) => l.endsWith(',Bolt Bikes,0.00'))).toHaveLength(1);
    // and one client's payments alone
    const one = (await admin.agent.get(`/api/admin/payments/export.csv?clientId=${acme.id}`)).text.trim().split('\r\n');
    expect(one).toHaveLength(2);
    expect(one[1].endsWith(",Acme Foods,0.00")).toBe(true);
    expect((await admin.agent.get('/api/admin/payments/export.csv?clientId=nope')).status).toBe(400);
    expect((await admin.agent.get(`/api/admin/organisations/${NOBODY}`)).status).toBe(404);
    expect((await owner.agent.get(`/api/admin/organisations/${owner.user.organisationId}`)).status).toBe(403);

    // the admins' list of organisations (issue 57), found by the owner's e-mail or the name
    const found = ok(await admin.agent.get(`/api/admin/organisations?q=${encodeURIComponent(owner.user.email)}`), 'admin orgs');
    expect(found).toEqual([
      {
        id: owner.user.organisationId,
        name: org.name,
        approved: true,
        createdAt: org.createdAt,
        owner: { name: owner.user.name, email: owner.user.email },
        memberCount: 1,
        clientCount: 2,
        placements: 3,
      },
    ]);
    const byName = ok(await admin.agent.get(`/api/admin/organisations?q=${encodeURIComponent(org.name)}`), 'by name') as { id: string }[];
    expect(byName.map((o) => o.id)).toContain(owner.user.organisationId);
    expect(ok(await admin.agent.get('/api/admin/organisations?q=%25%25nothing-like-this'), 'none')).toEqual([]);
    // a page at a time, newest first
    const first = await admin.agent.get('/api/admin/organisations?limit=1');
    expect(first.body).toHaveLength(1);
    expect(first.headers.link).toMatch(/rel="next"/);
    expect((await owner.agent.get('/api/admin/organisations')).status).toBe(403);
  });

  it('a client’s cap refuses a purchase for it over the cap, and only for it', async () => {
    const { owner, acme, bolt } = await agency();
    ok(await owner.agent.patch(`/api/org/clients/${acme.id}`, { monthlyCapUsd: '150' }), 'cap');
    await buyFor(owner, acme.id, '100.00');
    const opp = await createOpportunity(t.db, { priceUsd: '100.00' });
    const over = await owner.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: acme.id });
    expect(over.status).toBe(422);
    expect(over.body.message).toBe('This purchase of $100.00 is over this client’s monthly budget of $150.00: $50.00 is left this month.');
    expect(await t.db.$count(checkouts, and(eq(checkouts.opportunityId, opp.id), eq(checkouts.status, 'open')))).toBe(0);
    expect((await owner.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: bolt.id })).status).toBe(200);
    const acmeRow = ((await owner.agent.get('/api/org/clients')).body as { id: string; spentUsd: string }[]).find((c) => c.id === acme.id);
    expect(acmeRow?.spentUsd).toBe('100.00');
  });
});

describe('members limited to clients', () => {
  it('see and buy only their clients’ placements; every placement route answers 404 for another client’s', async () => {
    const { owner, acme, bolt, member } = await agency();
    const forAcme = await buyFor(owner, acme.id);
    const forBolt = await buyFor(owner, bolt.id);
    const forNone = await buyFor(owner, null);
    const buyer = await member('buyer', [acme.id]);

    expect(ids(await buyer.agent.get('/api/brand/my-articles'))).toEqual([forAcme]);
    expect((await buyer.agent.get('/api/brand/my-articles/counts')).body.pending).toBe(1);
    expect(((await buyer.agent.get('/api/brand/payments')).body as { id: string }[]).map((p) => p.id)).toEqual([forAcme]);
    expect((await buyer.agent.get(`/api/brand/my-articles?clientId=${bolt.id}`)).body).toEqual([]);
    expect((await buyer.agent.get('/api/brand/wallet')).body.balance).toBe('100.00');
    expect(((await buyer.agent.get('/api/org/clients')).body as { id: string }[]).map((c) => c.id)).toEqual([acme.id]);
    expect((await buyer.agent.get('/api/org')).body.clientIds).toEqual([acme.id]);

    // every brand route declared to act on one placement (its contract's `actsOn`, whatever its
    // parameter is called): theirs is reachable, the others are not found
    const placementRoutes = table.filter((r) => r.access === 'brand' && r.actsOn?.placement);
    expect(placementRoutes.length).toBeGreaterThan(8);
    // every brand route with path parameters declares what it acts on (registering one that does not fails)
    expect(table.filter((r) => r.access === 'brand' && r.url.includes('/:') && !r.actsOn)).toEqual([]);
    for (const r of placementRoutes) {
      for (const other of [forBolt, forNone]) {
        const url = r.url.replace(`:${r.actsOn!.placement}`, other).replace(/:[A-Za-z]+/g, NOBODY);
        const res = await buyer.agent.request(r.method, url, r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
        expect(res.status, `${r.method} ${r.url}`).toBe(404);
      }
    }
    expect((await buyer.agent.get(`/api/brand/projects/${forAcme}/messages`)).status).toBe(200);

    const opp = await createOpportunity(t.db, { maxSlots: 5 });
    const noClient = await buyer.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(noClient.status).toBe(400);
    expect(noClient.body.message).toBe('Choose which of your clients this is for');
    expect((await buyer.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: bolt.id })).status).toBe(404);
    expect((await buyer.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: acme.id })).status).toBe(200);
  });

  it('owners and admins see every client; limits are changed on the member, checked, and apply on the next request', async () => {
    const { owner, orgId, acme, bolt, member } = await agency();
    const buyer = await member('buyer', null);
    const [admin] = [await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'An admin', organisationId: orgId, orgRole: 'admin' })];
    expect((await owner.agent.patch(`/api/org/members/${admin.user.id}`, { clientIds: [acme.id] })).status).toBe(422);
    expect((await owner.agent.patch(`/api/org/members/${owner.user.id}`, { clientIds: [acme.id] })).status).toBe(403);
    expect((await owner.agent.patch(`/api/org/members/${buyer.user.id}`, { clientIds: [NOBODY] })).body.message).toBe('Client not found');
    expect((await owner.agent.patch(`/api/org/members/${buyer.user.id}`, { clientIds: [] })).status).toBe(400);
    expect((await owner.agent.patch(`/api/org/members/${buyer.user.id}`, {})).status).toBe(400);

    const changed = ok(await owner.agent.patch(`/api/org/members/${buyer.user.id}`, { clientIds: [bolt.id] }), 'limit');
    expect(changed).toMatchObject({ role: 'buyer', clientIds: [bolt.id] });
    expect((await buyer.agent.get('/api/org')).body.clientIds).toEqual([bolt.id]);
    const forAcme = await buyFor(owner, acme.id);
    expect((await buyer.agent.get(`/api/brand/my-articles/${forAcme}`)).status).toBe(404);
    // made an admin: every client again
    expect(ok(await owner.agent.patch(`/api/org/members/${buyer.user.id}`, { role: 'admin' }), 'admin').clientIds).toBeNull();
    expect((await buyer.agent.get(`/api/brand/my-articles/${forAcme}`)).status).toBe(200);
    const [row] = await t.db.select({ clientIds: users.clientIds }).from(users).where(eq(users.id, buyer.user.id));
    expect(row.clientIds).toBeNull();
  });

  it('an invitation limited to clients gives the member those clients', async () => {
    const { owner, acme } = await agency();
    const email = `client-reviewer-${Date.now()}@example.com`;
    const invited = ok(await owner.agent.post('/api/org/invitations', { email, role: 'reviewer', clientIds: [acme.id] }), 'invite');
    expect(invited.clientIds).toEqual([acme.id]);
    expect((await owner.agent.post('/api/org/invitations', { email: `x${email}`, role: 'admin', clientIds: [acme.id] })).status).toBe(422);
    expect((await owner.agent.post('/api/org/invitations', { email: `y${email}`, role: 'viewer', clientIds: [NOBODY] })).status).toBe(400);
    const rows = await t.db.select().from(users).where(eq(users.email, email));
    expect(rows).toEqual([]);

    const [mail] = await t.db.select({ data: mailOutbox.data }).from(mailOutbox).where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'org_invitation')));
    const token = (mail.data as { token: string }).token;
    const agent = new Agent(t.app);
    ok(await agent.post('/api/register', { email, password: PASSWORD }), 'register');
    ok(await agent.post(`/api/invitations/${token}/accept`, { name: 'Rita Reviewer' }), 'accept');
    expect((await agent.get('/api/org')).body).toMatchObject({ role: 'reviewer', clientIds: [acme.id] });
  });
});

describe('the client reviewer', () => {
  it('reaches only the routes without money, and no answer it gets carries a price or an amount', async () => {
    const { owner, acme, member } = await agency();
    const paymentId = await buyFor(owner, acme.id, PRICE);
    const reviewer = await member('reviewer', [acme.id]);
    const admin = await signedIn(t.app, t.db, kinds.admin);

    // it writes the brief, and approves the draft
    ok(await reviewer.agent.post(`/api/brand/brief/${paymentId}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    ok(await admin.agent.patch(`/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.google.com/document/d/client' }), 'draft');
    ok(await reviewer.agent.post(`/api/brand/projects/${paymentId}/messages`, { text: 'Looks good to us' }), 'message');
    // the draft waits on it: it is told, as the buyer is
    const told = await t.db
      .select({ to: mailOutbox.toAddress })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'draft_ready'), sql`${mailOutbox.data}->>'paymentId' = ${paymentId}`));
    expect(told.map((m) => m.to).sort()).toEqual([owner.user.email, reviewer.user.email].sort());

    const reached: string[] = [];
    const leaks: string[] = [];
    const refusedWrongly: string[] = [];
    const gets = table.filter((r) => r.method === 'GET' && ['brand', 'any-brand', 'user'].includes(r.access ?? ''));
    for (const r of gets) {
      const url = r.url.replace(':paymentId', paymentId).replace(/:[A-Za-z]+/g, NOBODY);
      const res = await reviewer.agent.get(url);
      if (res.status === 403) {
        if (r.access === 'brand' && res.body.message !== AMOUNTS_REFUSAL) refusedWrongly.push(`${r.url}: ${res.body.message}`);
        continue;
      }
      if (res.status < 300) reached.push(r.url);
      const text = res.text ?? '';
      if (text.includes('4321') || text.includes('4,321')) leaks.push(`${r.url} (${res.status})`);
    }
    expect(leaks).toEqual([]);
    expect(refusedWrongly).toEqual([]);
    expect(reached).toEqual(expect.arrayContaining(['/api/brand/my-articles', '/api/brand/my-articles/:paymentId', '/api/brand/brief/:paymentId', '/api/org']));
    // what would show money is refused, with why
    for (const url of ['/api/brand/payments', '/api/brand/wallet', '/api/opportunities', '/api/org/spend', '/api/org/clients', `/api/brand/payments/${paymentId}/invoice`]) {
      const res = await reviewer.agent.get(url);
      expect(res.status, url).toBe(403);
      expect(res.body.message).toBe(AMOUNTS_REFUSAL);
    }
    const item = (await reviewer.agent.get(`/api/brand/my-articles/${paymentId}`)).body;
    expect(item).not.toHaveProperty('priceUsd');
    expect(item.payment).not.toHaveProperty('amount');
    expect(item.payment.draftReviewStatus).toBe('pending_brand_review');

    ok(await reviewer.agent.post(`/api/brand/projects/${paymentId}/approve`), 'approve');
    expect((await owner.agent.get(`/api/brand/my-articles/${paymentId}`)).body.payment).toMatchObject({ draftReviewStatus: 'approved', amount: PRICE });
    // the owner still sees the amounts
    expect((await owner.agent.get(`/api/brand/my-articles/${paymentId}`)).body.priceUsd).toBe(PRICE);
  }, 120_000);
});
