import { describe, expect, it } from 'vitest';
import { renderMail, type MailData } from '../../src/server/mail/templates';

const evil = '<img src=x onerror=alert(1)> & "quotes"';
const placement = { paymentId: '11111111-2222-3333-4444-555555555555', outlet: evil, title: evil };
const every: MailData[] = [
  { kind: 'signup_received', name: evil, brandName: evil },
  { kind: 'brand_approved', name: evil, viaInviteCode: true },
  { kind: 'payment_received', ...placement, amount: '10.00', paidAt: '2026-01-31T23:30:00Z', providerRef: evil, guaranteeDate: '2026-05-01T23:30:00Z' },
  { kind: 'draft_ready', ...placement },
  { kind: 'edits_complete', ...placement },
  { kind: 'published', ...placement, amount: '10.00' },
  { kind: 'refund_issued', ...placement, amount: '10.00', reason: 'sold_out' },
  { kind: 'password_reset', token: 'abc_-123', validMinutes: 60 },
  { kind: 'admin_new_brand', name: evil, brandName: evil, email: 'a@b.co', website: evil },
  { kind: 'admin_new_placement', ...placement, brand: evil, brandEmail: 'a@b.co', amount: '10.00', providerRef: evil },
  { kind: 'admin_brief_submitted', ...placement, brand: evil },
  { kind: 'admin_edits_requested', ...placement, brand: evil, feedback: evil },
  { kind: 'admin_draft_approved', ...placement, brand: evil },
  { kind: 'publication_issue', ...placement, liveUrl: 'https://outlet.example/story', reason: evil, restoreBy: '2026-03-10T12:00:00Z', forAdmin: false },
  { kind: 'publication_issue', ...placement, liveUrl: 'https://outlet.example/story', reason: evil, restoreBy: '2026-03-10T12:00:00Z', forAdmin: true },
  { kind: 'publication_restored', ...placement, liveUrl: 'https://outlet.example/story', forAdmin: false },
  { kind: 'org_invitation', token: 'tok', organisation: evil, inviter: evil, role: 'buyer', validDays: 7 },
  { kind: 'admin_publication_refunded', ...placement, brand: evil, amount: '10.00', reason: 'not_restored' },
];

describe('mail templates', () => {
  it.each(every.map((d) => [d.kind, d] as const))('%s: subject, both parts, one link to the portal, user text escaped in HTML', (_, data) => {
    const m = renderMail(data, 'https://portal.example/');
    expect(m.subject).toMatch(/ - Byline$/);
    // the portal's name once: "… on Byline - Byline" read as a typo (issue 57)
    expect(m.subject.match(/Byline/g)).toHaveLength(1);
    expect(m.text).toMatch(/https:\/\/portal\.example\/[a-z]/);
    expect(m.text).toContain('Byline');
    expect(m.html).toContain('Byline');
    expect(m.html).not.toContain('<img');
    expect(m.html).not.toContain('"quotes"');
    if (data.kind !== 'password_reset') expect(m.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
  });

  it('a brand\'s receipts carry no processor id; the admins\' mails do', () => {
    const ref = 'pi_3Processor0Id';
    const brand = [
      renderMail({ kind: 'payment_received', ...placement, amount: '10.00', paidAt: '2026-01-31T23:30:00Z', providerRef: ref, guaranteeDate: '2026-05-01T23:30:00Z', invoiceNumber: 'BYL-2026-000001' }, 'https://p.example'),
      renderMail(
        { kind: 'order_received', orderId: 'o1', paymentId: placement.paymentId, lines: [{ title: 't', outlet: 'o', amount: '10.00' }], amount: '10.00', paidAt: '2026-01-31T23:30:00Z', providerRef: ref, guaranteeDate: '2026-05-01T23:30:00Z' },
        'https://p.example',
      ),
    ];
    for (const m of brand) {
      expect(m.text).not.toContain(ref);
      expect(m.html).not.toContain(ref);
    }
    expect(brand[0].text).toContain('Invoice: BYL-2026-000001 (attached)');
    expect(renderMail({ kind: 'admin_new_placement', ...placement, brand: 'B', brandEmail: 'a@b.co', amount: '10.00', providerRef: ref }, 'https://p.example').text).toContain(ref);
  });

  it('receipt dates are UTC calendar dates; refund mails say why', () => {
    const receipt = renderMail(every[2], 'https://p.example');
    expect(receipt.text).toContain('Date: January 31, 2026');
    expect(receipt.text).toContain('Refund guarantee until: May 1, 2026');
    expect(renderMail(every[6], 'https://p.example').text).toContain('The last slot of this placement was taken while you were paying');
    expect(renderMail({ ...placement, kind: 'refund_issued', amount: '1.00', reason: 'guarantee' }, 'https://p.example').text).toContain('90-day guarantee');
    expect(renderMail({ ...placement, kind: 'refund_issued', amount: '1.00', reason: 'admin' }, 'https://p.example').text).toContain('Our team has refunded');
  });

  it('publication mails: the live link, what was checked, the guarantee and the deadline', () => {
    const published = renderMail(
      { ...placement, kind: 'published', amount: '1250.00', liveUrl: 'https://outlet.example/story', checks: ['Reachable (HTTP 200)', 'Indexable'], guaranteeDate: '2026-05-01T10:00:00Z' },
      'https://p.example',
    );
    expect(published.text).toContain('Read it here: https://outlet.example/story');
    expect(published.text).toContain('Reachable (HTTP 200)');
    expect(published.text).toContain('until May 1, 2026');
    // the spec's release, without a link, says nothing of checks or a guarantee
    const plain = renderMail({ ...placement, kind: 'published', amount: '1250.00' }, 'https://p.example');
    expect(plain.text).not.toMatch(/Read it here|We check the article/);

    const brand = renderMail(every.find((d) => d.kind === 'publication_issue')!, 'https://p.example');
    expect(brand.text).toContain('refunded in full automatically');
    expect(brand.text).toContain('March 10, 2026');
    expect(brand.text).toContain('https://p.example/brand/my-articles');
    const admin = renderMail(every.filter((d) => d.kind === 'publication_issue')[1], 'https://p.example');
    expect(admin.text).toContain('Ask the outlet to restore it by March 10, 2026');
    expect(admin.text).toContain('https://p.example/admin/placements');
    expect(renderMail(every[every.length - 1], 'https://p.example').text).toContain('was not restored by the deadline');
    expect(renderMail({ ...placement, kind: 'refund_issued', amount: '1.00', reason: 'not_restored' }, 'https://p.example').text).toMatch(/restored/);
  });

  it('the reset link carries the token and points at /reset-password', () => {
    const m = renderMail(every[7], 'https://p.example');
    expect(m.text).toContain('https://p.example/reset-password?token=abc_-123');
    expect(m.html).toContain('href="https://p.example/reset-password?token=abc_-123"');
  });

  it.each(every.map((d) => [d.kind, d] as const))('%s: in test mode says payments are simulated, in text and HTML; otherwise not', (_, data) => {
    const test = renderMail(data, 'https://p.example', { testMode: true });
    expect(test.text.split('\n')[0]).toBe('Test mode: payments are simulated: no card was charged and no money moves.');
    expect(test.html).toContain('Test mode: payments are simulated');
    const live = renderMail(data, 'https://p.example');
    expect(live.text).not.toContain('Test mode');
    expect(live.html).not.toContain('Test mode');
  });
});

describe('mail to a member who may not see amounts (issue 57)', () => {
  const sum = '$9,876.54';
  const amount = '9876.54';
  const brandMails: MailData[] = [
    { kind: 'payment_received', ...placement, amount, paidAt: '2026-01-31T23:30:00Z', providerRef: 'pi_1', guaranteeDate: '2026-05-01T23:30:00Z', invoiceNumber: 'BYL-2026-000001' },
    { kind: 'order_received', orderId: placement.paymentId, paymentId: placement.paymentId, lines: [{ title: 'A', outlet: 'B', amount }], amount, paidAt: '2026-01-31T23:30:00Z', providerRef: 'pi_1', guaranteeDate: '2026-05-01T23:30:00Z', invoiceNumber: 'BYL-2026-000002' },
    { kind: 'published', ...placement, amount, liveUrl: 'https://outlet.example/story' },
    { kind: 'refund_issued', ...placement, amount, reason: 'swap' },
    { kind: 'refund_issued', ...placement, amount, reason: 'cancelled', partial: true, note: 'Half written' },
    { kind: 'purchase_request', requester: 'Ann', title: 'A', outlet: 'B', amount },
    { kind: 'purchase_decided', approved: true, reason: null, title: 'A', outlet: 'B', amount, approver: 'Bo' },
    { kind: 'terms_update', ...placement, headline: `Your dispute was resolved: ${sum} refunded`, headlineWithoutAmount: 'Your dispute was resolved: refunded in part', detail: null, forAdmin: false },
    // queued before the words without the amount existed
    { kind: 'terms_update', ...placement, headline: `You were offered ${sum} back: accept or escalate by 2026-02-01`, detail: null, forAdmin: false },
  ];

  it.each(brandMails.map((d, i) => [`${d.kind} ${i}`, d] as const))('%s: the amount for a buyer, none for a client reviewer', (_, data) => {
    const buyer = renderMail(data, 'https://p.example');
    expect(`${buyer.subject}\n${buyer.text}\n${buyer.html}`).toContain(sum);
    const reviewer = renderMail(data, 'https://p.example', { reader: { seesAmounts: false } });
    const all = `${reviewer.subject}\n${reviewer.text}\n${reviewer.html}`;
    expect(all).not.toMatch(/\$\s?\d/);
    expect(all).not.toContain('9876');
    // no invoice said to be attached, no link to a page the reviewer may not open
    expect(all).not.toContain('(attached)');
    expect(all).not.toMatch(/\/brand\/(payments|orders)/);
  });

  it('says what happened in words instead', () => {
    const as = { reader: { seesAmounts: false } };
    expect(renderMail(brandMails[3], 'https://p.example', as).text).toContain(`"${evil}" at ${evil} was refunded.`);
    expect(renderMail(brandMails[4], 'https://p.example', as).text).toContain('We have refunded part of what was paid for');
    expect(renderMail(brandMails[7], 'https://p.example', as).subject).toBe(`Your dispute was resolved: refunded in part: ${evil} - Byline`);
    expect(renderMail(brandMails[8], 'https://p.example', as).subject).toBe(`You were offered an amount back: accept or escalate by 2026-02-01: ${evil} - Byline`);
  });
});
