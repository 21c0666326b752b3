import { describe, expect, it } from 'vitest';
import { renderMail, type MailData } from '../../src/server/mail/templates';

const evil = '<img src=x onerror=alert(1)> & "quotes"';
const placement = { paymentId: '11111111-2222-3333-4444-555555555555', outlet: evil, title: evil };
const every: MailData[] = [
  { kind: 'signup_received', name: evil, brandName: evil },
  { kind: 'brand_approved', name: evil, viaInviteCode: true },
  { kind: 'payment_received', ...placement, amount: '10.00', paidAt: '2026-01-31T23:30:00Z', reference: evil, guaranteeDate: '2026-05-01T23:30:00Z' },
  { kind: 'draft_ready', ...placement },
  { kind: 'edits_complete', ...placement },
  { kind: 'published', ...placement, amount: '10.00' },
  { kind: 'refund_issued', ...placement, amount: '10.00', reason: 'sold_out' },
  { kind: 'password_reset', token: 'abc_-123', validMinutes: 60 },
  { kind: 'admin_new_brand', name: evil, brandName: evil, email: 'a@b.co', website: evil },
  { kind: 'admin_new_placement', ...placement, brand: evil, brandEmail: 'a@b.co', amount: '10.00', reference: evil },
  { kind: 'admin_brief_submitted', ...placement, brand: evil },
  { kind: 'admin_edits_requested', ...placement, brand: evil, feedback: evil },
  { kind: 'admin_draft_approved', ...placement, brand: evil },
];

describe('mail templates', () => {
  it.each(every.map((d) => [d.kind, d] as const))('%s: subject, both parts, one link to the portal, user text escaped in HTML', (_, data) => {
    const m = renderMail(data, 'https://portal.example/');
    expect(m.subject).toMatch(/ - Byline$/);
    expect(m.text).toMatch(/https:\/\/portal\.example\/[a-z]/);
    expect(m.text).toContain('Byline');
    expect(m.html).toContain('Byline');
    expect(m.html).not.toContain('<img');
    expect(m.html).not.toContain('"quotes"');
    if (data.kind !== 'password_reset') expect(m.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
  });

  it('receipt dates are UTC calendar dates; refund mails say why', () => {
    const receipt = renderMail(every[2], 'https://p.example');
    expect(receipt.text).toContain('Date: January 31, 2026');
    expect(receipt.text).toContain('Refund guarantee until: May 1, 2026');
    expect(renderMail(every[6], 'https://p.example').text).toContain('The last slot of this placement was taken while you were paying');
    expect(renderMail({ ...placement, kind: 'refund_issued', amount: '1.00', reason: 'guarantee' }, 'https://p.example').text).toContain('90-day guarantee');
    expect(renderMail({ ...placement, kind: 'refund_issued', amount: '1.00', reason: 'admin' }, 'https://p.example').text).toContain('Our team has refunded');
  });

  it('the reset link carries the token and points at /reset-password', () => {
    const m = renderMail(every[7], 'https://p.example');
    expect(m.text).toContain('https://p.example/reset-password?token=abc_-123');
    expect(m.html).toContain('href="https://p.example/reset-password?token=abc_-123"');
  });
});
