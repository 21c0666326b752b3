import type { z } from 'zod';
import type { termsSchema } from './schemas/responses/account';
import { lateCreditSentence } from './late-credit';

/** GET /api/terms: the terms brands agree to, as Markdown (the client renders it without any HTML), and the fair terms' rules. */
export type Terms = z.infer<typeof termsSchema>;
export type FairRules = Terms['rules'];

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/**
 * The rules of revisions, cancellation and refunds (issue 47), written from the numbers the server
 * enforces: the terms page shows exactly what the code does.
 */
export function fairRulesMarkdown(r: FairRules): string {
  const rounds = r.revisionsIncluded === 1 ? '1 round of edits' : `${r.revisionsIncluded} rounds of edits`;
  return [
    '## Revisions, cancellation, disputes and refunds',
    '',
    '### Delivery dates',
    `- Each opportunity shows the date its article is live by ("Live by …"), fixed on your placement when you pay. It counts ${days(r.briefDays)} for your brief, in business days (Monday to Friday, UTC).`,
    `- Each stage has a due date and a side that owes it: your brief (${days(r.briefDays)}), the first draft (the editorial team: the outlet's listed turnaround, never after "Live by"), your review of a draft (${days(r.reviewDays)}), each round of edits (the editorial team: ${days(r.editDays)}), and publication (the editorial team, by "Live by"). A stage is "at risk" with a fifth of its time left and "late" past its due date.`,
    '- A clock stops while the other side holds the placement (an extra revision, a cancellation or a dispute waiting for an answer) and resumes where it stopped. When your brief or review comes in late, or you hold a stage of ours, "Live by" moves by as many business days (a part of a day counts as a day), and your placement says why; time you held it never counts against the editorial team.',
    `- Once an outlet has ${r.promiseMinDeliveries} deliveries with Byline, the date comes from its record: 9 in 10 of its last deliveries were published within that many business days of the brief ("usually by …": half of them). Before that, it comes from the outlet's listed turnaround.`,
    `- The time you take past your own deadlines (the brief, your reviews) moves the date by as much. ${lateCreditSentence({ percent: r.lateCreditPercent, maxPercent: r.lateCreditMaxPercent })}: if your placement is not published by its date, you are credited ${r.lateCreditPercent}% of its price for each business day late, up to ${r.lateCreditMaxPercent}%, automatically, without a claim: each credit a part refund to your card with its own credit note and an e-mail.`,
    `- Once it is ${r.lateCancelDays} business days late and still not published, you can cancel it in one click and are refunded all that is left after the credits.`,
    '',
    '### Revisions',
    `- Each placement includes ${rounds} on its draft ("Revision 1 of ${r.revisionsIncluded}").`,
    '- A further round needs a reason tied to your brief. The editorial team accepts it, or declines it with a written reason.',
    '- Edits are for what the brief asked for; a new direction is a new brief.',
    '',
    '### Cancellation',
    '- Until the editorial team marks the writing as started (or attaches a draft), you can cancel with one click and are refunded in full, with a credit note.',
    `- After that, cancelling is a request the editorial team answers within ${days(r.responseDays)}: a full refund, a part refund for the work done, or a refusal with its reason. A request not answered within ${days(r.responseDays)} is granted in full, automatically.`,
    '',
    '### Disputes',
    `- You can dispute a placement's content from its first draft until ${days(r.disputeDays)} after it is published, and its live link at any time during the publication check (${days(r.publicationGuaranteeDays)}). Say what is wrong, what you ask for (a full refund, a part refund or a correction), and attach evidence.`,
    `- The editorial team answers within ${days(r.responseDays)}: it accepts, offers a part refund or a correction, or rejects with a written reason. If it does not answer in time, you get what you asked for, automatically.`,
    `- You accept an offer or escalate within ${days(r.escalateDays)}. An escalation is decided within ${days(r.decideDays)}, with a written reason, by a member of the editorial team who neither published your placement nor answered your dispute. If it is not decided in time, you get what you asked for.`,
    '- A dispute about the live link is decided by our own checks: when two checks at least an hour apart confirm the problem, the outlet must restore the article in time or you are refunded in full; the checks are shown as evidence.',
    '',
    '### Refunds',
    `- A placement not published within ${days(r.guaranteeDays)} of payment is refunded in full, automatically.`,
    `- If the outlet declines a placement before writing, you have ${days(r.swapDays)} to choose an alternative; otherwise you are refunded in full.`,
    `- A published article is checked for ${days(r.publicationGuaranteeDays)}. If it is removed or changed, the outlet has ${days(r.restoreDays)} to restore it; otherwise you are refunded in full.`,
    '- A part refund comes with its own credit note; refunds never exceed what you paid.',
    '',
    '### Reminders',
    `- Nothing happens on its own without warning: ${r.reminderHours} hours before a placement is refunded because it was not published in time, before a cancellation request or a dispute is granted or decided for want of an answer, before a declined placement is refunded for want of a chosen alternative, before a late placement's first credit, and before a purchase request expires, whoever can still act is reminded by e-mail, once.`,
    '',
  ].join('\n');
}
