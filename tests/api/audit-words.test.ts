/**
 * The audit log in words (issue 57: "The audit log shows raw ids and codes"): each entry's subject
 * as a title (a placement as "outlet · article · client", linked by its id), the action as a phrase,
 * the details without JSON or ids, the same in the CSV; a removed member still in the Member filter;
 * and the placement's timeline naming the member who acted, not the organisation.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, payments } from '../../src/server/db/schema';
import type { AuditActor, AuditEntry } from '../../src/shared/schemas/org';
import type { TimelineEntry } from '../../src/shared/timeline';
import type { Agent, Res } from '../support/app';
import { PART1, PART2, purchase } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
beforeAll(async () => {
  t = await createPaymentsTestApp();
});
afterAll(() => t?.close());

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const CODE = /\b[a-z]+_[a-z_]+\b/;

/** An agency: its owner, an admin, a buyer (Ana Díaz) and a viewer, all under one brand name. */
async function agency() {
  const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Olive Owner', brandName: 'Acme Agency' });
  const orgId = owner.user.organisationId!;
  const member = (name: string, orgRole: 'admin' | 'buyer' | 'viewer' | 'reviewer', clientIds: string[] | null = null) =>
    signedIn(t.app, t.db, { ...kinds.approvedBrand, name, brandName: 'Acme Agency', organisationId: orgId, orgRole, clientIds });
  return { orgId, owner, member, admin: await member('Ada Admin', 'admin'), ana: await member('Ana Díaz', 'buyer'), vic: await member('Vic Viewer', 'viewer') };
}

/** A placement bought through the checkout by `who`, for a client. */
async function buy(who: Agent, clientId: string, title: string): Promise<string> {
  const opp = await createOpportunity(t.db, { maxSlots: 5, outletName: 'The Daily Ledger', title, priceUsd: '1250.00' });
  const url = ok(await who.post('/api/payments/checkout', { opportunityId: opp.id, clientId }), 'checkout').url as string;
  ok(await who.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay');
  const [row] = await t.db.select({ id: payments.id }).from(payments).where(eq(payments.providerSessionId, sessionIdOf(url)));
  return row.id;
}

describe('the audit log in words', () => {
  it('titles, phrases and details in the JSON and the CSV; no ids or codes; the removed member still filterable', async () => {
    const { owner, admin, ana, vic, member } = await agency();
    const globex = ok(await owner.agent.post('/api/org/clients', { name: 'Globex' }), 'client') as { id: string };
    const editor = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Edna Editor' });

    const id = await buy(ana.agent, globex.id, 'Robots at home');
    ok(await ana.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    ok(await editor.agent.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/draft-1' }), 'draft');
    ok(await ana.agent.post(`/api/brand/projects/${id}/approve`), 'approve');
    ok(await owner.agent.patch(`/api/org/members/${vic.user.id}`, { role: 'buyer' }), 'role');
    ok(await owner.agent.patch(`/api/org/members/${vic.user.id}`, { clientIds: [globex.id] }), 'limit');
    ok(await admin.agent.post('/api/org/invitations', { email: 'newbie@example.com', role: 'reviewer' }), 'invite');
    ok(await owner.agent.put('/api/org/budget', { monthlyCapUsd: '5000.00' }), 'budget');
    ok(await owner.agent.post('/api/org/clients', { name: '=HYPERLINK("http://evil.example")' }), 'formula client');
    ok(await owner.agent.delete(`/api/org/members/${admin.user.id}`), 'remove');

    const all = ok(await owner.agent.get('/api/org/audit'), 'audit') as AuditEntry[];
    const of = (action: AuditEntry['action']) => all.filter((e) => e.action === action);

    // a placement: "outlet · article · client", its id to link to, the member's words
    const title = 'The Daily Ledger · Robots at home · Globex';
    expect(of('paid')[0]).toMatchObject({ title, placementId: id, orderId: null, actionText: 'Paid for the placement', detailsText: '$1,250.00', subject: id });
    expect(of('brief_submitted')[0]).toMatchObject({ title, placementId: id, actionText: 'Submitted the brief', detailsText: null });
    expect(of('draft_approved')[0]).toMatchObject({ title, placementId: id, actionText: 'Approved the draft', actor: { id: ana.user.id, name: 'Ana Díaz' } });

    // people by name, roles and clients in words
    const [limited, role] = of('role_changed');
    expect(role).toMatchObject({ title: 'Vic Viewer', placementId: null, actionText: 'Changed Vic Viewer’s role to Buyer', detailsText: 'Was Viewer' });
    expect(role.details).toEqual({ from: 'viewer', to: 'buyer' }); // the stored fields stay as they were
    expect(limited).toMatchObject({ title: 'Vic Viewer', actionText: 'Limited Vic Viewer to Globex', detailsText: 'Saw every client' });
    expect(of('member_invited')[0]).toMatchObject({ title: 'newbie@example.com', actionText: 'Invited newbie@example.com as Reviewer' });
    expect(of('budget_changed')[0]).toMatchObject({ title: 'Monthly budget', actionText: 'Set the monthly budget to $5,000.00', detailsText: 'Was no cap' });
    // removed: the name their own entries copied, though the account has none now
    expect(of('member_removed')[0]).toMatchObject({ title: 'Ada Admin', actionText: 'Removed Ada Admin from the organisation', detailsText: 'Was Admin' });

    for (const e of all) {
      for (const text of [e.title, e.actionText, e.detailsText ?? '']) {
        expect(text, e.action).not.toMatch(UUID);
        expect(text, e.action).not.toMatch(CODE);
        expect(text, e.action).not.toContain('{');
      }
    }

    // the CSV: the same words, no ids, no codes, a formula written as text
    const csv = await owner.agent.get('/api/org/audit.csv');
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('At (UTC),Member,E-mail,Action,Subject,Details,Address');
    expect(lines).toHaveLength(all.length + 1);
    const row = (action: AuditEntry['action']) => lines[1 + all.findIndex((e) => e.action === action)];
    expect(row('paid')).toContain(`,Ana Díaz,${ana.user.email},Paid for the placement,${title},"$1,250.00",`);
    expect(row('role_changed')).toContain(',Limited Vic Viewer to Globex,Vic Viewer,Saw every client,');
    expect(lines.find((l) => l.includes('Changed Vic Viewer’s role to Buyer'))).toContain(',Vic Viewer,Was Viewer,');
    expect(row('member_removed')).toContain(',Removed Ada Admin from the organisation,Ada Admin,Was Admin,');
    expect(csv.text).toContain(`,"'=HYPERLINK(""http://evil.example"")",`);
    expect(csv.text).not.toMatch(UUID);
    expect(csv.text).not.toMatch(/role_changed|draft_approved|member_removed|"from"/);

    // the Member filter: everyone with entries, the removed admin too, by name
    const actors = ok(await owner.agent.get('/api/org/audit/actors'), 'actors') as AuditActor[];
    expect(actors).toEqual([
      { id: ana.user.id, name: 'Ana Díaz', email: ana.user.email, kind: 'member' },
      { id: owner.user.id, name: 'Olive Owner', email: owner.user.email, kind: 'member' },
      { id: admin.user.id, name: 'Ada Admin', email: admin.user.email, kind: 'former_member' },
    ]);
    const hers = ok(await owner.agent.get(`/api/org/audit?actor=${admin.user.id}`), 'filter') as AuditEntry[];
    expect(hers.map((e) => e.actionText)).toEqual(['Invited newbie@example.com as Reviewer']);
    const hersCsv = (await owner.agent.get(`/api/org/audit.csv?actor=${admin.user.id}`)).text.trim().split('\r\n');
    expect(hersCsv).toHaveLength(2);
    expect(hersCsv[1]).toContain('Ada Admin');

    // who may read it: the owner and admins only; a client reviewer, a limited buyer and a viewer never
    const reviewer = await member('Rita Reviewer', 'reviewer', [globex.id]);
    const buyer = await member('Bo Buyer', 'buyer', [globex.id]);
    for (const who of [reviewer, buyer, vic]) {
      for (const url of ['/api/org/audit', '/api/org/audit.csv', '/api/org/audit/actors']) expect((await who.agent.get(url)).status, url).toBe(403);
    }
  });

  it('a placement of another organisation named by an entry is not titled or linked', async () => {
    const { orgId, owner } = await agency();
    const stranger = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Stan Stranger' });
    const theirs = await purchase(t.db, stranger.user.id, { opportunityId: (await createOpportunity(t.db, { outletName: 'Secret Outlet', title: 'Secret article' })).id });
    await t.db.insert(auditEntries).values({ organisationId: orgId, actorId: owner.user.id, actorName: 'Olive Owner', actorEmail: owner.user.email, action: 'draft_approved', subject: theirs.id });
    const [entry] = ok(await owner.agent.get('/api/org/audit'), 'audit') as AuditEntry[];
    expect(entry).toMatchObject({ title: 'A placement no longer listed', placementId: null, actionText: 'Approved the draft' });
    expect(JSON.stringify(entry)).not.toContain('Secret');
  });
});

describe('a purchase request in words', () => {
  it('titled by what it asked to buy and for which client, the amount and the reason in words', async () => {
    const { owner, ana } = await agency();
    const globex = ok(await owner.agent.post('/api/org/clients', { name: 'Globex' }), 'client') as { id: string };
    expect((await owner.agent.put(`/api/org/members/${ana.user.id}/limits`, { monthlyCapUsd: null, approvalThresholdUsd: '100.00' })).status).toBe(204);
    const opp = await createOpportunity(t.db, { maxSlots: 5, outletName: 'The Daily Ledger', title: 'Robots at work', priceUsd: '1250.00' });
    const asked = ok(await ana.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: globex.id }), 'ask') as { purchaseRequest: { id: string } };
    ok(await owner.agent.post(`/api/org/purchase-requests/${asked.purchaseRequest.id}/decline`, { reason: 'Not this month' }), 'decline');
    const all = ok(await owner.agent.get('/api/org/audit'), 'audit') as AuditEntry[];
    const title = 'The Daily Ledger · Robots at work · Globex';
    expect(all.find((e) => e.action === 'purchase_requested')).toMatchObject({ title, actionText: 'Asked for approval to buy', detailsText: '$1,250.00' });
    expect(all.find((e) => e.action === 'purchase_declined')).toMatchObject({
      title,
      actionText: 'Declined the purchase request',
      detailsText: '$1,250.00. Reason: Not this month',
    });
    expect(all.find((e) => e.action === 'limits_changed')).toMatchObject({ title: 'Ana Díaz', actionText: 'Changed Ana Díaz’s limits', detailsText: 'No monthly budget; approval needed above $100.00 (was no approval needed)' });
  });
});

describe('the timeline names the member who acted', () => {
  it('on the brand’s and the admins’ views, not the organisation', async () => {
    const { owner, ana } = await agency();
    const globex = ok(await owner.agent.post('/api/org/clients', { name: 'Globex' }), 'client') as { id: string };
    const editor = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Edna Editor' });
    const id = await buy(ana.agent, globex.id, 'Robots in the kitchen');
    ok(await ana.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    ok(await editor.agent.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/draft-1' }), 'draft');
    ok(await owner.agent.post(`/api/brand/projects/${id}/approve`), 'approve');
    for (const [agent, side] of [
      [owner.agent, 'brand'],
      [editor.agent, 'admin'],
    ] as const) {
      const entries = ok(await agent.get(`/api/${side}/projects/${id}/timeline`), side) as TimelineEntry[];
      const by = Object.fromEntries(entries.map((e) => [e.kind, e.actor]));
      expect(by.paid, side).toEqual({ type: 'brand', name: 'Ana Díaz' });
      expect(by.brief_submitted, side).toEqual({ type: 'brand', name: 'Ana Díaz' });
      expect(by.draft_attached, side).toEqual({ type: 'admin', name: 'Edna Editor' });
      expect(by.approved, side).toEqual({ type: 'brand', name: 'Olive Owner' });
      expect(entries.map((e) => e.actor.name), side).not.toContain('Acme Agency');
    }
  });
});
