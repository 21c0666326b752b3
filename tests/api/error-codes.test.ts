/**
 * Errors at the edge (issue 58, decision 040): a refusal answers `{message, code}` (and `errors`
 * where it has them); the message is the same words as before, the status the one its kind maps to.
 * A few representative refusals: a 404, a 409 (a part refund beyond what is left), a 400 (invalid
 * input), a 403, a 401, and one of fastify's own (a body that is not JSON).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_OF_KIND } from '../../src/server/lib/errors';
import type { Agent, Res } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let brand: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createPaymentsTestApp({ config: { LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } } });
  admin = await signedIn(t.app, t.db, kinds.admin);
  brand = await signedIn(t.app, t.db, kinds.approvedBrand);
});
afterAll(() => t.close());

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

async function buy(agent: Agent, priceUsd: string): Promise<string> {
  const opp = await createOpportunity(t.db, { priceUsd, maxSlots: 5 });
  const claim = ok(await agent.post('/api/payments/checkout', { opportunityId: opp.id }), 'claim');
  return ok(await agent.post(`/api/payments/checkout/${sessionIdOf(claim.url)}/pay`), 'pay').paymentId;
}

describe('a refusal answers its code with its message', () => {
  it('404: a payment that does not exist', async () => {
    const res = await admin.agent.post('/api/admin/payments/00000000-0000-4000-8000-000000000000/release');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Payment not found', code: 'payment_not_found' });
  });

  it('409: a part refund beyond what is left to refund', async () => {
    const id = await buy(brand.agent, '300.00');
    ok(await admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '100.00' }), 'part');
    const res = await admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '200.01' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: 'That is more than is left to refund: $200.00 of $300.00',
      code: 'more_than_left_to_refund',
      errors: { amountUsd: 'More than is left to refund' },
    });
  });

  it('400: input its schema refuses is invalid_input, one message per field', async () => {
    const res = await brand.agent.post('/api/payments/checkout', { opportunityId: 'not-an-id' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    expect(typeof res.body.message).toBe('string');
    expect(res.body.errors.opportunityId).toBe(res.body.message);
  });

  it('403 and 401: who may call the route', async () => {
    const refused = await brand.agent.get('/api/admin/payments');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'Only admins can do this', code: 'admins_only' });
    const visitor = await t.app.inject({ method: 'GET', url: '/api/admin/payments', headers: { host: 'localhost:80' } });
    expect(visitor.statusCode).toBe(401);
    expect(JSON.parse(visitor.body)).toEqual({ message: 'Not signed in', code: 'not_signed_in' });
  });

  it('fastify’s own refusals get a code of ours: a body that is not JSON, a route that does not exist', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers: { host: 'localhost:80', origin: 'http://localhost:80', 'content-type': 'application/json', cookie: brand.agent.cookie! },
      payload: '{"opportunityId":',
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ message: 'The request body is not valid JSON', code: 'invalid_json' });
    const none = await t.app.inject({ method: 'GET', url: '/api/no-such-route', headers: { host: 'localhost:80' } });
    expect(none.statusCode).toBe(404);
    expect(JSON.parse(none.body)).toEqual({ message: 'Not found', code: 'not_found' });
  });

  it('each kind maps to one status, and the OpenAPI documents the code', async () => {
    expect(STATUS_OF_KIND).toMatchObject({ invalid: 400, unauthenticated: 401, forbidden: 403, not_found: 404, conflict: 409 });
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: 'localhost:80' } })).json();
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(expect.arrayContaining(['message', 'code']));
    expect(error.properties.code.type).toBe('string');
  });
});
