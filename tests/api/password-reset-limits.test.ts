/**
 * The forgot-password flood limit cannot be turned against the owner (issue 43): each e-mail gets at
 * most 10 requests per 15 minutes from all addresses together, except from an address the account
 * has signed in from, which is counted on its own. Ten requests from strangers no longer keep the
 * owner from resetting the password; a flood from many addresses is still limited.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { PASSWORD, createUser, uniqueEmail } from '../support/factories';
import { linksIn, runMailWorker, startSmtp, type TestSmtp } from '../support/mail';

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  // a proxy on this host tells the client's address; the per-address limit is not what is tested here
  t = await createTestApp({
    TRUST_PROXY: ['127.0.0.1'],
    LIMIT_PASSWORD_RESETS_PER_ADDRESS: { max: 1000, windowMs: 3_600_000 },
  });
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

const from = (address: string) => ({ 'x-forwarded-for': address });
const forgot = (email: string, address: string) =>
  new Agent(t.app).request('POST', '/api/password/forgot', { email }, from(address));
const login = (email: string, password: string, address: string) =>
  new Agent(t.app).request('POST', '/api/login', { email, password }, from(address));
const TOO_MANY = 'Too many password reset requests. Please try again in 15 minutes.';

/** Waits until `count` reset mails are queued for `email` (the links are made after the answers). */
async function untilQueued(email: string, count: number) {
  const queued = () =>
    t.db.$count(mailOutbox, and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'password_reset')));
  await vi.waitFor(async () => expect(await queued()).toBeGreaterThanOrEqual(count), { timeout: 20_000, interval: 50 });
  expect(await queued()).toBe(count);
}

/** Ten requests for `email`, each from another stranger's address: the e-mail's shared limit is used up. */
async function flood(email: string, net: number) {
  for (let i = 0; i < 10; i++) expect((await forgot(email, `10.${net}.${i}.1`)).status).toBe(200);
  const refused = await forgot(email, `10.${net}.99.1`);
  expect(refused.status).toBe(429);
  expect(refused.body.message).toBe(TOO_MANY);
}

describe('forgot password after a flood of requests from strangers', () => {
  it("[SECURITY] the owner's own address still gets its reset mail, with a link that works; strangers stay limited", async () => {
    const owner = await createUser(t.db);
    expect((await login(owner.email, PASSWORD, '10.40.0.1')).status).toBe(200);
    await flood(owner.email, 41);

    const own = await forgot(owner.email, '10.40.0.1');
    expect(own.status).toBe(200);
    // a stranger is still refused after the owner's request
    expect((await forgot(owner.email, '10.41.98.1')).status).toBe(429);

    await untilQueued(owner.email, 11);
    await runMailWorker(t.db, smtp);
    const mails = smtp.to(owner.email);
    expect(mails).toHaveLength(11);
    const link = linksIn(mails.at(-1)!.text).find((l) => l.includes('/reset-password?token='))!;
    const token = new URL(link).searchParams.get('token')!;
    expect(
      (await new Agent(t.app).post('/api/password/reset', { token, password: 'the-owners-new-secret' })).status,
    ).toBe(200);
    expect((await login(owner.email, 'the-owners-new-secret', '10.40.0.1')).status).toBe(200);
  });

  it('an address is let through only for the accounts signed in from it; a failed sign-in does not count', async () => {
    const victim = await createUser(t.db);
    const other = await createUser(t.db);
    expect((await login(other.email, PASSWORD, '10.42.0.1')).status).toBe(200);
    expect((await login(victim.email, 'not-the-password', '10.42.0.2')).status).toBe(401);
    await flood(victim.email, 43);
    for (const address of ['10.42.0.1', '10.42.0.2']) {
      const res = await forgot(victim.email, address);
      expect(res.status, address).toBe(429);
      expect(res.body.message).toBe(TOO_MANY);
    }
    // the address is the other account's own, though
    expect((await forgot(other.email, '10.42.0.1')).status).toBe(200);
  });

  it("signing up counts as signing in: the new account's address is let through", async () => {
    const email = uniqueEmail('new-brand');
    const created = await new Agent(t.app).request(
      'POST',
      '/api/register',
      { email, password: PASSWORD },
      from('10.44.0.1'),
    );
    expect(created.status).toBe(201);
    await flood(email, 45);
    expect((await forgot(email, '10.44.0.1')).status).toBe(200);
    await untilQueued(email, 11);
  });

  it("the owner's address has a limit of its own (10 per 15 minutes), which strangers' requests do not share", async () => {
    const owner = await createUser(t.db);
    expect((await login(owner.email, PASSWORD, '10.46.0.1')).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await forgot(owner.email, '10.46.0.1')).status).toBe(200);
    const refused = await forgot(owner.email, '10.46.0.1');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(TOO_MANY);
    // the shared limit of the e-mail is untouched by the owner's requests
    await flood(owner.email, 47);
    await untilQueued(owner.email, 20);
  });
});
