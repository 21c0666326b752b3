/**
 * The life of a placement (issue 58, decision 042): its states in one vocabulary, each transition
 * (from, event, to, who may, what it writes), and what a viewer reads of it now. The only place
 * that says who may do what to a placement; the server's `transition()` checks it and the client
 * shows what the server derives from it (`life`). The spec's words are the labels where the spec
 * names the state (My Articles "Brief pending" / "Awaiting first draft", the Projects badges
 * "Awaiting brand review", "Brand requested edits", "Edits complete - awaiting brand re-review",
 * "Brand approved", the payment badges "Released" and "Refunded").
 *
 * A placement is in one state of its work (the line from the brief to the release). A request the
 * editorial team must answer (an extra revision, a cancellation after writing started, a dispute)
 * is open beside it: it keeps the state and says whose turn it is (`OPEN_REQUESTS`).
 *
 */

import { roleCan, type Capability, type OrgRole } from './org';
import { TIMELINE_ENTRY_KINDS, type DisputeStatus, type DraftReviewStatus, type PlacementState, type TimelineEntryKind } from './enums';

/** Whose turn it is: the brand's, the editorial team's, or nobody's (the placement is done). */
export type WaitingOn = 'brand' | 'team' | 'nobody';

interface StateDef {
  /** What every screen shows for it. */
  label: string;
  waitingOn: WaitingOn;
  /** What it means, in a sentence (the diagram's note and the docs). */
  means: string;
}

/** Whose turn it is in the reader's words (null: nobody's, nothing to say). */
export function waitingWords(waitingOn: WaitingOn, reader: 'brand' | 'admin'): string | null {
  if (waitingOn === 'nobody') return null;
  if (waitingOn === reader || (waitingOn === 'team' && reader === 'admin')) return 'Waiting on you';
  return waitingOn === 'team' ? 'Waiting on the editorial team' : 'Waiting on the brand';
}

/** The states, in the order a placement normally passes them. */
export const PLACEMENT_LIFE_STATES = {
  brief_pending: { label: 'Brief pending', waitingOn: 'brand', means: 'Paid and held in escrow; the brief is not submitted yet' },
  awaiting_first_draft: { label: 'Awaiting first draft', waitingOn: 'team', means: 'The brief is submitted; the editorial team writes the draft' },
  declined: {
    label: 'Declined – choose an alternative',
    waitingOn: 'brand',
    means: 'The outlet declined it before writing; the brand chooses an alternative by its deadline, or is refunded',
  },
  awaiting_review: { label: 'Awaiting brand review', waitingOn: 'brand', means: 'A draft is attached for the brand to approve or ask edits for' },
  edits_requested: { label: 'Brand requested edits', waitingOn: 'team', means: 'The brand asked for edits; the editorial team makes them' },
  edits_complete: {
    label: 'Edits complete - awaiting brand re-review',
    waitingOn: 'brand',
    means: 'The edits are made; the brand reviews the draft again',
  },
  approved: { label: 'Brand approved', waitingOn: 'team', means: 'The brand approved the draft; the editorial team publishes it' },
  released: { label: 'Released', waitingOn: 'nobody', means: 'Published, and the money held in escrow released to the outlet' },
  refunded: { label: 'Refunded', waitingOn: 'nobody', means: 'The payment went back to the brand (in full or in part)' },
} as const satisfies Record<string, StateDef>;

export type LifeState = keyof typeof PLACEMENT_LIFE_STATES;
export const LIFE_STATE_IDS = Object.keys(PLACEMENT_LIFE_STATES) as LifeState[];

/** A request open beside the state, and whose turn it makes it (it wins over the state's). */
export const OPEN_REQUESTS = {
  extra_revision: { label: 'Extra revision requested', waitingOn: 'team' },
  cancellation: { label: 'Cancellation requested', waitingOn: 'team' },
  dispute: { label: 'Dispute open', waitingOn: 'team' },
  // the editorial team offered a settlement (or rejected it): the brand accepts or escalates
  dispute_offer: { label: 'Dispute answered', waitingOn: 'brand' },
} as const satisfies Record<string, { label: string; waitingOn: WaitingOn }>;
export type OpenRequest = keyof typeof OPEN_REQUESTS;

/**
 * What the life is derived from: the placement's columns and the few facts of its rows beside it
 * (its brief, its latest cancellation, extra revision and dispute). Everything a list already reads.
 */
export interface LifeInputs {
  /** placements.state (moves with the payment's status) */
  state: PlacementState;
  draftReviewStatus: DraftReviewStatus;
  /** briefs.submitted_at is set */
  briefSubmitted: boolean;
  /** a draft link or file is attached */
  hasDraft: boolean;
  /** placements.declined_at is set (cleared by the swap) */
  declined: boolean;
  /** placements.writing_started_at is set, or a draft is attached */
  writingStarted: boolean;
  revisionsUsed: number;
  revisionsIncluded: number;
  /** the latest extra revision request is pending */
  extraRevisionPending: boolean;
  /** the latest cancellation is requested, not answered */
  cancellationPending: boolean;
  /** the latest dispute's status (null: none) */
  disputeStatus: DisputeStatus | null;
  /** the latest dispute is answered with an offer (a part refund or a correction), not a rejection */
  disputeOffer: boolean;
  /**
   * business days it is late past its "Live by" date now (issue 59, decision 049), and
   * LATE_CANCEL_DAYS: from that many on the brand may cancel for the rest; absent: not late
   */
  lateDays?: number;
  cancelDays?: number;
  /**
   * The dispute windows (issue 58): Byline's time when the inputs were read (ISO), and the ends the
   * server computed beside it: the content's (release + DISPUTE_DAYS; null: not released, open), the
   * live link's (the publication guarantee's end; null: no live article) and the latest dispute's
   * escalation's (`escalate_by`; null: none). Absent: the content and the escalation open, the link closed.
   */
  now?: string;
  disputeContentUntil?: string | null;
  disputeLinkUntil?: string | null;
  disputeEscalateBy?: string | null;
}

/** Whether `end` (ISO) is not passed at the inputs' time (`strict`: the end itself is past). */
const notPast = (p: LifeInputs, end: string | null | undefined, strict = false) =>
  end == null || p.now === undefined || (strict ? Date.parse(p.now) < Date.parse(end) : Date.parse(p.now) <= Date.parse(end));

/** The state of a placement, from its columns alone. */
export function lifeStateOf(p: Pick<LifeInputs, 'state' | 'draftReviewStatus' | 'briefSubmitted' | 'declined'>): LifeState {
  if (p.state === 'refunded') return 'refunded';
  if (p.state === 'published') return 'released';
  if (p.declined) return 'declined';
  switch (p.draftReviewStatus) {
    case 'awaiting_brand_brief':
      return p.briefSubmitted ? 'awaiting_first_draft' : 'brief_pending';
    case 'pending_brand_review':
      return 'awaiting_review';
    case 'edits_requested':
      return 'edits_requested';
    case 'edits_complete':
      return 'edits_complete';
    case 'approved':
      return 'approved';
  }
}

/** The request open beside the state, if any (at most one is shown: the one the team answers first). */
function openRequestOf(p: Pick<LifeInputs, 'state' | 'extraRevisionPending' | 'cancellationPending' | 'disputeStatus'>): OpenRequest | null {
  if (p.state === 'refunded') return null;
  if (p.disputeStatus === 'open' || p.disputeStatus === 'escalated') return 'dispute';
  if (p.disputeStatus === 'offered') return 'dispute_offer';
  if (p.cancellationPending) return 'cancellation';
  if (p.extraRevisionPending) return 'extra_revision';
  return null;
}

/**
 * Who may fire an event: the editorial team (an admin), a member of the placement's organisation
 * with a capability (shared/org.ts; a member limited to clients reaches only their placements,
 * which the route's access check ensures; a client reviewer only what says `clientReview`, as its
 * route's contract does, decision 035), or Byline's own jobs.
 */
export type Who = { side: 'admin' } | { side: 'brand'; can: Capability; clientReview?: true } | { side: 'system' };

/** Conditions beside the from-state, each a predicate over the inputs (named so the docs can say them). */
const GUARDS = {
  revisions_left: (p: LifeInputs) => p.revisionsUsed < p.revisionsIncluded,
  revisions_used: (p: LifeInputs) => p.revisionsUsed >= p.revisionsIncluded,
  draft_attached: (p: LifeInputs) => p.hasDraft,
  before_writing: (p: LifeInputs) => !p.writingStarted,
  writing_started: (p: LifeInputs) => p.writingStarted,
  no_request_open: (p: LifeInputs) => openRequestOf(p) === null,
  extra_revision_pending: (p: LifeInputs) => p.extraRevisionPending,
  no_extra_revision_pending: (p: LifeInputs) => !p.extraRevisionPending,
  cancellation_pending: (p: LifeInputs) => p.cancellationPending,
  no_cancellation_pending: (p: LifeInputs) => !p.cancellationPending,
  dispute_open: (p: LifeInputs) => p.disputeStatus === 'open',
  dispute_answered: (p: LifeInputs) => p.disputeStatus === 'offered',
  dispute_offer_stands: (p: LifeInputs) => p.disputeStatus === 'offered' && p.disputeOffer,
  dispute_escalated: (p: LifeInputs) => p.disputeStatus === 'escalated',
  dispute_unresolved: (p: LifeInputs) => p.disputeStatus === 'open' || p.disputeStatus === 'offered' || p.disputeStatus === 'escalated',
  // a dispute about the content: from the first draft (or the release) until DISPUTE_DAYS after release
  content_window: (p: LifeInputs) => (p.hasDraft || p.state === 'published') && notPast(p, p.disputeContentUntil),
  // a dispute about the live link: while its publication guarantee runs
  link_window: (p: LifeInputs) => p.disputeLinkUntil != null && notPast(p, p.disputeLinkUntil, true),
  // the brand escalates an answer until its `escalate_by`
  escalation_open: (p: LifeInputs) => notPast(p, p.disputeEscalateBy),
  very_late: (p: LifeInputs) => p.lateDays !== undefined && p.cancelDays !== undefined && p.lateDays >= p.cancelDays,
} as const satisfies Record<string, (p: LifeInputs) => boolean>;
export type Guard = keyof typeof GUARDS;

export interface Transition {
  event: LifeEvent;
  from: readonly LifeState[];
  /** The state after it: one, or those it may land in (a refund that was asked for, a swap). Omitted: the state is kept. */
  to?: LifeState | readonly LifeState[];
  who: Who;
  /** the timeline entry it appends: its event's kind (`LIFE_EVENT_KINDS`) */
  writes: LifeKind;
  guards?: readonly Guard[];
}
/** A row of the table as written: its kind comes from its event. */
type Row = Omit<Transition, 'writes'>;

const HELD_BEFORE_WRITING = ['brief_pending', 'awaiting_first_draft'] as const satisfies readonly LifeState[];
const UNDER_REVIEW = ['awaiting_review', 'edits_requested', 'edits_complete'] as const satisfies readonly LifeState[];
/** In progress, before the brand approved: the brief may still change. */
const BRIEF_OPEN = ['brief_pending', 'awaiting_first_draft', 'declined', ...UNDER_REVIEW] as const satisfies readonly LifeState[];
const HELD = [...BRIEF_OPEN, 'approved'] as const satisfies readonly LifeState[];
/** Where a dispute may be opened: from the first draft on (its guards say which window is open). */
const DISPUTABLE = [...UNDER_REVIEW, 'approved', 'released'] as const satisfies readonly LifeState[];

const brand = (can: Capability): Who => ({ side: 'brand', can });
/** A brand's move a client reviewer may make too (the brief and the review of the draft). */
const reviewing = (can: Capability): Who => ({ side: 'brand', can, clientReview: true });
const ADMIN: Who = { side: 'admin' };
const SYSTEM: Who = { side: 'system' };

/**
 * A move of an open dispute, from each state a dispute lives in: the state is kept, or refunded when
 * the move's refund empties the payment (no move refunds what its escalation only changes).
 */
function disputeMove(event: LifeEvent, who: Who, ...guards: Guard[]): Row[] {
  const refunds = LIFE_EVENT_KINDS[event] === 'dispute_resolved';
  return [...DISPUTABLE, 'refunded' as const].map((from) => ({
    event,
    from: [from],
    to: refunds && from !== 'refunded' ? [from, 'refunded'] : from,
    who,
    guards,
  }));
}

/**
 * The events, each with the timeline kind it writes (one per event, whatever its from-state). The
 * placement part of TIMELINE_KINDS (shared/enums.ts) is made from this table: a new event's kind
 * needs no other list.
 */
const LIFE_EVENT_KINDS = {
  submit_brief: 'brief_submitted',
  decline: 'declined',
  swap: 'swapped',
  refund_unswapped: 'refunded',
  start_writing: 'writing_started',
  attach_draft: 'draft_attached',
  request_edits: 'edits_requested',
  request_extra_revision: 'revision_requested',
  accept_extra_revision: 'revision_accepted',
  decline_extra_revision: 'revision_declined',
  mark_edits_complete: 'edits_completed',
  approve: 'approved',
  release: 'released',
  cancel: 'cancel_requested',
  cancel_late: 'cancel_requested',
  request_cancellation: 'cancel_requested',
  grant_cancellation: 'cancel_answered',
  refuse_cancellation: 'cancel_answered',
  refund: 'refunded',
  refund_part: 'refunded',
  open_dispute: 'dispute_opened',
  open_link_dispute: 'dispute_opened',
  answer_dispute: 'dispute_answered',
  accept_dispute: 'dispute_resolved',
  accept_dispute_offer: 'dispute_resolved',
  escalate_dispute: 'dispute_escalated',
  decide_dispute: 'dispute_resolved',
  grant_dispute_by_deadline: 'dispute_resolved',
  settle_link_dispute: 'dispute_resolved',
} as const;
export type LifeEvent = keyof typeof LIFE_EVENT_KINDS;
export const LIFE_EVENTS = Object.keys(LIFE_EVENT_KINDS) as LifeEvent[];
/** A timeline kind the table writes. */
type LifeKind = (typeof LIFE_EVENT_KINDS)[LifeEvent];
/** The timeline kinds the table writes, each once, in the events' order. */
const LIFE_KINDS: readonly LifeKind[] = [...new Set(Object.values(LIFE_EVENT_KINDS))];

/** Every kind of a placement's timeline entry: those of its other steps (shared/enums.ts), then the table's. */
export type TimelineKind = TimelineEntryKind | LifeKind;
export const TIMELINE_KINDS = [...TIMELINE_ENTRY_KINDS, ...LIFE_KINDS] as [TimelineKind, ...TimelineKind[]];

/** Every transition of a placement. The table: nothing else decides who may do what. */
const ROWS: readonly Row[] = [
  // the brand submits the brief; it may submit it again (edit it) until it approves the draft
  { event: 'submit_brief', from: ['brief_pending'], to: 'awaiting_first_draft', who: reviewing('work') },
  { event: 'submit_brief', from: ['awaiting_first_draft', 'declined', ...UNDER_REVIEW], who: reviewing('work') },
  // issue 46: the outlet declines before writing; the brand swaps it for an alternative, or a job refunds it at the deadline
  { event: 'decline', from: HELD_BEFORE_WRITING, to: 'declined', who: ADMIN, guards: ['before_writing'] },
  { event: 'swap', from: ['declined'], to: ['brief_pending', 'awaiting_first_draft'], who: brand('work') },
  { event: 'refund_unswapped', from: ['declined'], to: 'refunded', who: SYSTEM },
  // issue 47: from writing on, a cancellation is a request the team answers
  { event: 'start_writing', from: HELD_BEFORE_WRITING, who: ADMIN, guards: ['before_writing'] },
  // the draft: attached once the brief is in, replaced while the brand reviews it
  { event: 'attach_draft', from: ['awaiting_first_draft'], to: 'awaiting_review', who: ADMIN },
  { event: 'attach_draft', from: UNDER_REVIEW, who: ADMIN },
  // the brand's review (spec §4: it may approve or ask for edits while not approved)
  { event: 'request_edits', from: UNDER_REVIEW, to: 'edits_requested', who: reviewing('work'), guards: ['draft_attached', 'revisions_left'] },
  {
    event: 'request_extra_revision',
    from: UNDER_REVIEW,
    who: reviewing('work'),
    guards: ['draft_attached', 'revisions_used', 'no_extra_revision_pending'],
  },
  { event: 'accept_extra_revision', from: UNDER_REVIEW, to: 'edits_requested', who: ADMIN, guards: ['extra_revision_pending'] },
  { event: 'decline_extra_revision', from: UNDER_REVIEW, who: ADMIN, guards: ['extra_revision_pending'] },
  { event: 'mark_edits_complete', from: ['edits_requested'], to: 'edits_complete', who: ADMIN },
  { event: 'approve', from: UNDER_REVIEW, to: 'approved', who: reviewing('work'), guards: ['draft_attached'] },
  // the spec's release (Publish Content) takes any held placement; a release with a live URL of an unapproved draft needs a reason
  { event: 'release', from: HELD, to: 'released', who: ADMIN },
  // cancelling: before writing refunded at once, after it a request (issue 47)
  { event: 'cancel', from: [...HELD_BEFORE_WRITING, 'declined'], to: 'refunded', who: brand('buy'), guards: ['before_writing'] },
  // issue 59: LATE_CANCEL_DAYS business days past "Live by", the brand cancels in one click for all that is left
  // (the state is kept until the provider's refund is recorded, then refunded)
  ...HELD.map((from): Row => ({ event: 'cancel_late', from: [from], to: [from, 'refunded'], who: brand('buy'), guards: ['very_late'] })),
  {
    event: 'request_cancellation',
    from: HELD,
    who: brand('buy'),
    guards: ['writing_started', 'no_cancellation_pending'],
  },
  { event: 'grant_cancellation', from: HELD, to: 'refunded', who: ADMIN, guards: ['cancellation_pending'] },
  { event: 'refuse_cancellation', from: HELD, who: ADMIN, guards: ['cancellation_pending'] },
  // the editorial team's refund (full; a part refund keeps the state), and the guarantee's
  { event: 'refund', from: [...HELD, 'released'], to: 'refunded', who: ADMIN },
  { event: 'refund_part', from: [...HELD, 'released'], who: ADMIN },
  // a dispute about the content (from the first draft until DISPUTE_DAYS after release) or the live
  // link (while published and guaranteed): the windows are the guards, their ends computed by the server
  { event: 'open_dispute', from: DISPUTABLE, who: brand('work'), guards: ['content_window', 'no_request_open'] },
  { event: 'open_link_dispute', from: ['released'], who: brand('work'), guards: ['link_window', 'no_request_open'] },
  // the dispute's later moves (issue 47): the team answers (an offer or a rejection; Byline's checks
  // reject a link dispute they find live) or accepts; the brand accepts the offer or escalates; an
  // independent admin decides; a missed deadline grants what was asked, and a link dispute is
  // settled by its publication case. Each keeps the state or refunds it (its money may empty the
  // payment); a dispute opened before a refund is still answered after it.
  ...disputeMove('answer_dispute', ADMIN, 'dispute_open'),
  ...disputeMove('accept_dispute', ADMIN, 'dispute_open'),
  ...disputeMove('accept_dispute_offer', brand('work'), 'dispute_offer_stands'),
  ...disputeMove('escalate_dispute', brand('work'), 'dispute_answered', 'escalation_open'),
  ...disputeMove('decide_dispute', ADMIN, 'dispute_escalated'),
  ...disputeMove('grant_dispute_by_deadline', SYSTEM, 'dispute_unresolved'),
  ...disputeMove('settle_link_dispute', SYSTEM, 'dispute_open'),
];
export const TRANSITIONS: readonly Transition[] = ROWS.map((t) => ({ ...t, writes: LIFE_EVENT_KINDS[t.event] }));

/** The states a transition may land in (its from-state when it keeps it). */
export function landsIn(t: Transition, from: LifeState): readonly LifeState[] {
  if (t.to === undefined) return [from];
  return typeof t.to === 'string' ? [t.to] : t.to;
}

/**
 * Who is looking: an admin, or a member of the placement's organisation with their role and
 * whether they are a client reviewer (a reviewer limited to clients; shared/org.ts `hidesAmounts`).
 */
export type Viewer = { side: 'admin' } | { side: 'brand'; role: OrgRole; clientReviewer?: boolean };

/** Whether this viewer is who the transition names (system events are no viewer's). */
export function mayFire(who: Who, viewer: Viewer): boolean {
  if (who.side === 'system') return false;
  if (who.side === 'admin') return viewer.side === 'admin';
  if (viewer.side !== 'brand' || !roleCan(viewer.role, who.can)) return false;
  return !viewer.clientReviewer || who.clientReview === true;
}

/**
 * Whether the one who acts may fire a transition (the server's check, `transition()`): a member by
 * its role (and a client reviewer only a `clientReview` move), an admin the team's moves, and
 * Byline itself (its jobs, and a call made without an admin) the team's and its own.
 */
export type Mover = { side: 'brand'; role: OrgRole; clientReviewer: boolean } | { side: 'admin' } | { side: 'system' };
export function moverMay(who: Who, mover: Mover): boolean {
  if (mover.side === 'system') return who.side !== 'brand';
  return mayFire(who, mover);
}

/** The transitions of `event` that start from `state` with their guards holding. */
export function transitionsFrom(p: LifeInputs, event: LifeEvent): Transition[] {
  const state = lifeStateOf(p);
  return TRANSITIONS.filter((t) => t.event === event && t.from.includes(state) && (t.guards ?? []).every((g) => GUARDS[g](p)));
}

/**
 * Why the table refuses `event` now (null: it allows it): the placement's state (no transition of
 * the event starts there), the first guard that fails in the transition that starts there, or who
 * acts. The services turn the windows' refusals into their own words (their codes and messages).
 */
export function refusal(p: LifeInputs, event: LifeEvent, mover: Mover): 'state' | 'who' | Guard | null {
  const state = lifeStateOf(p);
  const from = TRANSITIONS.filter((t) => t.event === event && t.from.includes(state));
  if (!from.length) return 'state';
  const guarded = from.filter((t) => (t.guards ?? []).every((g) => GUARDS[g](p)));
  if (!guarded.length) return (from[0].guards ?? []).find((g) => !GUARDS[g](p))!;
  return guarded.some((t) => moverMay(t.who, mover)) ? null : 'who';
}

export interface Life {
  state: LifeState;
  label: string;
  waitingOn: WaitingOn;
  /** When it entered the state (ISO), kept by the database (placements.state_since). */
  since: string;
  /** The request open beside the state, if any. */
  request: OpenRequest | null;
  /** What this viewer may do now, in the table's order, each once. */
  actions: LifeEvent[];
}

/** What a viewer reads of a placement's life now: its state, whose turn, since when, what they may do. */
export function lifeOf(p: LifeInputs & { since: string }, viewer: Viewer): Life {
  const state = lifeStateOf(p);
  const request = openRequestOf(p);
  const actions: LifeEvent[] = [];
  for (const t of TRANSITIONS) {
    if (actions.includes(t.event) || !mayFire(t.who, viewer) || !t.from.includes(state)) continue;
    if ((t.guards ?? []).every((g) => GUARDS[g](p))) actions.push(t.event);
  }
  return {
    state,
    label: PLACEMENT_LIFE_STATES[state].label,
    waitingOn: request ? OPEN_REQUESTS[request].waitingOn : PLACEMENT_LIFE_STATES[state].waitingOn,
    since: p.since,
    request,
    actions,
  };
}

const whoText = (who: Who) => (who.side === 'brand' ? `brand:${who.can}${who.clientReview ? '+client reviewer' : ''}` : who.side);

/**
 * The table as a Mermaid state diagram (docs/ARCHITECTURE.md between its markers; a unit test
 * keeps it in step). One arrow per from, to and event; a state-keeping transition is a self-arrow.
 */
export function lifeDiagram(): string {
  const lines = ['stateDiagram-v2'];
  for (const id of LIFE_STATE_IDS) lines.push(`  ${id}: ${PLACEMENT_LIFE_STATES[id].label} (waiting on ${PLACEMENT_LIFE_STATES[id].waitingOn})`);
  lines.push('  [*] --> brief_pending: paid (system)');
  const arrows = new Map<string, string[]>();
  for (const t of TRANSITIONS) {
    for (const from of t.from) {
      for (const to of landsIn(t, from)) {
        const key = `${from} --> ${to}`;
        const label = `${t.event} (${whoText(t.who)}${t.guards?.length ? `; ${t.guards.join(', ')}` : ''})`;
        const list = arrows.get(key) ?? [];
        if (!list.includes(label)) list.push(label);
        arrows.set(key, list);
      }
    }
  }
  for (const [key, labels] of arrows) lines.push(`  ${key}: ${labels.join('<br/>')}`);
  lines.push('  released --> [*]', '  refunded --> [*]');
  return lines.join('\n');
}
