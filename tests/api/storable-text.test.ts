/**
 * Text PostgreSQL cannot store as sent: NUL (refused in text and jsonb: a 500 before this check)
 * and lone UTF-16 surrogates (silently turned into U+FFFD on the way to the database, so what the
 * user saved would not be what they typed). Every field below is sent through the real API by the
 * caller allowed to use it: the answer is a 400 naming the field, and the database is unchanged.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIEF_PART1_FIELDS, BRIEF_PART2_FIELDS } from '../../src/shared/schemas/brief';
import { briefs, inviteCodes, mailOutbox, opportunities, passwordResetTokens, payments, sessions, users } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { PART1, PART2, purchase, submittedBrief } from '../support/content';
import { PASSWORD, createUser, kinds } from '../support/factories';
import { createOpportunity, quickBrands } from '../support/payments';

/** The answer's wording (written out rather than imported: the API answer is the contract). */
const MESSAGE = 'Contains a character that cannot be saved';

/** Each unstorable character, put inside an otherwise valid value. */
const BAD = [
  ['NUL', '\u0000'],
  ['a lone surrogate', '\ud800'],
] as const;

/** `valid` with `bad` inserted before its last character, so trimming cannot remove it. */
const taint = (valid: string, bad: string) => `${valid.slice(0, -1)}${bad}${valid.slice(-1)}`;

const COMPLETE = { name: 'Jane Brand', brandName: 'Acme Coffee', website: 'https://acme.example.com' };
const DOC_URL = 'https://docs.example.com/document/d/abc/edit';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const OPPORTUNITY = {
  outletName: 'The Daily Planet',
  outletUrl: 'https://dailyplanet.example.com',
  title: 'Founder profile in the business section',
  description: 'An in-depth profile written by our staff.',
  type: ['profile_article'],
  tat: '2-3 weeks',
  priceUsd: '2500.00',
  maxSlots: 3,
  deadlineDate: day(30),
};

let t: TestApp;
let admin: Agent;
let brand: { user: typeof users.$inferSelect; agent: Agent };
let inviteCode: string;

beforeAll(async () => {
  t = await createTestApp();
  // sessions made directly: the sign-in routes are under test here and may be rate-limited
  [[{ agent: admin }], [brand]] = await Promise.all([
    quickBrands(t.app, t.db, 1, kinds.admin),
    quickBrands(t.app, t.db, 1, kinds.approvedBrand),
  ]);
  const [code] = await t.db.insert(inviteCodes).values({ code: 'WELCOME-24' }).returning();
  inviteCode = code.code;
});
afterAll(() => t?.close());

interface Case {
  method: 'POST' | 'PATCH';
  url: string;
  body: unknown;
  /** the key of `errors` the refusal must name */
  field: string;
}

/** Sends the case and checks the refusal; `snapshot` reads what must not change. */
async function refused(agent: Agent, c: Case, snapshot: () => Promise<unknown>) {
  const before = await snapshot();
  const res = await agent.request(c.method, c.url, c.body);
  expect(res.status, res.text).toBe(400);
  expect(res.body.errors).toEqual({ [c.field]: MESSAGE });
  expect(res.body.message).toBe(MESSAGE);
  expect(await snapshot()).toEqual(before);
}

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];
const paymentRow = async (id: string) => (await t.db.select().from(payments).where(eq(payments.id, id)))[0];
const briefOf = async (paymentId: string) => (await t.db.select().from(briefs).where(eq(briefs.placementId, paymentId)))[0] ?? null;
const opportunityRow = async (id: string) => (await t.db.select().from(opportunities).where(eq(opportunities.id, id)))[0];

describe.each(BAD)('text with %s is refused with 400 and nothing is saved', (_label, bad) => {
  describe('PATCH /api/user/profile', () => {
    it.each([
      ['name', COMPLETE.name],
      ['brandName', COMPLETE.brandName],
      ['website', `${COMPLETE.website}/about`],
    ])('profile completion: %s', async (field, valid) => {
      const [unnamed] = await quickBrands(t.app, t.db, 1, kinds.unnamedBrand);
      const body = { ...COMPLETE, [field]: taint(valid, bad) };
      await refused(unnamed.agent, { method: 'PATCH', url: '/api/user/profile', body, field }, () => userRow(unnamed.user.id));
    });

    it('profile completion: inviteCode', async () => {
      const [unnamed] = await quickBrands(t.app, t.db, 1, kinds.unnamedBrand);
      const body = { ...COMPLETE, inviteCode: taint(inviteCode, bad) };
      await refused(unnamed.agent, { method: 'PATCH', url: '/api/user/profile', body, field: 'inviteCode' }, async () => [
        await userRow(unnamed.user.id),
        await t.db.select().from(inviteCodes),
      ]);
    });

    it.each([
      ['name', COMPLETE.name],
      ['brandName', COMPLETE.brandName],
      ['website', `${COMPLETE.website}/about`],
    ])('profile edit: %s', async (field, valid) => {
      const body = { ...COMPLETE, [field]: taint(valid, bad) };
      await refused(brand.agent, { method: 'PATCH', url: '/api/user/profile', body, field }, () => userRow(brand.user.id));
    });
  });

  describe('briefs', () => {
    const fields = [
      ...BRIEF_PART1_FIELDS.map((f) => ['part1Json', f] as const),
      ...BRIEF_PART2_FIELDS.map((f) => ['part2Json', f] as const),
    ];
    let paymentId: string;
    beforeAll(async () => {
      paymentId = (await purchase(t.db, brand.user.id)).id;
      // a saved draft, so "unchanged" means more than "still missing"
      const saved = await brand.agent.post(`/api/brand/brief/${paymentId}`, { part1Json: PART1 });
      expect(saved.status).toBe(200);
    });

    it.each(fields)('save: %s.%s', async (part, field) => {
      const body = { [part]: { ...(part === 'part1Json' ? PART1 : PART2), [field]: taint('Some text', bad) } };
      await refused(brand.agent, { method: 'POST', url: `/api/brand/brief/${paymentId}`, body, field: `${part}.${field}` }, () =>
        briefOf(paymentId),
      );
    });

    it.each(fields)('submit: %s.%s', async (part, field) => {
      const body = { part1Json: PART1, part2Json: PART2, [part]: { ...(part === 'part1Json' ? PART1 : PART2), [field]: taint('Some text', bad) } };
      await refused(
        brand.agent,
        { method: 'POST', url: `/api/brand/brief/${paymentId}/submit`, body, field: `${part}.${field}` },
        () => briefOf(paymentId),
      );
    });
  });

  it('POST /api/brand/projects/:paymentId/request-edits: feedback', async () => {
    const p = await purchase(t.db, brand.user.id, { draftReviewStatus: 'pending_brand_review', draftDocumentUrl: DOC_URL });
    await submittedBrief(t.db, p);
    const body = { feedback: taint('Add a quote from the CEO', bad) };
    await refused(brand.agent, { method: 'POST', url: `/api/brand/projects/${p.id}/request-edits`, body, field: 'feedback' }, async () => [
      await paymentRow(p.id),
      await t.db.$count(mailOutbox),
    ]);
  });

  describe('admin opportunities', () => {
    const fields = ['outletName', 'title', 'description', 'tat'] as const;

    it.each(fields)('create: %s', async (field) => {
      const body = { ...OPPORTUNITY, [field]: taint(OPPORTUNITY[field], bad) };
      await refused(admin, { method: 'POST', url: '/api/admin/opportunities', body, field }, () => t.db.$count(opportunities));
    });

    it.each(fields)('update: %s', async (field) => {
      const { id } = await createOpportunity(t.db, { maxSlots: 3 });
      const body = { ...OPPORTUNITY, [field]: taint(OPPORTUNITY[field], bad) };
      await refused(admin, { method: 'PATCH', url: `/api/admin/opportunities/${id}`, body, field }, () => opportunityRow(id));
    });
  });

  it('PATCH /api/admin/payments/:id/status: draftDocumentUrl', async () => {
    const p = await purchase(t.db, brand.user.id);
    await submittedBrief(t.db, p);
    const body = { draftDocumentUrl: taint(DOC_URL, bad) };
    await refused(admin, { method: 'PATCH', url: `/api/admin/payments/${p.id}/status`, body, field: 'draftDocumentUrl' }, async () => [
      await paymentRow(p.id),
      await t.db.$count(mailOutbox),
    ]);
  });

  it('POST /api/admin/invite-codes: code', async () => {
    const body = { code: taint('SPRING-SALE', bad) };
    await refused(admin, { method: 'POST', url: '/api/admin/invite-codes', body, field: 'code' }, () => t.db.select().from(inviteCodes));
  });

  describe('signing in, signing up, forgotten password (as a visitor)', () => {
    it.each([
      ['email', 'jane@example.com'],
      ['password', PASSWORD],
    ])('POST /api/login: %s', async (field, valid) => {
      const user = await createUser(t.db);
      const body = { email: user.email, password: PASSWORD, [field]: taint(valid, bad) };
      await refused(new Agent(t.app), { method: 'POST', url: '/api/login', body, field }, async () => [
        await userRow(user.id),
        await t.db.select().from(sessions).where(eq(sessions.userId, user.id)),
      ]);
    });

    it.each([
      ['email', 'newcomer@example.com'],
      ['password', PASSWORD],
    ])('POST /api/register: %s', async (field, valid) => {
      const body = { email: `newcomer-${bad === '\u0000' ? 'nul' : 'surrogate'}@example.com`, password: PASSWORD, [field]: taint(valid, bad) };
      await refused(new Agent(t.app), { method: 'POST', url: '/api/register', body, field }, () => t.db.$count(users));
    });

    it('POST /api/password/forgot: email', async () => {
      const user = await createUser(t.db);
      const body = { email: taint(user.email, bad) };
      await refused(new Agent(t.app), { method: 'POST', url: '/api/password/forgot', body, field: 'email' }, async () => [
        await t.db.$count(passwordResetTokens),
        await t.db.$count(mailOutbox),
      ]);
    });
  });
});

describe('text without such characters is saved as sent', () => {
  it('a brief draft keeps other control characters, RTL marks, emoji and U+FFFD', async () => {
    const { id } = await purchase(t.db, brand.user.id);
    const text = 'tab\there \u0001\u001f\u007f \u202eevil\u202c 😀 \ufffd ﷺ';
    const res = await brand.agent.post(`/api/brand/brief/${id}`, { part1Json: { ...PART1, inspiration: text } });
    expect(res.status).toBe(200);
    expect((await briefOf(id))?.part1Json).toMatchObject({ inspiration: text });
  });
});
