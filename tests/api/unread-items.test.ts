/**
 * `unreadMessages` on each My Articles item (the editorial team's messages the brand has not read)
 * and each Admin Projects item (the brand's messages the team has not read): counted by the database
 * with the list, so the next page follows every new message and read mark.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AdminPlacementItem, BrandPlacementItem } from '../../src/shared/schemas/brief';
import type { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { purchase } from '../support/content';
import { createPaymentsTestApp, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
let admin: Agent;
let paymentId: string;
let otherPaymentId: string;

beforeAll(async () => {
  t = await createPaymentsTestApp();
  const b = await signedIn(t.app, t.db, kinds.approvedBrand);
  brand = b.agent;
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  paymentId = (await purchase(t.db, b.user!.id)).id;
  otherPaymentId = (await purchase(t.db, b.user!.id)).id;
});
afterAll(() => t.close());

const brandUnread = async (id: string) =>
  (await brand.get<BrandPlacementItem[]>('/api/brand/my-articles')).body.find((i) => i.payment.id === id)!.unreadMessages;
const adminUnread = async (id: string) =>
  (await admin.get<AdminPlacementItem[]>('/api/admin/projects')).body.find((i) => i.payment.id === id)!.unreadMessages;

it('counts the other side’s unread messages per article, and follows new messages and read marks', async () => {
  expect(await brandUnread(paymentId)).toBe(0);
  expect(await adminUnread(paymentId)).toBe(0);

  for (const text of ['Hello from the team', 'One more question']) {
    expect((await admin.post(`/api/admin/projects/${paymentId}/messages`, { text })).status).toBe(201);
  }
  // the same page asked again counts the messages written since
  expect(await brandUnread(paymentId)).toBe(2);
  expect(await brandUnread(otherPaymentId)).toBe(0);
  // the team's own messages are not unread for the team
  expect(await adminUnread(paymentId)).toBe(0);

  expect((await brand.post(`/api/brand/projects/${paymentId}/messages`, { text: 'Answer' })).status).toBe(201);
  expect(await adminUnread(paymentId)).toBe(1);

  expect((await brand.post(`/api/brand/projects/${paymentId}/messages/read`)).status).toBeLessThan(300);
  expect(await brandUnread(paymentId)).toBe(0);
  expect((await admin.post(`/api/admin/projects/${paymentId}/messages/read`)).status).toBeLessThan(300);
  expect(await adminUnread(paymentId)).toBe(0);
});
