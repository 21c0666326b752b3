import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkType } from '../../src/shared/catalogue';
import { publicationChecks, publications } from '../../src/server/db/schema';
import { runDueChecks, type PublicationDeps } from '../../src/server/modules/placements/watch';
import type { RefundRequest } from '../../src/server/providers/provider';
import type { Agent } from '../support/app';
import { submittedBrief } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { html, startOutlet, type Outlet } from '../support/outlet';
import { testChecker } from '../support/outlets';
import { createOpportunity, createPaymentsTestApp, makePayment, spyingLocalProvider, type PaymentsTestApp } from '../support/payments';

/**
 * The publication check compares the live link's rel with the link type the placement's
 * opportunity promises (an opportunity that names none promises a plain, dofollow link). The pages
 * are served by a loopback outlet.
 */

const BRAND_SITE = 'https://brand.example.com';
const page = (rel: string | null) =>
  `<!doctype html><html><head><title>A story at the outlet</title></head><body><article><h1>A story at the outlet</h1>
  <p>${'The quick brown fox writes about the industry and its many interesting companies. '.repeat(20)}</p>
  <a ${rel ? `rel="${rel}" ` : ''}href="${BRAND_SITE}/product">our partner</a></article></body></html>`;

let t: PaymentsTestApp;
let outlet: Outlet;
let admin: Agent;
let deps: PublicationDeps;
const refunds: RefundRequest[] = [];

beforeAll(async () => {
  outlet = await startOutlet({
    '/sponsored': html(page('sponsored')),
    '/nofollow': html(page('nofollow')),
    '/plain': html(page(null)),
  });
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds), config: { LINK_CHECK_ALLOW: `127.0.0.1:${outlet.port}` } });
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  deps = { db: t.db, provider: t.provider, checker: testChecker(t.config), terms: { guaranteeDays: 90, restoreDays: 10, checkIntervalHours: 24 } };
});
afterAll(async () => {
  await t.close();
  await outlet.close();
});

/** A held payment, its draft approved, for an opportunity promising `linkType`. */
async function placementPromising(linkType: LinkType | null) {
  const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: BRAND_SITE });
  const opp = await createOpportunity(t.db, { maxSlots: 1, linkType });
  const payment = await makePayment(t.db, brand.user.id, opp.id, { draftReviewStatus: 'approved', draftDocumentUrl: 'https://docs.example.com/d/1' });
  await submittedBrief(t.db, payment);
  return payment;
}

const codesOf = (check: { problems: { code: string }[] }) => check.problems.map((p) => p.code);
const publicationOf = async (paymentId: string) => (await t.db.select().from(publications).where(eq(publications.placementId, paymentId)))[0];
const checksOf = (paymentId: string) => t.db.select().from(publicationChecks).where(eq(publicationChecks.placementId, paymentId)).orderBy(publicationChecks.checkedAt);

describe('[ADMIN] the check compares the live link with the promised link type', () => {
  it('a sponsored link on a page for an opportunity promising sponsored passes; the same page for dofollow warns', async () => {
    const url = outlet.url('/sponsored');
    const sponsored = await placementPromising('sponsored');
    const preview = await admin.post(`/api/admin/payments/${sponsored.id}/publication/check`, { liveUrl: url });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ result: 'pass', link: { found: true, rel: 'sponsored' }, problems: [] });

    for (const promised of ['dofollow', null] as const) {
      const dofollow = await placementPromising(promised);
      const res = await admin.post(`/api/admin/payments/${dofollow.id}/publication/check`, { liveUrl: url });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ result: 'warning', link: { found: true, rel: 'sponsored' } });
      expect(res.body.problems).toEqual([
        { code: 'rel_mismatch', message: 'The link to brand.example.com is rel="sponsored", but a plain (dofollow) link was promised.' },
      ]);
    }
  });

  it('the release records the comparison: ok for the promised rel, a warning for another', async () => {
    const sponsored = await placementPromising('sponsored');
    const released = await admin.post(`/api/admin/payments/${sponsored.id}/release`, { liveUrl: outlet.url('/sponsored') });
    expect(released.status, released.text).toBe(200);
    expect(await publicationOf(sponsored.id)).toMatchObject({ health: 'ok' });
    const [check] = await checksOf(sponsored.id);
    expect(check.result).toBe('pass');
    expect(codesOf(check.check)).toEqual([]);

    // a plain link where sponsored was promised is a mismatch too (a warning: released all the same)
    const plain = await placementPromising('sponsored');
    const warned = await admin.post(`/api/admin/payments/${plain.id}/release`, { liveUrl: outlet.url('/plain') });
    expect(warned.status, warned.text).toBe(200);
    expect(await publicationOf(plain.id)).toMatchObject({ health: 'warning' });
    const [plainCheck] = await checksOf(plain.id);
    expect(plainCheck.result).toBe('warning');
    expect(plainCheck.check.problems).toEqual([
      { code: 'rel_mismatch', message: 'The link to brand.example.com is a plain (dofollow) link, but rel="sponsored" was promised.' },
    ]);
  });

  it('the watch compares with the promised link type too', async () => {
    const nofollow = await placementPromising('nofollow');
    const dofollow = await placementPromising('dofollow');
    for (const p of [nofollow, dofollow]) {
      const res = await admin.post(`/api/admin/payments/${p.id}/release`, { liveUrl: outlet.url('/nofollow') });
      expect(res.status, res.text).toBe(200);
    }
    const later = new Date(Math.max(...(await Promise.all([nofollow, dofollow].map(async (p) => (await publicationOf(p.id)).nextCheckAt!.getTime())))) + 1000);
    expect(await runDueChecks(deps, later)).toBeGreaterThanOrEqual(2);

    const nofollowChecks = await checksOf(nofollow.id);
    expect(nofollowChecks).toHaveLength(2);
    expect(nofollowChecks.map((c) => c.result)).toEqual(['pass', 'pass']);
    const dofollowChecks = await checksOf(dofollow.id);
    expect(dofollowChecks).toHaveLength(2);
    expect(dofollowChecks.map((c) => c.result)).toEqual(['warning', 'warning']);
    expect(codesOf(dofollowChecks[1].check)).toEqual(['rel_mismatch']);
  });
});
