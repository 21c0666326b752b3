import { sql } from 'drizzle-orm';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import { defaultTermsFile } from '../../src/server/paths';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent, createTestApp } from '../support/app';
import { createTestDb } from '../support/db';
import { kinds, signedIn } from '../support/factories';

const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-terms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GET /api/terms', () => {
  it('[VISITOR] answers the shipped terms without a sign-in, and a signed-in brand gets the same', async () => {
    const t = await createTestApp();
    try {
      const res = await new Agent(t.app).get('/api/terms');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body).toEqual({ markdown: readFileSync(defaultTermsFile, 'utf8'), rules: expect.any(Object), rulesMarkdown: expect.any(String) });
      expect(res.body.markdown).toMatch(/^# Terms of Service/);
      expect(res.body.markdown).toContain('90 days');
      expect(res.body.markdown).toContain('escrow');
      // the brand's page: no note to the operator, and the cart's one payment for several (issue 57)
      expect(res.body.markdown).not.toMatch(/TERMS_FILE|Operators of a Byline/);
      expect(res.body.markdown).toContain('several at once from your cart in a single card payment');
      const brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
      expect((await brand.get('/api/terms')).body).toEqual(res.body);
    } finally {
      await t.close();
    }
  });

  it("answers the operator's TERMS_FILE as it is, raw HTML included (the client renders none)", async () => {
    const file = path.join(dir, 'our-terms.md');
    const text = '# Acme terms\n\nPay first. <script>alert(1)</script>\n';
    writeFileSync(file, text);
    const t = await createTestApp({ TERMS_FILE: file });
    try {
      const res = await new Agent(t.app).get('/api/terms');
      expect(res.status).toBe(200);
      expect(res.body.markdown).toBe(text);
    } finally {
      await t.close();
    }
  });

  it('writes the revision, cancellation and refund rules from the settings the server enforces (issue 47)', async () => {
    const t = await createTestApp({ REVISIONS_INCLUDED: 3, RESPONSE_DAYS: 5, SWAP_DAYS: 4, RESTORE_DAYS: 12, DISPUTE_DAYS: 9, REMINDER_HOURS: 36, PROMISE_MIN_DELIVERIES: 7, BRIEF_DAYS: 2, LATE_CREDIT_PERCENT: 3, LATE_CREDIT_MAX_PERCENT: 15, LATE_CANCEL_DAYS: 8, REVIEW_DAYS: 4, EDIT_DAYS: 1 });
    try {
      const res = await new Agent(t.app).get('/api/terms');
      expect(res.body.rules).toEqual({
        revisionsIncluded: 3,
        responseDays: 5,
        disputeDays: 9,
        escalateDays: 3,
        decideDays: 10,
        swapDays: 4,
        restoreDays: 12,
        publicationGuaranteeDays: 90,
        guaranteeDays: 90,
        reminderHours: 36,
        promiseMinDeliveries: 7,
        briefDays: 2,
        lateCreditPercent: 3,
        lateCreditMaxPercent: 15,
        lateCancelDays: 8,
        reviewDays: 4,
        editDays: 1,
      });
      expect(res.body.rulesMarkdown).toContain('Late credit: 3% for each business day late, up to 15%');
      expect(res.body.rulesMarkdown).toContain('Once it is 8 business days late and still not published, you can cancel it in one click');
      const late = (await t.db.execute(sql`SELECT percent, max_percent, cancel_days FROM late_credit_settings`)) as unknown as { rows: unknown[] };
      expect(late.rows).toEqual([{ percent: 3, max_percent: 15, cancel_days: 8 }]);
      expect(res.body.rulesMarkdown).toContain('Once an outlet has 7 deliveries with Byline');
      expect(res.body.rulesMarkdown).toContain('It counts 2 days for your brief, in business days');
      // and where the database's promise reads them (written at boot)
      const settings = (await t.db.execute(sql`SELECT min_deliveries, brief_days, review_days, edit_days FROM promise_settings`)) as unknown as { rows: unknown[] };
      expect(settings.rows).toEqual([{ min_deliveries: 7, brief_days: 2, review_days: 4, edit_days: 1 }]);
      expect(res.body.rulesMarkdown).toContain('your review of a draft (4 days), each round of edits (the editorial team: 1 day)');
      expect(res.body.rulesMarkdown).toContain('from its first draft until 9 days after it is published');
      expect(res.body.rulesMarkdown).toContain('Each placement includes 3 rounds of edits on its draft ("Revision 1 of 3").');
      expect(res.body.rulesMarkdown).toContain('answers within 5 days');
      expect(res.body.rulesMarkdown).toContain('you have 4 days to choose an alternative');
      expect(res.body.rulesMarkdown).toContain('the outlet has 12 days to restore it');
      expect(res.body.rulesMarkdown).toContain('Nothing happens on its own without warning: 36 hours before');
    } finally {
      await t.close();
    }
  });

  it('refuses to start with a TERMS_FILE that is missing, empty or not text, naming the variable', async () => {
    const empty = path.join(dir, 'empty.md');
    writeFileSync(empty, '  \n');
    const binary = path.join(dir, 'binary.md');
    writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]));
    const handle = await createTestDb();
    try {
      for (const [file, why] of [
        [path.join(dir, 'missing.md'), /Cannot read TERMS_FILE/],
        [empty, /TERMS_FILE .* is empty/],
        [binary, /TERMS_FILE .* is not UTF-8 text/],
      ] as const) {
        const config = { ...configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dir }), TERMS_FILE: file };
        await expect(
          buildApp({ db: handle.db, config, files: diskFileStore(path.join(dir, 'uploads')) }),
          file,
        ).rejects.toThrow(why);
      }
    } finally {
      await handle.close();
    }
  });
});
