import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../support/app';
import { paymentRow, submittedBrief } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { html, redirect, startOutlet, type Outlet } from '../support/outlet';
import { createOpportunity, createPaymentsTestApp, makePayment, type PaymentsTestApp } from '../support/payments';

/**
 * LINK_CHECK_ALLOW and ports (issue 43): an allowed address is reachable on ports 80 and 443 only,
 * unless its entry names a port; then on exactly that port, for the first request and for every
 * redirect. Otherwise the checker would report the status and title of any service on an allowed
 * host back to the admin. The outlet and the trap are real servers on loopback, on ports of their own.
 */

const BRAND_SITE = 'https://brand.example.com';
const PAGE = `<!doctype html><html><head><title>A story at the outlet</title></head><body><article>
  <p>${'The quick brown fox writes about the industry and its many interesting companies. '.repeat(20)}</p>
  <a href="${BRAND_SITE}/product">our partner</a></article></body></html>`;

let outlet: Outlet;
/** a server on another port of the same address, which no entry names: nothing may reach it */
let trap: Outlet;
/** LINK_CHECK_ALLOW names the outlet's port */
let ported: PaymentsTestApp;
/** LINK_CHECK_ALLOW names the address alone, as it used to be written */
let bare: PaymentsTestApp;

beforeAll(async () => {
  trap = await startOutlet({ '/story': html(PAGE) });
  outlet = await startOutlet({ '/story': html(PAGE), '/to-trap': redirect(trap.url('/story')) });
  ported = await createPaymentsTestApp({ config: { LINK_CHECK_ALLOW: `127.0.0.1:${outlet.port}` } });
  bare = await createPaymentsTestApp({ config: { LINK_CHECK_ALLOW: '127.0.0.1' } });
});
afterAll(async () => {
  await ported?.close();
  await bare?.close();
  await outlet?.close();
  await trap?.close();
});

/** An admin of the app and a held payment, its draft approved. */
async function placement(t: PaymentsTestApp): Promise<{ admin: Agent; paymentId: string }> {
  const admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: BRAND_SITE });
  const opp = await createOpportunity(t.db, { maxSlots: 1 });
  const payment = await makePayment(t.db, brand.user.id, opp.id, { draftReviewStatus: 'approved', draftDocumentUrl: 'https://docs.example.com/d/1' });
  await submittedBrief(t.db, payment);
  return { admin, paymentId: payment.id };
}

const codes = (check: { problems: { code: string }[] }) => check.problems.map((p) => p.code);

describe('LINK_CHECK_ALLOW with ports', () => {
  it('a bare address opens ports 80 and 443 only: the outlet on its own port is refused, never reached, no money moves', async () => {
    const { admin, paymentId } = await placement(bare);
    const connections = outlet.connections;
    const preview = await admin.post(`/api/admin/payments/${paymentId}/publication/check`, { liveUrl: outlet.url('/story') });
    expect(preview.status, preview.text).toBe(200);
    expect(codes(preview.body)).toEqual(['blocked_port']);
    expect(preview.body).toMatchObject({ result: 'fail', httpStatus: null, title: null });
    const release = await admin.post(`/api/admin/payments/${paymentId}/release`, { liveUrl: outlet.url('/story') });
    expect(release.status).toBe(409);
    expect(codes(release.body.check)).toEqual(['blocked_port']);
    expect(release.body.message).toMatch(new RegExp(`port ${outlet.port}; Byline only visits web pages on the standard ports`));
    expect(outlet.connections).toBe(connections);
    expect((await paymentRow(bare.db, paymentId)).status).toBe('paid');
  });

  it('an address with the outlet’s port: checked there and released', async () => {
    const { admin, paymentId } = await placement(ported);
    const release = await admin.post(`/api/admin/payments/${paymentId}/release`, { liveUrl: outlet.url('/story') });
    expect(release.status, release.text).toBe(200);
    expect((await paymentRow(ported.db, paymentId)).status).toBe('released');
  });

  it('another port of the same address is refused, asked for directly or through a redirect; the server there is never reached', async () => {
    const { admin, paymentId } = await placement(ported);
    const direct = await admin.post(`/api/admin/payments/${paymentId}/release`, { liveUrl: trap.url('/story') });
    expect(direct.status).toBe(409);
    expect(codes(direct.body.check)).toEqual(['blocked_port']);

    const viaRedirect = await admin.post(`/api/admin/payments/${paymentId}/release`, { liveUrl: outlet.url('/to-trap') });
    expect(viaRedirect.status).toBe(409);
    expect(viaRedirect.body.check).toMatchObject({ result: 'fail', finalUrl: trap.url('/story'), httpStatus: null, title: null });
    expect(codes(viaRedirect.body.check)).toEqual(['blocked_port']);
    // the redirect was asked for; where it led was not
    expect(outlet.requests.some((r) => r.url === '/to-trap')).toBe(true);
    expect(trap.connections).toBe(0);
    expect((await paymentRow(ported.db, paymentId)).status).toBe('paid');
  });
});
