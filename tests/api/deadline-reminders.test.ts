/**
 * A reminder before every automatic step (issue 59), REMINDER_HOURS (24) before it, once however
 * many instances run the timers: the guarantee's refund of a placement not published and a
 * cancellation request granted for want of an answer go to the team (the placement's editor, else
 * every admin); a declined placement's refund goes to the brand, who can still choose. Nothing before
 * the window, nothing for a step that can no longer happen. What is sent is rendered.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancellations, mailOutbox, payments, placementEvents, placements, users } from '../../src/server/db/schema';
import { renderMail, type MailData } from '../../src/server/mail/templates';
import { runPlacementTimers, type TimerTerms } from '../../src/server/modules/timeline/timers';
import { GUARANTEE_DAYS } from '../../src/shared/constants';
import type { TimelineEntry } from '../../src/shared/timeline';
import type { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
let brandEmail: string;
let admin: Agent;
let editor: { id: string; email: string };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TERMS: TimerTerms = { briefReminderDays: [], reviewReminderDays: 365, autoApproveDays: 0, reminderHours: 24 };
/** Two instances running the timers at the same moment. */
const twice = (now: Date) => Promise.all([runPlacementTimers(t.db, TERMS, now), runPlacementTimers(t.db, TERMS, now)]);

beforeAll(async () => {
  t = await createPaymentsTestApp();
  const b = await signedIn(t.app, t.db, kinds.approvedBrand);
  brand = b.agent;
  brandEmail = b.user.email;
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  const e = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Eve Editor' });
  editor = { id: e.user.id, email: e.user.email };
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

const remindersOf = (id: string) =>
  t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'deadline_reminder')));
const mailsOf = (id: string) =>
  t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'deadline_reminder'), sql`${mailOutbox.data} ->> 'paymentId' = ${id}`));
const adminAddresses = async () => (await t.db.select({ email: users.email }).from(users).where(eq(users.role, 'admin'))).map((u) => u.email).sort();

describe('the guarantee’s refund', () => {
  it('is announced to every admin 24 hours before, once, when no one edits the placement', async () => {
    const { id, paidAt } = await buy();
    const refundAt = new Date(paidAt.getTime() + GUARANTEE_DAYS * DAY);
    await twice(new Date(refundAt.getTime() - 25 * HOUR));
    expect(await remindersOf(id)).toHaveLength(0);
    await twice(new Date(refundAt.getTime() - 23 * HOUR));
    await twice(new Date(refundAt.getTime() - 2 * HOUR));
    const reminders = await remindersOf(id);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].details).toMatchObject({ step: `guarantee@${refundAt.toISOString()}`, deadline: 'guarantee', at: refundAt.toISOString() });
    const mails = await mailsOf(id);
    expect(mails.map((m) => m.toAddress).sort()).toEqual(await adminAddresses());
    const rendered = renderMail(mails[0].data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.subject).toMatch(/^Publish by .+ UTC or it is refunded: /);
    expect(rendered.text).toContain('refunds the brand in full, automatically');
    expect(rendered.text).toContain(`/admin/projects/${id}`);
    // both sides read it on the timeline
    const timeline = (await brand.get<TimelineEntry[]>(`/api/brand/placements/${id}/timeline`)).body;
    expect(timeline.filter((e) => e.kind === 'deadline_reminder').map((e) => e.actor)).toEqual([{ type: 'system', name: 'Byline' }]);
  });

  it('goes to the placement’s editor alone when it has one, and never to a published or refunded one', async () => {
    const edited = await buy();
    expect((await admin.put(`/api/admin/placements/${edited.id}/assignee`, { adminId: editor.id })).status).toBe(200);
    const refunded = await buy();
    await t.db.update(payments).set({ status: 'refunded' }).where(eq(payments.id, refunded.id));
    await t.db.update(placements).set({ state: 'refunded' }).where(eq(placements.id, refunded.id));
    const now = new Date(edited.paidAt.getTime() + GUARANTEE_DAYS * DAY - 12 * HOUR);
    await twice(now);
    expect((await mailsOf(edited.id)).map((m) => m.toAddress)).toEqual([editor.email]);
    expect(await remindersOf(refunded.id)).toHaveLength(0);
    // past the step, nothing more is sent
    await twice(new Date(now.getTime() + 13 * HOUR));
    expect(await mailsOf(edited.id)).toHaveLength(1);
  });
});

describe('a cancellation request', () => {
  it('reminds the team 24 hours before it is granted for want of an answer', async () => {
    const { id } = await buy();
    expect((await admin.post(`/api/admin/placements/${id}/writing-started`, {})).status).toBe(200);
    const asked = await brand.post(`/api/brand/placements/${id}/cancel`, { reason: 'Our launch moved' });
    expect(asked.status, asked.text).toBeLessThan(300);
    const [c] = await t.db.select().from(cancellations).where(eq(cancellations.placementId, id));
    expect(c.status).toBe('requested');
    // the admin who marked the writing started edits it: the reminder is theirs
    await twice(new Date(c.respondBy.getTime() - 30 * HOUR));
    expect(await mailsOf(id)).toHaveLength(0);
    await twice(new Date(c.respondBy.getTime() - 20 * HOUR));
    const mails = await mailsOf(id);
    expect(mails).toHaveLength(1);
    const [assigned] = await t.db.select({ email: users.email }).from(placements).innerJoin(users, eq(users.id, placements.assigneeId)).where(eq(placements.id, id));
    expect(mails[0].toAddress).toBe(assigned.email);
    const rendered = renderMail(mails[0].data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.subject).toMatch(/^Answer the cancellation request by /);
    expect(rendered.text).toContain('the request is granted in full, automatically');
  });
});

describe('a declined placement', () => {
  it('reminds the brand to choose an alternative 24 hours before it is refunded', async () => {
    const { id } = await buy();
    const declined = await admin.post(`/api/admin/placements/${id}/decline`, { reason: 'The outlet paused sponsored posts' });
    expect(declined.status, declined.text).toBe(200);
    const [p] = await t.db.select({ swapBy: placements.swapBy }).from(placements).where(eq(placements.id, id));
    await twice(new Date(p.swapBy!.getTime() - HOUR));
    const mails = (await mailsOf(id)).filter((m) => (m.data as { step: string }).step === 'swap');
    expect(mails.map((m) => m.toAddress)).toEqual([brandEmail]);
    const rendered = renderMail(mails[0].data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.subject).toMatch(/^Choose an alternative by /);
    expect(rendered.text).toContain(`/brand/my-articles/${id}`);
  });
});
