/**
 * The workflow's timers with a controlled clock: brief reminders on days 3 and 7, a review
 * reminder on day 5 and the automatic approval on day 7, each exactly once though two instances
 * run at the same moment; none with AUTO_APPROVE_DAYS=0. What the brand receives is rendered.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefs, mailOutbox, opportunities, payments, placementEvents } from '../../src/server/db/schema';
import type { AdminPlacementItem } from '../../src/shared/schemas/brief';
import { renderMail, type MailData } from '../../src/server/mail/templates';
import { runPlacementTimers, type TimerTerms } from '../../src/server/modules/timeline/timers';
import type { TimelineEntry } from '../../src/shared/timeline';
import type { Agent } from '../support/app';
import { PART1, PART2, paymentRow } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
let brandEmail: string;
let admin: Agent;

const DAY = 86_400_000;
const TERMS: TimerTerms = { briefReminderDays: [3, 7], reviewReminderDays: 5, autoApproveDays: 7, reminderHours: 24 };

beforeAll(async () => {
  t = await createPaymentsTestApp();
  const b = await signedIn(t.app, t.db, kinds.approvedBrand);
  brand = b.agent;
  brandEmail = b.user!.email;
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
});
afterAll(() => t.close());

async function buy(): Promise<{ id: string; paidAt: Date }> {
  const opp = await createOpportunity(t.db, { maxSlots: 10 });
  const res = await brand.post('/api/payments/checkout', { opportunityId: opp.id });
  const sessionId = sessionIdOf(res.body.url);
  expect((await brand.post(`/api/payments/checkout/${sessionId}/pay`)).status).toBe(200);
  const [row] = await t.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
  return { id: row.id, paidAt: row.paidAt };
}

/** Mails of a kind about one placement, to the brand. */
const mailsOf = async (kind: string, paymentId: string, to = brandEmail) =>
  t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.toAddress, to), sql`${mailOutbox.data} ->> 'paymentId' = ${paymentId}`));
const remindersOf = async (paymentId: string, kind: 'brief_reminder' | 'review_reminder') =>
  t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, paymentId), eq(placementEvents.kind, kind)));
// 1 ms on: PostgreSQL keeps microseconds, a Date read back has them cut off
const at = (start: Date, days: number) => new Date(start.getTime() + days * DAY + 1);
/** Two instances running the timers at the same moment. */
const twice = (now: Date, terms = TERMS) => Promise.all([runPlacementTimers(t.db, terms, now), runPlacementTimers(t.db, terms, now)]);

describe('brief reminders', () => {
  it('reminds on day 3 and day 7, once each, and stops once the brief is in', async () => {
    const { id, paidAt } = await buy();
    await twice(at(paidAt, 2.9));
    expect(await remindersOf(id, 'brief_reminder')).toHaveLength(0);
    await twice(at(paidAt, 3));
    expect((await remindersOf(id, 'brief_reminder')).map((e) => e.details)).toEqual([{ day: 3, step: 'day3' }]);
    expect(await mailsOf('brief_reminder', id)).toHaveLength(1);
    await twice(at(paidAt, 5));
    expect(await mailsOf('brief_reminder', id)).toHaveLength(1);
    await twice(at(paidAt, 7.2));
    expect((await remindersOf(id, 'brief_reminder')).map((e) => e.details)).toEqual([
      { day: 3, step: 'day3' },
      { day: 7, step: 'day7' },
    ]);
    const mails = await mailsOf('brief_reminder', id);
    expect(mails).toHaveLength(2);
    const rendered = renderMail(mails[1].data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.subject).toMatch(/^Your brief is still waiting: /);
    expect(rendered.text).toContain(`/brand/brief/${id}`);
    // the timeline says Byline sent them
    const timeline = (await brand.get<TimelineEntry[]>(`/api/brand/projects/${id}/timeline`)).body;
    expect(timeline.filter((e) => e.kind === 'brief_reminder').map((e) => e.actor)).toEqual([
      { type: 'system', name: 'Byline' },
      { type: 'system', name: 'Byline' },
    ]);
  });

  it('sends only the latest step due after a pause, and none once the brief is submitted', async () => {
    const late = await buy();
    await twice(at(late.paidAt, 8));
    expect((await remindersOf(late.id, 'brief_reminder')).map((e) => e.details.day)).toEqual([7]);

    const done = await buy();
    expect((await brand.post(`/api/brand/brief/${done.id}/submit`, { part1Json: PART1, part2Json: PART2 })).status).toBe(200);
    await twice(at(done.paidAt, 3));
    expect(await remindersOf(done.id, 'brief_reminder')).toHaveLength(0);
  });
});

describe('review reminder and automatic approval', () => {
  async function withDraft() {
    const p = await buy();
    expect((await brand.post(`/api/brand/brief/${p.id}/submit`, { part1Json: PART1, part2Json: PART2 })).status).toBe(200);
    expect((await admin.patch(`/api/admin/payments/${p.id}/status`, { draftDocumentUrl: 'https://docs.example.com/d' })).status).toBe(200);
    const [attached] = await t.db
      .select()
      .from(placementEvents)
      .where(and(eq(placementEvents.placementId, p.id), eq(placementEvents.kind, 'draft_attached')));
    return { id: p.id, attachedAt: attached.at };
  }

  it('reminds on day 5 naming the approval day, approves on day 7 exactly once, and tells both sides', async () => {
    const { id, attachedAt } = await withDraft();
    await twice(at(attachedAt, 4.9));
    expect(await remindersOf(id, 'review_reminder')).toHaveLength(0);
    await twice(at(attachedAt, 5));
    const [reminder] = await remindersOf(id, 'review_reminder');
    expect(reminder.details).toMatchObject({ round: 1, step: 'round1' });
    expect(Math.abs(Date.parse(reminder.details.autoApproveOn as string) - at(attachedAt, 7).getTime())).toBeLessThan(2);
    const [mail] = await mailsOf('review_reminder', id);
    const text = renderMail(mail.data as unknown as MailData, 'https://portal.byline.test').text;
    expect(text).toContain('it will be approved automatically on');

    await twice(at(attachedAt, 6.99));
    expect((await paymentRow(t.db, id)).draftReviewStatus).toBe('pending_brand_review');
    const results = await twice(at(attachedAt, 7));
    // the timers run over every placement (other tests' drafts may fall due too): exactly once for
    // this one is told by its timeline and its mails below
    expect(results.map((r) => r.autoApproved).reduce((a, b) => a + b)).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(t.db, id)).draftReviewStatus).toBe('approved');
    const approvals = (await admin.get<TimelineEntry[]>(`/api/admin/projects/${id}/timeline`)).body.filter((e) => e.kind === 'approved');
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ actor: { type: 'system', name: 'Byline' }, details: { automatic: true, round: 1 } });
    expect(await mailsOf('auto_approved', id)).toHaveLength(1);
    expect(await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'auto_approved'), sql`${mailOutbox.data} ->> 'forAdmin' = 'true'`, sql`${mailOutbox.data} ->> 'paymentId' = ${id}`))).not.toHaveLength(0);
    // nothing more later
    await twice(at(attachedAt, 30));
    expect(await remindersOf(id, 'review_reminder')).toHaveLength(1);
  });

  it('waits on the team, not the brand, while edits are requested; a new round starts the clock again', async () => {
    const { id, attachedAt } = await withDraft();
    expect((await brand.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'More numbers' })).status).toBe(200);
    await twice(at(attachedAt, 10));
    expect(await remindersOf(id, 'review_reminder')).toHaveLength(0);
    expect((await admin.post(`/api/admin/projects/${id}/mark-edits-complete`)).status).toBe(200);
    const [completed] = await t.db
      .select()
      .from(placementEvents)
      .where(and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'edits_completed')));
    await twice(at(completed.at, 5));
    expect((await remindersOf(id, 'review_reminder')).map((e) => e.details.step)).toEqual(['round2']);
  });

  it('never approves by itself with AUTO_APPROVE_DAYS=0, and the reminder names no date', async () => {
    const { id, attachedAt } = await withDraft();
    const never = { ...TERMS, autoApproveDays: 0 };
    await twice(at(attachedAt, 5), never);
    await twice(at(attachedAt, 400), never);
    expect((await paymentRow(t.db, id)).draftReviewStatus).toBe('pending_brand_review');
    const [mail] = await mailsOf('review_reminder', id);
    const text = renderMail(mail.data as unknown as MailData, 'https://portal.byline.test').text;
    expect(text).not.toContain('automatically');
  });
});

describe('overdue drafts', () => {
  it("shows admins a project as Overdue once the turnaround has passed since the brief, and not before", async () => {
    const { id } = await buy();
    expect((await brand.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 })).status).toBe(200);
    const overdueOf = async () => {
      const items: AdminPlacementItem[] = [];
      let url: string | undefined = '/api/admin/projects?limit=200';
      while (url) {
        const res: Awaited<ReturnType<typeof admin.get<AdminPlacementItem[]>>> = await admin.get<AdminPlacementItem[]>(url);
        items.push(...res.body);
        url = res.headers.link ? /<([^>]+)>/.exec(res.headers.link as string)![1] : undefined;
      }
      return items.find((i) => i.payment.id === id)!.overdue;
    };
    const submittedDaysAgo = (days: number) =>
      t.db.update(briefs).set({ submittedAt: new Date(Date.now() - days * DAY) }).where(eq(briefs.placementId, id));
    expect(await overdueOf()).toBe(false);
    await submittedDaysAgo(13);
    expect(await overdueOf()).toBe(false);
    // no turnaround in days: 14
    await submittedDaysAgo(15);
    expect(await overdueOf()).toBe(true);
    // the opportunity's turnaround when it states one
    const [{ opportunityId }] = await t.db.select({ opportunityId: payments.opportunityId }).from(payments).where(eq(payments.id, id));
    await t.db.update(opportunities).set({ tatDays: 30 }).where(eq(opportunities.id, opportunityId));
    expect(await overdueOf()).toBe(false);
    await t.db.update(opportunities).set({ tatDays: 7 }).where(eq(opportunities.id, opportunityId));
    expect(await overdueOf()).toBe(true);
    // a draft attached: no longer overdue
    expect((await admin.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/d' })).status).toBe(200);
    expect(await overdueOf()).toBe(false);
  });
});
