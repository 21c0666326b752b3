import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { mailOutbox, passwordResetTokens, sessions, users } from '../../src/server/db/schema';
import { setDeliveryQueue } from '../../src/server/mail/outbox';
import { diskFileStore } from '../../src/server/storage/file-store';
import { FORGOT_PASSWORD_ANSWER, INVALID_RESET_LINK, PASSWORD_RESET_DONE } from '../../src/shared/schemas/password';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { PASSWORD, createUser, signedIn, uniqueEmail } from '../support/factories';
import { linksIn, runMailWorker, startSmtp, TEST_BASE_URL, type TestSmtp } from '../support/mail';

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  // every request here comes from one address; the per-address limit has its own tests (limits.test.ts)
  t = await createTestApp({ LIMIT_PASSWORD_RESETS_PER_ADDRESS: { max: 1000, windowMs: 3_600_000 } });
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

const NEW_PASSWORD = 'a-brand-new-secret';

const queuedFor = (email: string) => t.db.$count(mailOutbox, eq(mailOutbox.toAddress, email));

/** Waits for the reset mail queued after the answer (the link is made once the answer has gone). */
async function untilQueued(email: string, count: number) {
  await vi.waitFor(async () => expect(await queuedFor(email)).toBe(count), { timeout: 20_000, interval: 50 });
}

/** Asks for a link and returns the token read from the mail the SMTP server received. */
async function tokenFor(email: string, typed = email): Promise<string> {
  const before = smtp.to(email).length;
  const queued = await queuedFor(email);
  const res = await new Agent(t.app).post('/api/password/forgot', { email: typed });
  expect(res.status).toBe(200);
  await untilQueued(email, queued + 1);
  await runMailWorker(t.db, smtp);
  const mails = smtp.to(email);
  expect(mails).toHaveLength(before + 1);
  const link = linksIn(mails.at(-1)!.text).find((l) => l.includes('/reset-password?token='))!;
  return new URL(link).searchParams.get('token')!;
}

const login = (email: string, password: string) => new Agent(t.app).post('/api/login', { email, password });

/**
 * Runs `send` against an app of its own on this file's database and closes it: closing waits for the
 * reset links being made after their answers, so what they write is all there afterwards.
 */
async function settled<T>(send: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-reset-'));
  const app = await buildApp({ db: t.db, config: t.config, files: diskFileStore(path.join(dataDir, 'uploads')) });
  try {
    return await send(app);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('POST /api/password/forgot', () => {
  it('mails a single-use link to PUBLIC_URL/reset-password, in both parts, and stores only its hash', async () => {
    const user = await createUser(t.db);
    const token = await tokenFor(user.email, ` ${user.email.toUpperCase()} `);
    const mail = smtp.to(user.email).at(-1)!;
    expect(mail.subject).toBe('Reset your password - Byline');
    expect(mail.text).toContain(`${TEST_BASE_URL}/reset-password?token=${token}`);
    expect(mail.text).toContain('expires in 60 minutes');
    expect(mail.html).toContain(`href="${TEST_BASE_URL}/reset-password?token=${token}"`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const rows = await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).not.toContain(token);
    expect(rows[0].expiresAt.getTime() - rows[0].createdAt.getTime()).toBe(60 * 60_000);
    // once sent, the mail log keeps no usable token either
    const [logged] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(JSON.stringify(logged.data)).not.toContain(token);
  });

  it('answers an unknown e-mail exactly like a known one, and sends nothing', async () => {
    const user = await createUser(t.db);
    const ghost = uniqueEmail('ghost');
    const [known, unknown] = await settled(async (app) => [
      await new Agent(app).post('/api/password/forgot', { email: user.email }),
      await new Agent(app).post('/api/password/forgot', { email: ghost }),
    ]);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    expect(unknown.text).toBe(known.text);
    await runMailWorker(t.db, smtp);
    expect(smtp.to(user.email)).toHaveLength(1);
    expect(smtp.to(ghost)).toEqual([]);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, ghost))).toEqual([]);
  });

  it('[SECURITY] answers before the link is made: the answer does not wait for the mail of a known e-mail', async () => {
    const user = await createUser(t.db);
    // the reset mail's delivery job is held (a slow job queue): the link's work cannot finish
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    setDeliveryQueue(async () => {
      waiting++;
      await held;
    });
    try {
      const answer = new Agent(t.app).post('/api/password/forgot', { email: user.email });
      const answered = await Promise.race([answer, sleep(20_000).then(() => null)]);
      expect(answered, 'the answer waited for the mail').not.toBeNull();
      expect(answered!.status).toBe(200);
      expect(answered!.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
      // the answer is out while the link's mail is still being queued
      await vi.waitFor(() => expect(waiting).toBe(1), { timeout: 20_000, interval: 20 });
    } finally {
      release();
      setDeliveryQueue(null);
    }
    // and once the queue goes on, the mail arrives with a link that works
    await untilQueued(user.email, 1);
    await runMailWorker(t.db, smtp);
    const link = linksIn(smtp.to(user.email).at(-1)!.text).find((l) => l.includes('/reset-password?token='))!;
    const token = new URL(link).searchParams.get('token')!;
    expect((await new Agent(t.app).post('/api/password/reset', { token, password: NEW_PASSWORD })).status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an invalid e-mail with 400 and the sign-in message', async () => {
    const res = await new Agent(t.app).post('/api/password/forgot', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Invalid email address', code: 'invalid_input', errors: { email: 'Invalid email address' } });
  });

  it('is throttled per e-mail like sign-in: the 11th request in 15 minutes gets 429, known or not, with no more mail', async () => {
    for (const email of [(await createUser(t.db)).email, uniqueEmail('nobody')]) {
      const agent = new Agent(t.app);
      for (let i = 0; i < 10; i++) expect((await agent.post('/api/password/forgot', { email })).status).toBe(200);
      const res = await agent.post('/api/password/forgot', { email });
      expect(res.status).toBe(429);
      expect(res.body.message).toBe('Too many password reset requests. Please try again in 15 minutes.');
      const rows = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
      expect(rows.length).toBeLessThanOrEqual(10);
    }
  });
});

describe('POST /api/password/reset', () => {
  it('sets the new password, ends every session of the user and spends the link', async () => {
    const { user, agent } = await signedIn(t.app, t.db);
    const { agent: otherDevice } = { agent: new Agent(t.app) };
    expect((await otherDevice.post('/api/login', { email: user.email, password: PASSWORD })).status).toBe(200);
    const token = await tokenFor(user.email);

    const res = await new Agent(t.app).post('/api/password/reset', { token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: PASSWORD_RESET_DONE });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await agent.get('/api/user')).status).toBe(401);
    expect((await otherDevice.get('/api/user')).status).toBe(401);
    expect((await login(user.email, PASSWORD)).status).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);

    // reused link
    const again = await new Agent(t.app).post('/api/password/reset', { token, password: 'yet-another-secret' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: INVALID_RESET_LINK, code: 'invalid_reset_link', errors: { token: INVALID_RESET_LINK } });
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired link with 400 and changes nothing', async () => {
    const user = await createUser(t.db);
    const token = await tokenFor(user.email);
    await t.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.userId, user.id));
    const res = await new Agent(t.app).post('/api/password/reset', { token, password: NEW_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(INVALID_RESET_LINK);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("a link only ever resets its own user's password", async () => {
    const alice = await createUser(t.db);
    const bob = await createUser(t.db);
    const aliceToken = await tokenFor(alice.email);
    const bobToken = await tokenFor(bob.email);
    expect((await new Agent(t.app).post('/api/password/reset', { token: aliceToken, password: NEW_PASSWORD })).status).toBe(200);
    expect((await login(alice.email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(bob.email, NEW_PASSWORD)).status).toBe(401);
    expect((await login(bob.email, PASSWORD)).status).toBe(200);
    // Bob's own link still works for Bob
    expect((await new Agent(t.app).post('/api/password/reset', { token: bobToken, password: 'bobs-new-secret' })).status).toBe(200);
    expect((await login(bob.email, 'bobs-new-secret')).status).toBe(200);
  });

  it('a newer reset spends the older links of the same user', async () => {
    const user = await createUser(t.db);
    const first = await tokenFor(user.email);
    const second = await tokenFor(user.email);
    expect((await new Agent(t.app).post('/api/password/reset', { token: second, password: NEW_PASSWORD })).status).toBe(200);
    expect((await new Agent(t.app).post('/api/password/reset', { token: first, password: 'something-else-1' })).status).toBe(400);
  });

  it('refuses unknown tokens and weak passwords with 400 and the sign-up messages', async () => {
    const user = await createUser(t.db);
    const token = await tokenFor(user.email);
    const unknown = await new Agent(t.app).post('/api/password/reset', { token: 'x'.repeat(43), password: NEW_PASSWORD });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(INVALID_RESET_LINK);
    const weak = await new Agent(t.app).post('/api/password/reset', { token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors).toEqual({ password: 'Password must be at least 8 characters' });
    const missing = await new Agent(t.app).post('/api/password/reset', { password: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    // the weak attempt did not spend the link
    expect((await new Agent(t.app).post('/api/password/reset', { token, password: NEW_PASSWORD })).status).toBe(200);
    const [row] = await t.db.select({ password: users.password }).from(users).where(eq(users.id, user.id));
    expect(row.password).not.toBe(user.password);
  });
});
