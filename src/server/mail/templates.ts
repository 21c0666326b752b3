import { GUARANTEE_DAYS, GUARANTEE_NAME } from '../../shared/constants';
import { formatUsd } from '../../shared/money';
import { TEST_MODE_NOTICE, type RefundReason } from '../../shared/payment';

/** The portal's name, in every subject and signature. */
const PORTAL_NAME = 'Byline';

/** The automatic steps a reminder comes before (issue 59): the team's two, the brand's one. */
export type DeadlineStep = 'guarantee' | 'cancellation' | 'swap' | 'late_credit' | 'dispute_answer' | 'dispute_escalate' | 'dispute_decide';

/** What every placement's mail names. */
export interface PlacementFacts {
  paymentId: string;
  outlet: string;
  title: string;
}

/** One message quoted in a conversation's e-mail (modules/messages/service.ts). */
export interface MessageDigestEntry {
  author: string;
  at: string;
  text: string;
  attachmentName: string | null;
}

/**
 * What the outbox stores for each mail: its kind and the facts known when the change happened.
 * Rendering (subject, text, HTML, links) happens at delivery, in one place: {@link renderMail}.
 */
export type MailData =
  // brand
  | { kind: 'signup_received'; name: string; brandName: string }
  | { kind: 'brand_approved'; name: string; viaInviteCode: boolean }
  | (PlacementFacts & { kind: 'payment_received'; amount: string; paidAt: string; providerRef: string; guaranteeDate: string; invoiceNumber?: string })
  // a cart's order (issue 46): one receipt for its lines; `paymentId` is its first line's (the invoice is the order's)
  | {
      kind: 'order_received';
      orderId: string;
      paymentId: string;
      lines: { title: string; outlet: string; amount: string }[];
      amount: string;
      paidAt: string;
      providerRef: string;
      guaranteeDate: string;
      invoiceNumber?: string;
    }
  | (PlacementFacts & { kind: 'placement_declined'; reason: string; swapBy: string })
  // the fair terms (issue 47): an extra revision or a cancellation, asked for or answered
  // `headlineWithoutAmount`: the headline for a member who sees no amounts, when the headline names one (issue 57)
  | (PlacementFacts & { kind: 'terms_update'; headline: string; headlineWithoutAmount?: string; detail: string | null; forAdmin: boolean })
  | (PlacementFacts & { kind: 'draft_ready' })
  | (PlacementFacts & { kind: 'edits_complete' })
  | (PlacementFacts & { kind: 'brief_reminder'; paidAt: string })
  | (PlacementFacts & { kind: 'review_reminder'; autoApproveOn: string | null })
  // issue 59: an automatic step is near; to the side that can still act (the team's to its editor, else every admin)
  | (PlacementFacts & { kind: 'deadline_reminder'; step: DeadlineStep; at: string })
  | (PlacementFacts & { kind: 'auto_approved'; forAdmin: boolean })
  | (PlacementFacts & { kind: 'published'; amount: string; liveUrl?: string | null; checks?: string[]; guaranteeDate?: string | null })
  | (PlacementFacts & { kind: 'publication_issue'; liveUrl: string; reason: string; restoreBy: string; forAdmin: boolean })
  | (PlacementFacts & { kind: 'publication_restored'; liveUrl: string; forAdmin: boolean })
  | (PlacementFacts & { kind: 'refund_issued'; amount: string; reason: RefundReason; partial?: boolean; note?: string | null; lateDay?: number })
  | { kind: 'password_reset'; token: string; validMinutes: number }
  // an invitation to join an organisation (decision 033)
  | { kind: 'org_invitation'; token: string; organisation: string; inviter: string; role: string; validDays: number }
  // purchase approval (decision 034): to the approvers, then to the requester
  // `expiresAt`: the reminder before it expires (issue 59)
  | { kind: 'purchase_request'; requester: string; title: string; outlet: string; amount: string; expiresAt?: string }
  | { kind: 'purchase_decided'; approved: boolean; reason: string | null; title: string; outlet: string; amount: string; approver: string }
  // a scheduled report (issue 48) to one of its recipients, who may not have an account; its PDF and CSV attached
  | { kind: 'scheduled_report'; reportId: string; name: string; period: string; lines: number; email: string; token: string }
  // admins
  | { kind: 'admin_new_brand'; name: string; brandName: string; email: string; website: string }
  | (PlacementFacts & { kind: 'admin_new_placement'; brand: string; brandEmail: string; amount: string; providerRef: string })
  | { kind: 'admin_new_order'; orderId: string; brand: string; brandEmail: string; lines: { title: string; outlet: string; amount: string }[]; amount: string; providerRef: string }
  | (PlacementFacts & { kind: 'admin_brief_submitted'; brand: string })
  | (PlacementFacts & { kind: 'admin_edits_requested'; brand: string; feedback: string | null })
  | (PlacementFacts & { kind: 'admin_draft_approved'; brand: string })
  | (PlacementFacts & { kind: 'admin_publication_refunded'; brand: string; amount: string; reason: RefundReason })
  // either side: what it has not read of a placement's conversation (at most one mail per 15 minutes)
  | (PlacementFacts & { kind: 'message_received'; brand: string; forAdmin: boolean; messages: MessageDigestEntry[]; unread: number });

export type MailKind = MailData['kind'];

/** Progress mails a brand may turn off on its profile. Receipts, refunds, onboarding and password mail always go. */
export const OPTIONAL_KINDS: ReadonlySet<MailKind> = new Set(['draft_ready', 'edits_complete', 'published', 'brief_reminder', 'review_reminder']);

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const dateFmt = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const formatDate = (iso: string) => dateFmt.format(new Date(iso));
const dateTimeFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** The messages of a conversation's e-mail as one quoted block: who, when (UTC), what. */
const digestQuote = (messages: MessageDigestEntry[]) =>
  messages
    .map((m) => [`${m.author}, ${dateTimeFmt.format(new Date(m.at))} UTC:`, ...(m.text ? [m.text] : []), ...(m.attachmentName ? [`[Attachment: ${m.attachmentName}]`] : [])].join('\n'))
    .join('\n\n');

const REFUND_WHY: Record<RefundReason, string> = {
  guarantee: `Your article was not published within ${GUARANTEE_DAYS} days of payment, so our ${GUARANTEE_NAME} refunded you in full.`,
  admin: 'Our team has refunded this placement in full.',
  sold_out: 'The last slot of this placement was taken while you were paying, so your payment was refunded in full.',
  provider: 'The payment was refunded in full through the card provider.',
  not_restored: 'Your published article was removed or changed at the outlet and not restored in time, so our guarantee refunded you in full.',
  declined: 'The outlet declined this placement and no alternative was chosen in time, so you were refunded in full.',
  swap: 'You chose a cheaper alternative for this placement, and the difference was refunded.',
  cancelled: 'You cancelled this placement, and it was refunded as agreed.',
  dispute: 'Your dispute about this placement was decided in your favour, and it was refunded.',
  late_credit: 'Your article was not published by the date we promised, so you were credited for each business day late.',
  late_cancel: 'Your article was not published long after the date we promised, so you cancelled it and were refunded all that was left.',
};

/** One mail before layout: lines of plain text (also the HTML paragraphs), optional facts, one action. */
interface Draft {
  subject: string;
  greeting?: string;
  paragraphs: string[];
  facts?: [string, string][];
  /** quoted user text (the brand's feedback), shown as a block */
  quote?: string;
  action: { label: string; path: string };
}

/**
 * Who a mail reaches, found when it is sent (issue 57): a member who may not see amounts (a client
 * reviewer, decision 035) gets every mail without them, whatever the mail was queued for.
 */
export interface MailReader {
  seesAmounts: boolean;
}
const EVERYONE: MailReader = { seesAmounts: true };

/** A sum written in a text ("$1,234.50"): what an older queued headline may hold. */
const MONEY_IN_TEXT = /-?\$[\d,]+(?:\.\d{2})?/g;

function draftFor(d: MailData, reader: MailReader): Draft {
  const placement = (p: PlacementFacts) => `"${p.title}" at ${p.outlet}`;
  const amounts = reader.seesAmounts;
  /** a fact, only for a reader who sees amounts */
  const money = (fact: [string, string]): [string, string][] => (amounts ? [fact] : []);
  switch (d.kind) {
    case 'signup_received':
      return {
        subject: 'We received your sign-up',
        greeting: `Hi ${d.name},`,
        paragraphs: [
          `Thank you for signing up ${d.brandName} to ${PORTAL_NAME}. Your account is under review.`,
          'We will e-mail you again as soon as it has been approved.',
        ],
        action: { label: 'See your account status', path: '/pending-approval' },
      };
    case 'brand_approved':
      return {
        subject: 'Your account has been approved',
        greeting: `Hi ${d.name},`,
        paragraphs: [
          d.viaInviteCode
            ? `Your invite code was accepted and your ${PORTAL_NAME} account is active.`
            : `Good news: our team has approved your ${PORTAL_NAME} account.`,
          'You can now browse opportunities and secure placements at media outlets.',
        ],
        action: { label: 'Browse opportunities', path: '/brand/opportunities' },
      };
    case 'payment_received':
      return {
        subject: `Payment received: ${d.title}`,
        paragraphs: [
          `Thank you for your payment for ${placement(d)}. The money is held in escrow until your article is published.`,
          `If it is not published by ${formatDate(d.guaranteeDate)}, you are refunded in full (our ${GUARANTEE_NAME}).`,
          'Next step: tell the editorial team about your story in the brief.',
        ],
        facts: [
          ['Outlet', d.outlet],
          ['Placement', d.title],
          ...money(['Amount', formatUsd(d.amount)]),
          ['Date', formatDate(d.paidAt)],
          // no provider reference: a brand's is its invoice's number (issue 57)
          // the invoice is all amounts: not attached for a reader who sees none (invoices/service.ts)
          ...(d.invoiceNumber && amounts ? ([['Invoice', `${d.invoiceNumber} (attached)`]] as [string, string][]) : []),
          ['Refund guarantee until', formatDate(d.guaranteeDate)],
        ],
        action: { label: 'Fill in your brief', path: `/brand/brief/${d.paymentId}` },
      };
    case 'terms_update': {
      const headline = amounts ? d.headline : (d.headlineWithoutAmount ?? d.headline.replace(MONEY_IN_TEXT, 'an amount'));
      return {
        subject: `${headline}: ${d.title}`,
        paragraphs: [`${headline} for ${placement(d)}.`],
        ...(d.detail ? { quote: d.detail } : {}),
        action: d.forAdmin
          ? { label: 'Open the project', path: `/admin/projects/${d.paymentId}` }
          : { label: 'Open the placement', path: `/brand/my-articles/${d.paymentId}` },
      };
    }
    case 'placement_declined':
      return {
        subject: `The outlet declined your placement: ${d.title}`,
        paragraphs: [
          `The editorial team could not place ${placement(d)}: ${d.reason}`,
          `Choose an alternative by ${formatDate(d.swapBy)}. A cheaper one refunds the difference. Without a choice by then, you are refunded in full.`,
        ],
        action: { label: 'Choose an alternative', path: `/brand/my-articles/${d.paymentId}` },
      };
    case 'draft_ready':
      return {
        subject: `Your draft is ready for review: ${d.title}`,
        paragraphs: [`The editorial team has attached the draft of ${placement(d)}.`, 'Please review it, then approve it or request edits.'],
        action: { label: 'Review the draft', path: '/brand/my-articles' },
      };
    case 'brief_reminder':
      return {
        subject: `Your brief is still waiting: ${d.title}`,
        paragraphs: [
          `You paid for ${placement(d)} on ${formatDate(d.paidAt)}, and the editorial team is waiting for your brief.`,
          'The sooner it is in, the sooner your article is written.',
        ],
        action: { label: 'Fill in your brief', path: `/brand/brief/${d.paymentId}` },
      };
    case 'review_reminder':
      return {
        subject: `Your draft is waiting for your review: ${d.title}`,
        paragraphs: [
          `The draft of ${placement(d)} is waiting for your review.`,
          d.autoApproveOn
            ? `Please approve it or request edits. If you do neither, it will be approved automatically on ${formatDate(d.autoApproveOn)}.`
            : 'Please approve it or request edits.',
        ],
        action: { label: 'Review the draft', path: '/brand/my-articles' },
      };
    case 'deadline_reminder': {
      const when = `${dateTimeFmt.format(new Date(d.at))} UTC`;
      switch (d.step) {
        case 'guarantee':
          return {
            subject: `Publish by ${when} or it is refunded: ${d.title}`,
            paragraphs: [
              `${placement(d)} is not published yet.`,
              `Unless it is published by ${when}, the ${GUARANTEE_NAME} refunds the brand in full, automatically.`,
            ],
            action: { label: 'Open the project', path: `/admin/projects/${d.paymentId}` },
          };
        case 'cancellation':
          return {
            subject: `Answer the cancellation request by ${when}: ${d.title}`,
            paragraphs: [
              `The brand asked to cancel ${placement(d)}.`,
              `Unless the editorial team answers by ${when}, the request is granted in full, automatically.`,
            ],
            action: { label: 'Answer the request', path: `/admin/projects/${d.paymentId}` },
          };
        case 'swap':
          return {
            subject: `Choose an alternative by ${when}: ${d.title}`,
            paragraphs: [
              `The outlet declined ${placement(d)}.`,
              `Unless you choose an alternative by ${when}, you are refunded in full, automatically.`,
            ],
            action: { label: 'Choose an alternative', path: `/brand/my-articles/${d.paymentId}` },
          };
        // issue 59: the first late credit, a dispute's deadlines
        case 'late_credit':
          return {
            subject: `Publish by ${when} or the brand is credited: ${d.title}`,
            paragraphs: [
              `${placement(d)} is past the date promised to the brand and not published yet.`,
              `Unless it is published by ${when}, the brand is credited a part of the price for each business day late, automatically.`,
            ],
            action: { label: 'Open the project', path: `/admin/projects/${d.paymentId}` },
          };
        case 'dispute_answer':
          return {
            subject: `Answer the dispute by ${when}: ${d.title}`,
            paragraphs: [
              `The brand disputes ${placement(d)}.`,
              `Unless the editorial team answers by ${when}, the brand gets what it asked for, automatically.`,
            ],
            action: { label: 'Answer the dispute', path: '/admin/disputes' },
          };
        case 'dispute_escalate':
          return {
            subject: `Accept or escalate by ${when}: ${d.title}`,
            paragraphs: [
              `The editorial team answered your dispute about ${placement(d)}.`,
              `Unless you escalate it by ${when}, its answer stands (an offer is taken as accepted), automatically.`,
            ],
            action: { label: 'Open the dispute', path: `/brand/my-articles/${d.paymentId}` },
          };
        case 'dispute_decide':
          return {
            subject: `Decide the escalated dispute by ${when}: ${d.title}`,
            paragraphs: [
              `The brand escalated its dispute about ${placement(d)}.`,
              `Unless it is decided by ${when}, the brand gets what it asked for, automatically.`,
            ],
            action: { label: 'Decide the dispute', path: '/admin/disputes' },
          };
      }
      break;
    }
    case 'auto_approved':
      return {
        subject: `Draft approved automatically: ${d.title}`,
        paragraphs: d.forAdmin
          ? [`The draft of ${placement(d)} waited for the brand's review for the configured time and was approved automatically.`, 'It can now be published.']
          : [`The draft of ${placement(d)} waited for your review for the configured time and was approved automatically.`, 'The editorial team will now publish it.'],
        action: d.forAdmin ? { label: 'Open Projects', path: '/admin/projects' } : { label: 'Open My Articles', path: '/brand/my-articles' },
      };
    case 'edits_complete':
      return {
        subject: `Edits complete, please re-review: ${d.title}`,
        paragraphs: [`The editorial team has made the edits you requested to ${placement(d)}.`, 'Please review the draft again.'],
        action: { label: 'Re-review the draft', path: '/brand/my-articles' },
      };
    case 'published':
      return {
        subject: `Your article is published: ${d.title}`,
        paragraphs: [
          `${placement(d)} has been published.`,
          ...(d.liveUrl ? [`Read it here: ${d.liveUrl}`] : []),
          ...(amounts ? [`The payment of ${formatUsd(d.amount)} held in escrow has been released.`] : []),
          ...(d.guaranteeDate ? [`We check the article regularly until ${formatDate(d.guaranteeDate)}: if it is removed and not restored, you are refunded in full.`] : []),
        ],
        ...(d.checks?.length ? { facts: d.checks.map((c): [string, string] => ['Checked', c]) } : {}),
        action: { label: 'See your article', path: '/brand/my-articles' },
      };
    case 'publication_issue':
      return {
        subject: `Problem with a published article: ${d.title}`,
        paragraphs: [
          `Our check of ${placement(d)} found a problem that a second check confirmed: ${d.reason}`,
          d.forAdmin
            ? `Ask the outlet to restore it by ${formatDate(d.restoreBy)}; otherwise the brand is refunded in full automatically.`
            : `We have asked the outlet to restore it by ${formatDate(d.restoreBy)}. If it is not restored by then, you are refunded in full automatically.`,
        ],
        facts: [['Live article', d.liveUrl]],
        action: d.forAdmin ? { label: 'Open placements', path: '/admin/placements' } : { label: 'See your article', path: '/brand/my-articles' },
      };
    case 'publication_restored':
      return {
        subject: `Article restored: ${d.title}`,
        paragraphs: [`${placement(d)} is live again and passed its check. The case is closed.`],
        facts: [['Live article', d.liveUrl]],
        action: d.forAdmin ? { label: 'Open placements', path: '/admin/placements' } : { label: 'See your article', path: '/brand/my-articles' },
      };
    case 'refund_issued': {
      const what = amounts ? formatUsd(d.amount) : 'a payment';
      // a late credit (issue 59): no claim was made, Byline credits its own lateness
      if (d.lateDay)
        return {
          subject: amounts ? `Byline is late: we credited you ${what}: ${d.title}` : `Byline is late: ${d.title}`,
          paragraphs: [
            amounts
              ? `Byline is late: we credited you ${what} because ${placement(d)} is not published ${d.lateDay} business day${d.lateDay === 1 ? '' : 's'} after the date we promised.`
              : `Byline is late: ${placement(d)} is not published ${d.lateDay} business day${d.lateDay === 1 ? '' : 's'} after the date we promised, and the buyer was credited.`,
            ...(amounts ? ['It comes with its own credit note and can take 5-10 business days to appear on your statement.'] : []),
          ],
          facts: [['Outlet', d.outlet], ['Placement', d.title], ['Business days late', String(d.lateDay)], ...money(['Amount credited', formatUsd(d.amount)])],
          action: { label: 'Open the placement', path: `/brand/my-articles/${d.paymentId}` },
        };
      return {
        subject: `Refund issued: ${d.title}`,
        paragraphs: d.partial
          ? [
              amounts
                ? `We have refunded ${what}, part of what you paid, for ${placement(d)}.`
                : `We have refunded part of what was paid for ${placement(d)}.`,
              ...(d.note ? [`Our team's reason: ${d.note}`] : []),
              ...(amounts ? ['It can take 5-10 business days to appear on your statement.'] : []),
            ]
          : amounts
            ? [`We have refunded ${what} for ${placement(d)}.`, REFUND_WHY[d.reason], 'It can take 5-10 business days to appear on your statement.']
            : [`${placement(d)} was refunded.`, REFUND_WHY[d.reason]],
        facts: [['Outlet', d.outlet], ['Placement', d.title], ...money(['Amount refunded', formatUsd(d.amount)])],
        // Payment History is not open to a reader who sees no amounts: the placement's page is
        action: amounts
          ? { label: 'See your payments', path: '/brand/payments' }
          : { label: 'Open the placement', path: `/brand/my-articles/${d.paymentId}` },
      };
    }
    case 'password_reset':
      return {
        subject: 'Reset your password',
        paragraphs: [
          `Someone asked to reset the password of your ${PORTAL_NAME} account. Use the link below to choose a new one.`,
          `The link works once and expires in ${d.validMinutes} minutes. If you did not ask for this, ignore this e-mail: your password stays as it is.`,
        ],
        action: { label: 'Choose a new password', path: `/reset-password?token=${encodeURIComponent(d.token)}` },
      };
    case 'org_invitation':
      return {
        subject: `${d.inviter} invited you to join ${d.organisation}`,
        paragraphs: [
          `${d.inviter} invited you to join ${d.organisation} on ${PORTAL_NAME} as ${d.role}.`,
          `Sign up or sign in with this e-mail address, then accept. The link works once and expires in ${d.validDays} days.`,
        ],
        action: { label: 'Accept the invitation', path: `/invite/${encodeURIComponent(d.token)}` },
      };
    case 'purchase_request':
      if (d.expiresAt) {
        const when = `${dateTimeFmt.format(new Date(d.expiresAt))} UTC`;
        return {
          subject: `Approve by ${when} or the request expires: ${d.outlet}`,
          paragraphs: [
            amounts
              ? `${d.requester} asked to buy ${d.title} at ${d.outlet} for ${formatUsd(d.amount)}, above their approval threshold.`
              : `${d.requester} asked to buy ${d.title} at ${d.outlet}, above their approval threshold.`,
            `Unless an owner or admin approves or declines it by ${when}, the request expires, automatically.`,
          ],
          facts: [['Outlet', d.outlet], ['Placement', d.title], ...money(['Amount', formatUsd(d.amount)])],
          action: { label: 'Review purchase requests', path: '/brand/requests' },
        };
      }
      return {
        subject: amounts ? `Approval needed: ${formatUsd(d.amount)} for ${d.outlet}` : `Approval needed: ${d.outlet}`,
        paragraphs: [
          amounts
            ? `${d.requester} asks to buy ${d.title} at ${d.outlet} for ${formatUsd(d.amount)}, above their approval threshold.`
            : `${d.requester} asks to buy ${d.title} at ${d.outlet}, above their approval threshold.`,
        ],
        facts: [['Outlet', d.outlet], ['Placement', d.title], ...money(['Amount', formatUsd(d.amount)])],
        action: { label: 'Review purchase requests', path: '/brand/requests' },
      };
    case 'purchase_decided':
      return {
        subject: d.approved ? `Approved: ${d.title}` : `Declined: ${d.title}`,
        paragraphs: d.approved
          ? [`${d.approver} approved your purchase of ${d.title} at ${d.outlet}${amounts ? ` for ${formatUsd(d.amount)}` : ''}. You can pay it now.`]
          : [`${d.approver} declined your purchase of ${d.title} at ${d.outlet}.`, `Why: ${d.reason ?? ''}`],
        action: { label: d.approved ? 'Pay the approved purchase' : 'See your requests', path: '/brand/requests' },
      };
    case 'scheduled_report':
      return {
        subject: `${d.name} (${d.period})`,
        paragraphs: [
          `Your scheduled report “${d.name}” for ${d.period}: ${d.lines} placement${d.lines === 1 ? '' : 's'}. The report is attached as PDF and CSV.`,
          'It is sent when something in it changed since the last one. You receive it because the team that made it added this address.',
        ],
        action: {
          label: 'Stop receiving this report',
          path: `/unsubscribe/report/${d.reportId}?email=${encodeURIComponent(d.email)}&token=${encodeURIComponent(d.token)}`,
        },
      };
    case 'admin_new_brand':
      return {
        subject: `New brand waiting for approval: ${d.brandName}`,
        paragraphs: [`${d.name} (${d.brandName}) has completed the sign-up and is waiting for approval.`],
        facts: [
          ['Name', d.name],
          ['Brand', d.brandName],
          ['E-mail', d.email],
          ['Website', d.website],
        ],
        action: { label: 'Review pending brands', path: '/admin/approvals' },
      };
    case 'order_received':
      return {
        subject: `Payment received: ${d.lines.length} placements`,
        paragraphs: [
          `Thank you for your payment for ${d.lines.length} placements. Each one's money is held in escrow until its article is published.`,
          `Any of them not published by ${formatDate(d.guaranteeDate)} is refunded in full (our ${GUARANTEE_NAME}).`,
          'Next step: tell the editorial team about your story in each brief. After the first, you can copy it to the others.',
        ],
        facts: [
          ...d.lines.map((l): [string, string] => [l.outlet, amounts ? `${l.title}: ${formatUsd(l.amount)}` : l.title]),
          ...money(['Total', formatUsd(d.amount)]),
          ['Date', formatDate(d.paidAt)],
          ...(d.invoiceNumber && amounts ? ([['Invoice', `${d.invoiceNumber} (attached)`]] as [string, string][]) : []),
          ['Refund guarantee until', formatDate(d.guaranteeDate)],
        ],
        // an order's page shows its amounts: My Articles for a reader who sees none
        action: amounts ? { label: 'Open the order', path: `/brand/orders/${d.orderId}` } : { label: 'Open My Articles', path: '/brand/my-articles' },
      };
    case 'admin_new_order':
      return {
        subject: `New paid order: ${d.lines.length} placements`,
        paragraphs: [`${d.brand} has paid ${formatUsd(d.amount)} for ${d.lines.length} placements. The money is held in escrow.`],
        facts: [
          ['Brand', `${d.brand} <${d.brandEmail}>`],
          ...d.lines.map((l): [string, string] => [l.outlet, `${l.title}: ${formatUsd(l.amount)}`]),
          ['Total', formatUsd(d.amount)],
          ['Payment reference', d.providerRef],
        ],
        action: { label: 'Open projects', path: '/admin/projects' },
      };
    case 'admin_new_placement':
      return {
        subject: `New paid placement: ${d.title}`,
        paragraphs: [`${d.brand} has paid ${formatUsd(d.amount)} for ${placement(d)}. The money is held in escrow.`],
        facts: [
          ['Brand', `${d.brand} <${d.brandEmail}>`],
          ['Outlet', d.outlet],
          ['Placement', d.title],
          ['Amount', formatUsd(d.amount)],
          ['Payment reference', d.providerRef],
        ],
        action: { label: 'Open projects', path: '/admin/projects' },
      };
    case 'admin_brief_submitted':
      return {
        subject: `Brief submitted: ${d.title}`,
        paragraphs: [`${d.brand} has submitted the brief for ${placement(d)}.`, 'The draft can now be written and attached.'],
        action: { label: 'Open projects', path: '/admin/projects' },
      };
    case 'admin_edits_requested':
      return {
        subject: `Edits requested: ${d.title}`,
        paragraphs: [`${d.brand} has requested edits to the draft of ${placement(d)}.`, d.feedback ? 'Their feedback:' : 'They did not leave any feedback.'],
        ...(d.feedback ? { quote: d.feedback } : {}),
        action: { label: 'Open projects', path: '/admin/projects' },
      };
    case 'admin_draft_approved':
      return {
        subject: `Draft approved: ${d.title}`,
        paragraphs: [`${d.brand} has approved the draft of ${placement(d)}.`, 'Once the article is published, release the payment.'],
        action: { label: 'Open projects', path: '/admin/projects' },
      };
    case 'admin_publication_refunded':
      return {
        subject: `Published placement refunded: ${d.title}`,
        paragraphs: [
          `${placement(d)} by ${d.brand} was refunded in full (${formatUsd(d.amount)}) although its payment had been released.`,
          d.reason === 'not_restored'
            ? 'Its live article was not restored by the deadline of its case.'
            : 'An admin refunded it from Placements.',
        ],
        action: { label: 'Open placements', path: '/admin/placements' },
      };
    case 'message_received': {
      const unread = d.unread === 1 ? 'an unread message' : `${d.unread} unread messages`;
      return {
        subject: d.forAdmin ? `New message from ${d.brand}: ${d.title}` : `New message from the editorial team: ${d.title}`,
        paragraphs: [
          `You have ${unread} about ${placement(d)}.`,
          ...(d.unread > d.messages.length ? [`The newest ${d.messages.length} are quoted below; open the conversation for the rest.`] : []),
        ],
        quote: digestQuote(d.messages),
        action: { label: 'Reply in Byline', path: d.forAdmin ? `/admin/projects/${d.paymentId}` : `/brand/my-articles/${d.paymentId}` },
      };
    }
  }
}

/**
 * Subject, plain text and HTML of one mail, for its reader (by default one who sees amounts). Every
 * value from users is escaped in the HTML.
 */
export function renderMail(data: MailData, baseUrl: string, opts: { testMode?: boolean; reader?: MailReader } = {}): RenderedMail {
  const d = draftFor(data, opts.reader ?? EVERYONE);
  const testNotice = opts.testMode ? `${TEST_MODE_NOTICE}: no card was charged and no money moves.` : null;
  const link = `${baseUrl.replace(/\/$/, '')}${d.action.path}`;
  const subject = `${d.subject} - ${PORTAL_NAME}`;

  const text = [
    ...(testNotice ? [testNotice, ''] : []),
    ...(d.greeting ? [d.greeting, ''] : []),
    ...d.paragraphs.flatMap((p) => [p, '']),
    ...(d.quote ? [...d.quote.split('\n').map((l) => `> ${l}`), ''] : []),
    ...(d.facts ? [...d.facts.map(([k, v]) => `${k}: ${v}`), ''] : []),
    `${d.action.label}: ${link}`,
    '',
    `— ${PORTAL_NAME}`,
    '',
  ].join('\n');

  const e = escapeHtml;
  const p = (s: string) => `<p style="margin:0 0 16px">${e(s)}</p>`;
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${e(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b;font-size:15px;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    testNotice
      ? `<p style="margin:0 0 16px;padding:8px 12px;border-radius:6px;background:#fef3c7;color:#78350f;font-size:13px">${e(testNotice)}</p>`
      : '',
    `<div style="font-size:20px;font-weight:bold;margin-bottom:24px">${e(PORTAL_NAME)}</div>`,
    d.greeting ? p(d.greeting) : '',
    ...d.paragraphs.map(p),
    d.quote ? `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:3px solid #d4d4d8;white-space:pre-wrap">${e(d.quote)}</blockquote>` : '',
    d.facts
      ? `<table style="border-collapse:collapse;margin:0 0 16px">${d.facts
          .map(([k, v]) => `<tr><td style="padding:4px 16px 4px 0;color:#71717a">${e(k)}</td><td style="padding:4px 0">${e(v)}</td></tr>`)
          .join('')}</table>`
      : '',
    `<p style="margin:24px 0"><a href="${e(link)}" style="background:#18181b;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${e(d.action.label)}</a></p>`,
    `<p style="margin:0;color:#71717a;font-size:13px">Or open this link: <a href="${e(link)}">${e(link)}</a></p>`,
    `<p style="margin:24px 0 0;color:#71717a;font-size:13px">— ${e(PORTAL_NAME)}</p>`,
    '</div></body></html>',
  ]
    .filter(Boolean)
    .join('\n');

  return { subject, text, html };
}
