import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/server/db/schema';
import { startJobs, type Jobs } from '../../src/server/jobs/boss';
import { MAIL_JOBS, startMailJobs, stopMailJobs } from '../../src/server/jobs/mail';
import { outboxMailer, smtpMailer } from '../../src/server/mail/mailer';
import { deliverMail, enqueueMail } from '../../src/server/mail/outbox';
import { receiptAttachments } from '../../src/server/modules/invoices/service';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { createUser, kinds } from '../support/factories';
import { runMailWorker, startSmtp, TEST_BASE_URL, TEST_FROM, type TestSmtp } from '../support/mail';

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

const approved = (name = 'Jo') => ({ kind: 'brand_approved' as const, name, viaInviteCode: false });
const outboxRows = (to: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));

async function until(check: () => Promise<boolean> | boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('the outbox', () => {
  it('keeps a mail only when the transaction that queued it commits', async () => {
    const user = await createUser(t.db);
    await expect(
      t.db.transaction(async (tx) => {
        await enqueueMail(tx, { userId: user.id }, approved());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await outboxRows(user.email)).toEqual([]);

    await t.db.transaction(async (tx) => {
      await enqueueMail(tx, { userId: user.id }, approved());
    });
    const [row] = await outboxRows(user.email);
    expect(row).toMatchObject({ kind: 'brand_approved', status: 'pending', attempts: 0 });
  });

  it('the worker sends each pending mail once over SMTP, with From, Message-ID and both parts', async () => {
    const user = await createUser(t.db);
    await t.db.transaction((tx) => enqueueMail(tx, { userId: user.id }, approved('Jo <b>')));
    expect((await runMailWorker(t.db, smtp)).sent).toBeGreaterThanOrEqual(1);
    const [mail] = smtp.to(user.email);
    expect(mail.from).toBe('mail@byline.test');
    expect(mail.subject).toBe('Your account has been approved - Byline');
    expect(mail.text).toContain('Hi Jo <b>,');
    expect(mail.html).toContain('Hi Jo &lt;b&gt;,');
    const [row] = await outboxRows(user.email);
    expect(mail.messageId).toBe(`<${row.id}@byline.mail>`);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, subject: mail.subject, lastError: null });

    // a second run (or a repeated job) sends nothing
    await runMailWorker(t.db, smtp);
    expect(await deliverMail(t.db, { mailer: smtpMailer(smtp.url), from: TEST_FROM, baseUrl: TEST_BASE_URL, attachments: receiptAttachments() }, row.id)).toBe('skipped');
    expect(smtp.to(user.email)).toHaveLength(1);
  });

  it('without SMTP each mail is written as an .eml file and logged with subject and recipient', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-mail-'));
    const lines: string[] = [];
    const user = await createUser(t.db);
    const id = await t.db.transaction((tx) => enqueueMail(tx, { userId: user.id }, approved()));
    await deliverMail(t.db, { mailer: outboxMailer(dir, (l) => lines.push(l)), from: TEST_FROM, baseUrl: TEST_BASE_URL, attachments: receiptAttachments() }, id!);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`${id}\\.eml$`));
    const eml = readFileSync(path.join(dir, files[0]), 'utf8');
    expect(eml).toContain(`To: ${user.email}`);
    expect(eml).toContain('Subject: Your account has been approved - Byline');
    expect(eml).toContain('Content-Type: multipart/alternative');
    expect(eml).toContain('text/html');
    expect(lines).toEqual([expect.stringContaining(`mail to ${user.email}: "Your account has been approved - Byline"`)]);
  });
});

describe('pg-boss delivery jobs', () => {
  let jobs: Jobs;
  let downSmtpPort: number;
  const errors: Error[] = [];
  beforeAll(async () => {
    // a port that refuses connections until the "SMTP server comes back"
    const probe = await startSmtp();
    downSmtpPort = probe.port;
    await probe.close();
    jobs = await startJobs({
      handle: t.handle,
      databaseUrl: t.handle.pool?.options.connectionString,
      provider: testCheckoutProvider(t.db),
      files: diskFileStore(t.uploadsDir),
      rateLimitKeepMs: 86_400_000,
      onError: (err) => errors.push(err),
      pollingIntervalSeconds: 0.5,
    });
    await startMailJobs(jobs.boss, {
      db: t.db,
      mailer: smtpMailer(`smtp://127.0.0.1:${downSmtpPort}`),
      from: TEST_FROM,
      baseUrl: TEST_BASE_URL,
      attachments: receiptAttachments(),
      retryDelaySeconds: 1,
      retryDelayMaxSeconds: 2,
      retryLimit: 20,
      pollingIntervalSeconds: 0.5,
    });
  }, 60_000);
  afterAll(async () => {
    stopMailJobs();
    await jobs?.stop();
  });

  it('queues the delivery job on the transaction: none for a rolled-back change', async () => {
    const user = await createUser(t.db, kinds.pendingBrand);
    await expect(
      t.db.transaction(async (tx) => {
        await enqueueMail(tx, { userId: user.id }, approved());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const id = await t.db.transaction((tx) => enqueueMail(tx, { userId: user.id }, approved()));
    const found = await jobs.boss.findJobs(MAIL_JOBS.send, { key: id! });
    expect(found).toHaveLength(1);
    expect(found[0].data).toEqual({ mailId: id });
    // the rolled-back mail left no row and so no job keyed by it
    expect(await outboxRows(user.email)).toHaveLength(1);
  });

  it('SMTP down for a while: the action succeeds, retries back off, the mail arrives once when SMTP is back', async () => {
    const user = await createUser(t.db, kinds.pendingBrand);
    // the user's action succeeds while SMTP is down
    const res = await new Agent(t.app).post('/api/password/forgot', { email: user.email });
    expect(res.status).toBe(200);
    // the reset link is queued just after the answer
    expect(await until(async () => (await outboxRows(user.email)).length === 1)).toBe(true);
    const [{ id }] = await outboxRows(user.email);
    // failing attempts are recorded on the row; nothing is sent
    expect(await until(async () => ((await outboxRows(user.email))[0]?.attempts ?? 0) >= 2)).toBe(true);
    const [failing] = await outboxRows(user.email);
    expect(failing.status).toBe('pending');
    expect(failing.lastError).toMatch(/ECONNREFUSED|connect/i);

    const back = await startSmtp(downSmtpPort);
    try {
      expect(await until(() => back.to(user.email).length > 0)).toBe(true);
      // give any duplicate job a chance to show up
      await new Promise((r) => setTimeout(r, 3000));
      expect(back.to(user.email)).toHaveLength(1);
      expect(back.to(user.email)[0].messageId).toBe(`<${id}@byline.mail>`);
      const [row] = await outboxRows(user.email);
      expect(row).toMatchObject({ status: 'sent', lastError: null });
      expect(errors).toEqual([]);
    } finally {
      await back.close();
    }
  });

  it('the sweep sends a mail that was written without a job (a CLI script, a crash of the queue)', async () => {
    const user = await createUser(t.db, kinds.pendingBrand);
    const [row] = await t.db
      .insert(mailOutbox)
      .values({ kind: 'brand_approved', toAddress: user.email, data: approved('Swept'), createdAt: new Date(Date.now() - 120_000) })
      .returning();
    const back = await startSmtp(downSmtpPort);
    try {
      await jobs.boss.send(MAIL_JOBS.sweep);
      expect(await until(() => back.to(user.email).length > 0)).toBe(true);
      expect(back.to(user.email)[0].messageId).toBe(`<${row.id}@byline.mail>`);
      // a second sweep finds nothing to send
      await jobs.boss.send(MAIL_JOBS.sweep);
      await new Promise((r) => setTimeout(r, 2000));
      expect(back.to(user.email)).toHaveLength(1);
    } finally {
      await back.close();
    }
  });

  it('a backlog drains in batches: 60 mails in seconds, not one per poll', async () => {
    const user = await createUser(t.db, kinds.pendingBrand);
    const back = await startSmtp(downSmtpPort);
    try {
      const started = Date.now();
      await t.db.transaction(async (tx) => {
        for (let i = 0; i < 60; i++) await enqueueMail(tx, { userId: user.id }, approved());
      });
      // one mail per 0.5 s poll would take 30 s
      expect(await until(() => back.to(user.email).length >= 60, 10_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(back.to(user.email)).toHaveLength(60);
      expect(new Set(back.to(user.email).map((m) => m.messageId)).size).toBe(60);
    } finally {
      await back.close();
    }
  });

  it('registers the sweep every minute', async () => {
    const schedules = await jobs.boss.getSchedules();
    expect(schedules.find((s) => s.name === MAIL_JOBS.sweep)?.cron).toBe('* * * * *');
  });
});
