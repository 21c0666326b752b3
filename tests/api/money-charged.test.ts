/**
 * Every total and row shows what was charged (issue 15, docs/decisions/012): a price changed while
 * a brand pays, or after, never changes the money counted; totals of the highest prices never
 * overflow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, paymentsOf, quickBrands, sessionIdOf, type PaymentsTestApp } from '../support/payments';
import type { Agent } from '../support/app';

let t: PaymentsTestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createPaymentsTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
});
afterAll(async () => {
  await t.close();
});

async function pay(agent: Agent, url: string) {
  const res = await agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`);
  expect(res.status).toBe(200);
}

const setPrice = async (id: string, priceUsd: string) => {
  const current = (await admin.get(`/api/admin/opportunities/${id}`)).body;
  const res = await admin.patch(`/api/admin/opportunities/${id}`, {
    outletName: current.outletName,
    title: current.title,
    description: current.description,
    type: current.type,
    priceUsd,
    maxSlots: current.maxSlots,
  });
  expect(res.status, res.text).toBe(200);
};

describe('money counted is money charged', () => {
  it('a price raised between checkout and payment, and again after it: every total and row says $100.00', async () => {
    const before = (await admin.get('/api/admin/payments/totals')).body;
    const opp = await createOpportunity(t.db, { priceUsd: '100.00', maxSlots: 2 });
    const [brand] = await quickBrands(t.app, t.db, 1);
    const { url } = (await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id })).body;
    await setPrice(opp.id, '1000.00');
    await pay(brand.agent, url);
    await setPrice(opp.id, '5000.00');

    const [payment] = await paymentsOf(t.db, opp.id);
    expect(payment.amount).toBe('100.00');
    const totals = (await admin.get('/api/admin/payments/totals')).body;
    expect(Number(totals.held) - Number(before.held)).toBeCloseTo(100, 2);
    expect((await brand.agent.get('/api/brand/wallet')).body).toEqual({ balance: '100.00' });
    const row = (await admin.get(`/api/admin/payments?opportunityId=${opp.id}`)).body[0];
    expect(row.amount).toBe('100.00');
    const article = (await brand.agent.get('/api/brand/my-articles')).body[0];
    expect(article.payment.amount).toBe('100.00');
    // the spec's field is the opportunity's price today; the card shows payment.amount
    expect(article.priceUsd).toBe('5000.00');

    expect((await admin.post(`/api/admin/payments/${payment.id}/release`)).status).toBe(200);
    const after = (await admin.get('/api/admin/payments/totals')).body;
    expect(Number(after.released) - Number(before.released)).toBeCloseTo(100, 2);
    expect(after.held).toBe(before.held);
  });

  it('three purchases at the highest price: the wallet and the totals answer, exactly', async () => {
    const fresh = await createPaymentsTestApp();
    try {
      const freshAdmin = (await signedIn(fresh.app, fresh.db, kinds.admin)).agent;
      const opp = await createOpportunity(fresh.db, { priceUsd: '9999999999.99', maxSlots: 3 });
      const [brand] = await quickBrands(fresh.app, fresh.db, 1);
      const other = await quickBrands(fresh.app, fresh.db, 2);
      for (const b of [brand, ...other]) {
        const { url } = (await b.agent.post('/api/payments/checkout', { opportunityId: opp.id })).body;
        await pay(b.agent, url);
      }
      // the first brand buys two more placements at the same price
      const opp2 = await createOpportunity(fresh.db, { priceUsd: '9999999999.99', maxSlots: 3 });
      for (const _ of [1, 2]) {
        const { url } = (await brand.agent.post('/api/payments/checkout', { opportunityId: opp2.id })).body;
        await pay(brand.agent, url);
      }
      const wallet = await brand.agent.get('/api/brand/wallet');
      expect(wallet.status).toBe(200);
      expect(wallet.body).toEqual({ balance: '29999999999.97' });
      const totals = await freshAdmin.get('/api/admin/payments/totals');
      expect(totals.status).toBe(200);
      expect(totals.body).toEqual({ held: '49999999999.95', released: '0.00', refunded: '0.00' });
      expect((await brand.agent.get('/api/brand/payments')).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
