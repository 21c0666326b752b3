import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteCodes, mailOutbox, payments, users } from '../../src/server/db/schema';
import { refundOverduePayments } from '../../src/server/modules/payments/refunds';
import { Agent } from '../support/app';
import { PART1, PART2, submittedBrief } from '../support/content';
import { kinds, signedIn, uniqueEmail } from '../support/factories';
import { linksIn, runMailWorker, startSmtp, TEST_BASE_URL, type ReceivedMail, type TestSmtp } from '../support/mail';
import { createOpportunity, createPaymentsTestApp, makePayment, quickBrands, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let smtp: TestSmtp;
let admins: Awaited<ReturnType<typeof signedIn>>[];
beforeAll(async () => {
  t = await createPaymentsTestApp();
  smtp = await startSmtp();
  admins = [await signedIn(t.app, t.db, kinds.admin), await signedIn(t.app, t.db, kinds.admin)];
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

/** Runs the mail worker and returns the mails that arrived for `to` since `since`. */
async function delivered(to: string, since = 0): Promise<ReceivedMail[]> {
  await runMailWorker(t.db, smtp);
  return smtp.to(to).slice(since);
}

/** One mail: recipient, subject, the action link in both parts, the portal's name, and the given texts. */
function expectMail(mail: ReceivedMail | undefined, expected: { subject: string; path: string; text?: string[]; html?: string[] }) {
  expect(mail, expected.subject).toBeDefined();
  expect(mail!.subject).toBe(`${expected.subject} - Byline`);
  const link = `${TEST_BASE_URL}${expected.path}`;
  expect(linksIn(mail!.text)).toContain(link);
  expect(mail!.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
  expect(mail!.text).toContain('Byline');
  expect(mail!.html).toContain('Byline');
  expect(mail!.html).toMatch(/^<!doctype html>/);
  for (const s of expected.text ?? []) expect(mail!.text).toContain(s);
  for (const s of expected.html ?? []) expect(mail!.html).toContain(s);
}

/** The mails that arrived for each admin since the marks, all expected to be the same one. */
async function adminMails(marks: number[]) {
  await runMailWorker(t.db, smtp);
  return admins.map((a, i) => smtp.to(a.user.email).slice(marks[i]));
}
const adminMarks = () => admins.map((a) => smtp.to(a.user.email).length);

describe('onboarding mails', () => {
  it('sign-up: the brand hears it is under review, every admin that a brand waits; approval tells the brand once', async () => {
    const email = uniqueEmail('signup');
    const brand = new Agent(t.app);
    const marks = adminMarks();
    expect((await brand.post('/api/register', { email, password: 'a-good-password' })).status).toBe(201);
    const profile = await brand.patch('/api/user/profile', { name: 'Jo <script>x</script>', brandName: 'Acme & Co', website: 'https://acme.example.com' });
    expect(profile.status).toBe(200);

    const [received] = await delivered(email);
    expectMail(received, {
      subject: 'We received your sign-up',
      path: '/pending-approval',
      text: ['Hi Jo <script>x</script>,', 'Acme & Co', 'under review'],
      html: ['Hi Jo &lt;script&gt;x&lt;/script&gt;,', 'Acme &amp; Co'],
    });
    expect(received.to).toEqual([email]);
    expect(received.html).not.toContain('<script>');

    for (const mails of await adminMails(marks)) {
      expect(mails).toHaveLength(1);
      expectMail(mails[0], {
        subject: 'New brand waiting for approval: Acme & Co',
        path: '/admin/approvals',
        text: [email, 'https://acme.example.com'],
        html: ['Acme &amp; Co'],
      });
    }

    const id = profile.body.id as string;
    expect((await admins[0].agent.post(`/api/admin/approve-brand/${id}`)).status).toBe(200);
    expect((await admins[0].agent.post(`/api/admin/approve-brand/${id}`)).status).toBe(200);
    const approved = await delivered(email, 1);
    expect(approved).toHaveLength(1);
    expectMail(approved[0], { subject: 'Your account has been approved', path: '/brand/opportunities', text: ['our team has approved'] });
  });

  it('an invite code approves at once: the brand gets the approval mail, the admins nothing', async () => {
    await t.db.insert(inviteCodes).values({ code: 'MAILTEST-1' });
    const email = uniqueEmail('invited');
    const brand = new Agent(t.app);
    const marks = adminMarks();
    await brand.post('/api/register', { email, password: 'a-good-password' });
    const res = await brand.patch('/api/user/profile', { name: 'Ivy', brandName: 'Invited Inc', website: 'https://invited.example.com', inviteCode: 'mailtest-1' });
    expect(res.body.autoApproved).toBe(true);
    const mails = await delivered(email);
    expect(mails).toHaveLength(1);
    expectMail(mails[0], { subject: 'Your account has been approved', path: '/brand/opportunities', text: ['Hi Ivy,', 'invite code was accepted'] });
    expect((await adminMails(marks)).flat()).toEqual([]);
  });
});

describe("a placement's life", () => {
  it('payment, brief, draft, edits, approval and release each tell the right people', async () => {
    const opp = await createOpportunity(t.db, { title: 'Robots <at> home', outletName: 'Ledger & Sons', priceUsd: '1250.50', maxSlots: 3 });
    const [{ agent: brand, user }] = await quickBrands(t.app, t.db, 1, { brandName: 'Bolt <Robotics>' });
    const admin = admins[0].agent;
    let marks = adminMarks();

    // payment received (receipt) + new paid placement
    const checkout = await brand.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(checkout.status).toBe(200);
    const paid = await brand.post(`/api/payments/checkout/${sessionIdOf(checkout.body.url)}/pay`);
    expect(paid.status).toBe(200);
    const paymentId = paid.body.paymentId as string;
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, paymentId));
    const paidOn = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(payment.paidAt);
    const guarantee = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(payment.paidAt.getTime() + 90 * 86_400_000));
    const [receipt] = await delivered(user.email);
    expectMail(receipt, {
      subject: 'Payment received: Robots <at> home',
      path: `/brand/brief/${paymentId}`,
      text: ['Outlet: Ledger & Sons', 'Placement: Robots <at> home', 'Amount: $1,250.50', `Date: ${paidOn}`, `Refund guarantee until: ${guarantee}`],
      html: ['Ledger &amp; Sons', 'Robots &lt;at&gt; home', '$1,250.50'],
    });
    // the provider's id of the charge is the team's, not the brand's (issue 57)
    expect(receipt!.text).not.toContain(payment.stripePaymentId);
    expect(receipt!.html).not.toContain(payment.stripePaymentId);
    for (const mails of await adminMails(marks)) {
      expect(mails).toHaveLength(1);
      expectMail(mails[0], { subject: 'New paid placement: Robots <at> home', path: '/admin/projects', text: ['Bolt <Robotics> has paid $1,250.50', user.email], html: ['Bolt &lt;Robotics&gt;'] });
    }

    // brief submitted
    marks = adminMarks();
    expect((await brand.post(`/api/brand/brief/${paymentId}/submit`, { part1Json: PART1, part2Json: PART2 })).status).toBe(200);
    for (const mails of await adminMails(marks)) {
      expect(mails).toHaveLength(1);
      expectMail(mails[0], { subject: 'Brief submitted: Robots <at> home', path: '/admin/projects', text: ['Bolt <Robotics> has submitted the brief'] });
    }

    // draft ready for review
    let seen = smtp.to(user.email).length;
    expect((await admin.patch(`/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.example.com/draft-1' })).status).toBe(200);
    let mails = await delivered(user.email, seen);
    expect(mails).toHaveLength(1);
    expectMail(mails[0], { subject: 'Your draft is ready for review: Robots <at> home', path: '/brand/my-articles', text: ['approve it or request edits'] });

    // edits requested, with the feedback (escaped in the HTML)
    marks = adminMarks();
    const feedback = 'Please fix <b>the intro</b> & the quote\nSecond line';
    expect((await brand.post(`/api/brand/projects/${paymentId}/request-edits`, { feedback })).status).toBe(200);
    for (const m of await adminMails(marks)) {
      expect(m).toHaveLength(1);
      expectMail(m[0], {
        subject: 'Edits requested: Robots <at> home',
        path: '/admin/projects',
        text: ['> Please fix <b>the intro</b> & the quote', '> Second line'],
        html: ['Please fix &lt;b&gt;the intro&lt;/b&gt; &amp; the quote'],
      });
      expect(m[0].html).not.toContain('<b>the intro');
    }

    // edits marked complete → please re-review
    seen = smtp.to(user.email).length;
    expect((await admin.post(`/api/admin/projects/${paymentId}/mark-edits-complete`)).status).toBe(200);
    mails = await delivered(user.email, seen);
    expect(mails).toHaveLength(1);
    expectMail(mails[0], { subject: 'Edits complete, please re-review: Robots <at> home', path: '/brand/my-articles', text: ['edits you requested'] });

    // draft approved
    marks = adminMarks();
    expect((await brand.post(`/api/brand/projects/${paymentId}/approve`)).status).toBe(200);
    for (const m of await adminMails(marks)) {
      expect(m).toHaveLength(1);
      expectMail(m[0], { subject: 'Draft approved: Robots <at> home', path: '/admin/projects', text: ['Bolt <Robotics> has approved the draft'] });
    }

    // published and payment released
    seen = smtp.to(user.email).length;
    expect((await admin.post(`/api/admin/payments/${paymentId}/release`)).status).toBe(200);
    mails = await delivered(user.email, seen);
    expect(mails).toHaveLength(1);
    expectMail(mails[0], { subject: 'Your article is published: Robots <at> home', path: '/brand/my-articles', text: ['$1,250.50 held in escrow has been released'] });

    // a refused move sends nothing
    seen = smtp.to(user.email).length;
    expect((await admin.post(`/api/admin/payments/${paymentId}/release`)).status).toBe(409);
    expect(await delivered(user.email, seen)).toEqual([]);
  });

  it('refunds tell the brand why: by an admin, and by the 90-day guarantee', async () => {
    const opp = await createOpportunity(t.db, { title: 'Refund me', outletName: 'The Outlet', priceUsd: '99.99', maxSlots: 5 });
    const [{ user }] = await quickBrands(t.app, t.db, 1);
    const byAdmin = await makePayment(t.db, user.id, opp.id, { amount: '99.99' });
    const old = await makePayment(t.db, user.id, opp.id, { amount: '99.99', paidAt: new Date(Date.now() - 91 * 86_400_000) });

    expect((await admins[0].agent.post(`/api/admin/payments/${byAdmin.id}/refund`)).status).toBe(200);
    let mails = await delivered(user.email);
    expect(mails).toHaveLength(1);
    expectMail(mails[0], { subject: 'Refund issued: Refund me', path: '/brand/payments', text: ['We have refunded $99.99', 'Our team has refunded this placement in full.', 'Outlet: The Outlet'] });

    expect(await refundOverduePayments(t.db, t.provider)).toEqual([old.id]);
    mails = await delivered(user.email, 1);
    expect(mails).toHaveLength(1);
    expectMail(mails[0], { subject: 'Refund issued: Refund me', path: '/brand/payments', text: ['our 90-day guarantee refunded you in full'] });
  });
});

describe('e-mail preferences', () => {
  it('a brand turns progress mails off on its profile; receipts and refunds still go', async () => {
    const [{ agent: brand, user }] = await quickBrands(t.app, t.db, 1);
    expect((await brand.get('/api/user')).body.emailNotifications).toBe(true);
    const off = await brand.patch('/api/user/profile', { emailNotifications: false });
    expect(off.status).toBe(200);
    expect(off.body.emailNotifications).toBe(false);
    expect((await brand.get('/api/user')).body.emailNotifications).toBe(false);
    const [row] = await t.db.select({ on: users.emailNotifications }).from(users).where(eq(users.id, user.id));
    expect(row.on).toBe(false);

    const opp = await createOpportunity(t.db, { title: 'Quiet please', maxSlots: 5 });
    const checkout = await brand.post('/api/payments/checkout', { opportunityId: opp.id });
    const paymentId = (await brand.post(`/api/payments/checkout/${sessionIdOf(checkout.body.url)}/pay`)).body.paymentId as string;
    await submittedBrief(t.db, { id: paymentId, brandId: user.id, organisationId: user.organisationId!, opportunityId: opp.id });
    const admin = admins[0].agent;
    expect((await admin.patch(`/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.example.com/q' })).status).toBe(200);
    expect((await brand.post(`/api/brand/projects/${paymentId}/request-edits`, { feedback: 'x' })).status).toBe(200);
    expect((await admin.post(`/api/admin/projects/${paymentId}/mark-edits-complete`)).status).toBe(200);
    expect((await admin.post(`/api/admin/payments/${paymentId}/release`)).status).toBe(200);
    const other = await makePayment(t.db, user.id, opp.id, { amount: '5.00' });
    expect((await admin.post(`/api/admin/payments/${other.id}/refund`)).status).toBe(200);

    const subjects = (await delivered(user.email)).map((m) => m.subject);
    expect(subjects).toEqual(['Payment received: Quiet please - Byline', 'Refund issued: Quiet please - Byline']);

    // and back on, together with the other profile fields
    const on = await brand.patch('/api/user/profile', { name: 'Back On', emailNotifications: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ name: 'Back On', emailNotifications: true });
  });

  it('refuses a value that is not true or false, and admins have no such switch', async () => {
    const [{ agent: brand }] = await quickBrands(t.app, t.db, 1);
    const bad = await brand.patch('/api/user/profile', { emailNotifications: 'no' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ emailNotifications: 'E-mail preference must be on or off' });
    expect((await brand.get('/api/user')).body.emailNotifications).toBe(true);
    expect((await admins[0].agent.patch('/api/user/profile', { emailNotifications: false })).status).toBe(403);
  });
});

describe('the mail log', () => {
  it('keeps every mail with its recipient, subject and time sent', async () => {
    // a sign-up of its own (the brand's mail and each admin's), beside whatever the other tests sent
    const email = uniqueEmail('log');
    const brand = new Agent(t.app);
    expect((await brand.post('/api/register', { email, password: 'a-good-password' })).status).toBe(201);
    expect((await brand.patch('/api/user/profile', { name: 'Lou', brandName: 'Logged Co', website: 'https://logged.example.com' })).status).toBe(200);
    expect(await delivered(email)).toHaveLength(1);
    const rows = await t.db.select().from(mailOutbox);
    expect(rows.filter((r) => r.toAddress === email)).toHaveLength(1);
    for (const admin of admins) expect(rows.some((r) => r.toAddress === admin.user.email && r.data.brandName === 'Logged Co'), admin.user.email).toBe(true);
    for (const r of rows) expect(r).toMatchObject({ status: 'sent', subject: expect.stringMatching(/ - Byline$/), sentAt: expect.any(Date) });
  });
});
