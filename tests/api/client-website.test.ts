/**
 * A client's website (issue 57): a client has its own websites, validated like the profile's, and a
 * placement bought for it must link to one of them. The release's check, the watch's checks (which
 * link disputes and the reports' link status read) and the check run on demand all look for a link
 * to the client's domains, not to the agency's own site; a client without any falls back to the
 * buyer's website. The live pages are served by a loopback outlet (LINK_CHECK_ALLOW).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, payments, placements, publicationChecks, publications } from '../../src/server/db/schema';
import { runDueChecks } from '../../src/server/modules/placements/watch';
import type { Res } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { html, startOutlet, type Outlet, type Route } from '../support/outlet';
import { testChecker } from '../support/outlets';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

const AGENCY = 'https://agency.example.com';
const page = (links: string[]) =>
  `<!doctype html><html><head><title>A story</title></head><body><article><h1>A story</h1>
  <p>${'The outlet writes about the industry and the companies in it. '.repeat(20)}</p>
  ${links.map((href) => `<a href="${href}">a partner</a>`).join('\n')}</article></body></html>`;

let t: PaymentsTestApp;
let outlet: Outlet;
const routes: Record<string, Route> = {};
beforeAll(async () => {
  outlet = await startOutlet(routes);
  t = await createPaymentsTestApp({ config: { LINK_CHECK_ALLOW: `127.0.0.1:${outlet.port}`, LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } } });
});
afterAll(async () => {
  await t.close();
  await outlet.close();
});

type Signed = Awaited<ReturnType<typeof signedIn>>;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

describe('a client’s websites', () => {
  it('are validated like the profile’s website: bare domains become https, several at once, bad ones refused and nothing changed', async () => {
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    const created = await owner.agent.post('/api/org/clients', { name: 'Acme Foods', websites: [' acme-foods.example.com ', 'https://www.acme.example.org/en'] });
    expect(created.status, created.text).toBe(201);
    expect(created.body.websites).toEqual(['https://acme-foods.example.com', 'https://www.acme.example.org/en']);
    const id = created.body.id as string;
    const listed = async () => ok(await owner.agent.get('/api/org/clients'), 'list');

    const refusals: [unknown, Record<string, string>][] = [
      [['acme.com', 'not a website'], { 'websites.1': 'Must be a valid URL' }],
      [['javascript:alert(1)'], { 'websites.0': 'Must be a valid URL' }],
      [['ftp://acme.com'], { 'websites.0': 'Must be a valid URL' }],
      [['  '], { 'websites.0': 'Website is required' }],
      ['acme.com', { websites: 'List the websites, one per entry' }],
      [Array.from({ length: 11 }, (_, i) => `site${i}.example.com`), { websites: 'At most 10 websites' }],
    ];
    for (const [websites, errors] of refusals) {
      const res = await owner.agent.patch(`/api/org/clients/${id}`, { websites });
      expect(res.status, JSON.stringify(websites)).toBe(400);
      expect(res.body.errors).toEqual(errors);
    }
    expect((await listed())[0].websites).toEqual(['https://acme-foods.example.com', 'https://www.acme.example.org/en']);

    // the same site typed twice is kept once; an empty list falls back to the organisation's website
    const changed = ok(await owner.agent.patch(`/api/org/clients/${id}`, { websites: ['shop.acme.example.com', 'https://shop.acme.example.com'] }), 'change');
    expect(changed.websites).toEqual(['https://shop.acme.example.com']);
    const [audit] = await t.db.select().from(auditEntries).where(eq(auditEntries.action, 'client_changed'));
    expect(audit.details).toMatchObject({ websites: { from: ['https://acme-foods.example.com', 'https://www.acme.example.org/en'], to: ['https://shop.acme.example.com'] } });
    expect(ok(await owner.agent.patch(`/api/org/clients/${id}`, { websites: [] }), 'clear').websites).toEqual([]);
    expect((await listed())[0]).toMatchObject({ name: 'Acme Foods', websites: [] });

    // only owners and admins change them
    const buyer = await signedIn(t.app, t.db, { ...kinds.approvedBrand, organisationId: owner.user.organisationId, orgRole: 'buyer' });
    expect((await buyer.agent.patch(`/api/org/clients/${id}`, { websites: ['evil.example.com'] })).status).toBe(403);
    expect((await listed())[0].websites).toEqual([]);
  });
});

/** An agency whose own site is AGENCY, and a placement bought for a client, its draft approved. */
async function boughtFor(owner: Signed, clientId: string) {
  const opp = await createOpportunity(t.db);
  const url = ok(await owner.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId }), 'checkout').url as string;
  const id = ok(await owner.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay').paymentId as string;
  await t.db.update(placements).set({ draftReviewStatus: 'approved' }).where(eq(placements.id, id));
  return id;
}

let pathNo = 0;
/** A page at the outlet linking to these sites; its URL. */
function serve(links: string[]) {
  const path = `/story-${++pathNo}`;
  routes[path] = html(page(links));
  return { path, url: outlet.url(path) };
}

describe('the publication check of a placement bought for a client', () => {
  it('looks for a link to the client’s domains, not the agency’s own site, at release, on demand and in the watch', async () => {
    const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: AGENCY });
    const admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
    const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods', websites: ['acme-foods.example.com', 'acme.example.org'] }), 'client');
    const id = await boughtFor(owner, acme.id);

    // a page linking only to the agency: refused, nothing released
    const agencyOnly = serve([`${AGENCY}/work`]);
    const refused = await admin.post(`/api/admin/payments/${id}/release`, { liveUrl: agencyOnly.url });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('The live article has problems: The page has no link to acme-foods.example.com or acme.example.org.');
    expect(refused.body.check).toMatchObject({ result: 'fail', link: { found: false, rel: null } });
    expect((await t.db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe('paid');
    // the preview says the same
    const preview = ok(await admin.post(`/api/admin/payments/${id}/publication/check`, { liveUrl: agencyOnly.url }), 'preview');
    expect(preview.problems.map((p: { code: string }) => p.code)).toEqual(['link_missing']);

    // a page linking to the client's second domain (with www.): released, the check names the site it found
    const clientPage = serve([`${AGENCY}/work`, 'https://www.acme.example.org/shop']);
    const released = await admin.post(`/api/admin/payments/${id}/release`, { liveUrl: clientPage.url });
    expect(released.status, released.text).toBe(200);
    const [pub] = await t.db.select().from(publications).where(eq(publications.placementId, id));
    expect(pub.health).toBe('ok');
    expect(pub.lastCheck).toMatchObject({ result: 'pass', link: { found: true, rel: 'dofollow', site: 'acme.example.org' } });
    const article = (ok(await owner.agent.get('/api/brand/my-articles'), 'mine') as { payment: { id: string }; publication: { lastCheck: unknown } }[]).find(
      (a) => a.payment.id === id,
    );
    expect(article?.publication.lastCheck).toMatchObject({ link: { found: true, site: 'acme.example.org' } });
    // the admins' Placements row names the client's site as the one a link is looked for
    const rows = ok(await admin.get('/api/admin/placements'), 'placements') as { paymentId: string; brandWebsite: string | null }[];
    expect(rows.find((r) => r.paymentId === id)?.brandWebsite).toBe('https://acme-foods.example.com');

    // the article loses the client's link and keeps the agency's: the check on demand and the watch fail it
    routes[clientPage.path] = html(page([`${AGENCY}/work`]));
    const now = ok(await admin.post(`/api/admin/payments/${id}/publication/check`), 'recheck');
    expect(now).toMatchObject({ result: 'fail', link: { found: false, rel: null } });
    await t.db.update(publications).set({ failingSince: null, nextCheckAt: new Date(Date.now() - 1000) }).where(eq(publications.placementId, id));
    const deps = { db: t.db, provider: t.provider, checker: testChecker(t.config), terms: { guaranteeDays: 90, restoreDays: 10, checkIntervalHours: 24 } };
    expect(await runDueChecks(deps)).toBeGreaterThanOrEqual(1);
    const [watched] = await t.db.select().from(publications).where(eq(publications.placementId, id));
    expect(watched.failingSince).not.toBeNull();
    expect(watched.lastCheck).toMatchObject({ result: 'fail', problems: [{ code: 'link_missing' }] });

    // restored with a link to the client's first domain: a link dispute's check (the watch, at once) passes
    routes[clientPage.path] = html(page(['http://acme-foods.example.com/']));
    const dispute = await owner.agent.post(`/api/brand/projects/${id}/disputes`, { reason: 'link_missing', outcome: 'refund_full', text: 'Where is our link?' });
    expect(dispute.status, dispute.text).toBe(201);
    expect(await runDueChecks(deps)).toBeGreaterThanOrEqual(1);
    const checks = await t.db.select().from(publicationChecks).where(eq(publicationChecks.placementId, id));
    expect(checks.sort((a, b) => a.checkedAt.getTime() - b.checkedAt.getTime()).at(-1)).toMatchObject({
      result: 'pass',
      check: { link: { found: true, site: 'acme-foods.example.com' } },
    });
  });

  it('a client without a website falls back to the buyer’s own website', async () => {
    const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: AGENCY });
    const admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
    const bolt = ok(await owner.agent.post('/api/org/clients', { name: 'Bolt Bikes' }), 'client');
    expect(bolt.websites).toEqual([]);
    const id = await boughtFor(owner, bolt.id);
    const res = await admin.post(`/api/admin/payments/${id}/release`, { liveUrl: serve([`${AGENCY}/bolt`]).url });
    expect(res.status, res.text).toBe(200);
    const [pub] = await t.db.select().from(publications).where(eq(publications.placementId, id));
    expect(pub.lastCheck).toMatchObject({ result: 'pass', link: { found: true, site: 'agency.example.com' } });
  });
});
