import { describe, expect, it } from 'vitest';
import {
  LIFE_EVENTS,
  LIFE_STATE_IDS,
  PLACEMENT_LIFE_STATES,
  TIMELINE_KINDS,
  TRANSITIONS,
  landsIn,
  lifeOf,
  lifeStateOf,
  mayFire,
  moverMay,
  refusal,
  transitionsFrom,
  waitingWords,
  type LifeEvent,
  type LifeInputs,
  type LifeState,
  type Viewer,
} from '../../src/shared/placement-machine';
import { ORG_ROLES } from '../../src/shared/org';
import { DRAFT_REVIEW_STATUSES } from '../../src/shared/enums';

/** Issue 58 / decision 042: one table says a placement's states and who may move it. */

const base: LifeInputs & { since: string } = {
  state: 'in_progress',
  draftReviewStatus: 'awaiting_brand_brief',
  briefSubmitted: false,
  hasDraft: false,
  declined: false,
  writingStarted: false,
  revisionsUsed: 0,
  revisionsIncluded: 2,
  extraRevisionPending: false,
  cancellationPending: false,
  disputeStatus: null,
  disputeOffer: false,
  since: '2026-01-02T03:04:05.000Z',
};

/** A placement in each state, as its columns are then. */
const EXAMPLES: Record<LifeState, LifeInputs & { since: string }> = {
  brief_pending: base,
  awaiting_first_draft: { ...base, briefSubmitted: true },
  declined: { ...base, declined: true },
  awaiting_review: { ...base, briefSubmitted: true, hasDraft: true, writingStarted: true, draftReviewStatus: 'pending_brand_review' },
  edits_requested: { ...base, briefSubmitted: true, hasDraft: true, writingStarted: true, draftReviewStatus: 'edits_requested', revisionsUsed: 1 },
  edits_complete: { ...base, briefSubmitted: true, hasDraft: true, writingStarted: true, draftReviewStatus: 'edits_complete', revisionsUsed: 1 },
  approved: { ...base, briefSubmitted: true, hasDraft: true, writingStarted: true, draftReviewStatus: 'approved' },
  released: { ...base, state: 'published', briefSubmitted: true, hasDraft: true, writingStarted: true, draftReviewStatus: 'approved' },
  refunded: { ...base, state: 'refunded' },
};

const ADMIN: Viewer = { side: 'admin' };
/** A dispute's moves after it is opened (issue 47). */
const DISPUTE_MOVES: LifeEvent[] = [
  'answer_dispute',
  'accept_dispute',
  'accept_dispute_offer',
  'escalate_dispute',
  'decide_dispute',
  'grant_dispute_by_deadline',
  'settle_link_dispute',
];
const as = (role: (typeof ORG_ROLES)[number]): Viewer => ({ side: 'brand', role });

describe('the placement machine', () => {
  it.each(LIFE_STATE_IDS)('derives %s from its columns, with its label and whose turn', (state) => {
    const life = lifeOf(EXAMPLES[state], as('owner'));
    expect(life.state).toBe(state);
    expect(life.label).toBe(PLACEMENT_LIFE_STATES[state].label);
    expect(life.waitingOn).toBe(PLACEMENT_LIFE_STATES[state].waitingOn);
    expect(life.since).toBe(base.since);
  });

  it('uses the spec’s words for the states the spec names', () => {
    expect(PLACEMENT_LIFE_STATES.brief_pending.label).toBe('Brief pending');
    expect(PLACEMENT_LIFE_STATES.awaiting_first_draft.label).toBe('Awaiting first draft');
    expect(PLACEMENT_LIFE_STATES.awaiting_review.label).toBe('Awaiting brand review');
    expect(PLACEMENT_LIFE_STATES.edits_requested.label).toBe('Brand requested edits');
    expect(PLACEMENT_LIFE_STATES.edits_complete.label).toBe('Edits complete - awaiting brand re-review');
    expect(PLACEMENT_LIFE_STATES.approved.label).toBe('Brand approved');
    expect(PLACEMENT_LIFE_STATES.released.label).toBe('Released');
    expect(PLACEMENT_LIFE_STATES.refunded.label).toBe('Refunded');
  });

  it('gives every combination of columns exactly one state', () => {
    for (const state of ['in_progress', 'published', 'refunded'] as const)
      for (const draftReviewStatus of DRAFT_REVIEW_STATUSES)
        for (const briefSubmitted of [false, true])
          for (const declined of [false, true]) expect(LIFE_STATE_IDS).toContain(lifeStateOf({ state, draftReviewStatus, briefSubmitted, declined }));
    // the money decides first: a refunded or released placement is that whatever its draft says
    expect(lifeStateOf({ ...EXAMPLES.declined, state: 'refunded' })).toBe('refunded');
    expect(lifeStateOf({ ...EXAMPLES.edits_requested, state: 'published' })).toBe('released');
  });

  it('is a table whose states, events and timeline kinds all exist, and reaches every state', () => {
    const reached = new Set<LifeState>(['brief_pending']);
    for (const t of TRANSITIONS) {
      expect(LIFE_EVENTS).toContain(t.event);
      expect(TIMELINE_KINDS).toContain(t.writes);
      expect(t.from.length).toBeGreaterThan(0);
      for (const from of t.from) {
        expect(LIFE_STATE_IDS).toContain(from);
        for (const to of landsIn(t, from)) reached.add(to);
      }
    }
    expect([...reached].sort()).toEqual([...LIFE_STATE_IDS].sort());
    for (const event of LIFE_EVENTS) expect(TRANSITIONS.some((t) => t.event === event)).toBe(true);
    // nothing leaves the end states but a refund of a released one, or a dispute's move about it
    const fromEnd = TRANSITIONS.filter(
      (t) => !DISPUTE_MOVES.includes(t.event) && (t.from.includes('refunded') || (t.from.includes('released') && landsIn(t, 'released')[0] !== 'released')),
    );
    expect(fromEnd.map((t) => t.event)).toEqual(['refund']);
    // a dispute's move keeps a refunded placement refunded, and a released one released or refunds it
    for (const t of TRANSITIONS.filter((t) => DISPUTE_MOVES.includes(t.event))) {
      if (t.from.includes('refunded')) expect(landsIn(t, 'refunded')).toEqual(['refunded']);
      if (t.from.includes('released')) expect(['released', 'refunded']).toEqual(expect.arrayContaining([...landsIn(t, 'released')]));
    }
  });

  it('lets each side do only its own moves (who may)', () => {
    // the brand's review: every role that works (not a viewer); the team's moves: admins only
    const review = EXAMPLES.awaiting_review;
    for (const role of ['owner', 'admin', 'buyer', 'reviewer'] as const) {
      expect(lifeOf(review, as(role)).actions).toEqual(expect.arrayContaining(['submit_brief', 'request_edits', 'approve']));
      expect(lifeOf(review, as(role)).actions).not.toContain('attach_draft');
    }
    expect(lifeOf(review, as('viewer')).actions).toEqual([]);
    expect(lifeOf(review, ADMIN).actions).toEqual(['attach_draft', 'release', 'refund', 'refund_part']);
    // cancelling asks for money back: a buyer may, a reviewer may not (cancel-routes `can: 'buy'`)
    expect(lifeOf(EXAMPLES.brief_pending, as('buyer')).actions).toContain('cancel');
    expect(lifeOf(EXAMPLES.brief_pending, as('reviewer')).actions).not.toContain('cancel');
    expect(lifeOf(EXAMPLES.brief_pending, as('reviewer')).actions).toEqual(['submit_brief']);
    // Byline's jobs are nobody's action
    expect(lifeOf(EXAMPLES.declined, ADMIN).actions).not.toContain('refund_unswapped');
    expect(mayFire({ side: 'system' }, ADMIN)).toBe(false);
    expect(mayFire({ side: 'admin' }, as('owner'))).toBe(false);
    expect(mayFire({ side: 'brand', can: 'buy' }, ADMIN)).toBe(false);
  });

  it('lets a client reviewer do only the moves its routes allow it (decision 035)', () => {
    const clientReviewer: Viewer = { side: 'brand', role: 'reviewer', clientReviewer: true };
    expect(lifeOf(EXAMPLES.awaiting_review, clientReviewer).actions).toEqual(['submit_brief', 'request_edits', 'approve']);
    expect(lifeOf({ ...EXAMPLES.edits_complete, revisionsUsed: 2 }, clientReviewer).actions).toEqual(['submit_brief', 'request_extra_revision', 'approve']);
    // a dispute and a swap are not the client reviewer's (their routes refuse one)
    expect(lifeOf(EXAMPLES.released, clientReviewer).actions).toEqual([]);
    expect(lifeOf(EXAMPLES.declined, clientReviewer).actions).toEqual(['submit_brief']);
    expect(lifeOf(EXAMPLES.released, as('reviewer')).actions).toEqual(['open_dispute']);
  });

  it('lets Byline itself make the team’s moves and its own, never a brand’s (the server’s check)', () => {
    const system = { side: 'system' } as const;
    expect(moverMay({ side: 'admin' }, system)).toBe(true);
    expect(moverMay({ side: 'system' }, system)).toBe(true);
    expect(moverMay({ side: 'brand', can: 'work' }, system)).toBe(false);
    expect(moverMay({ side: 'system' }, { side: 'admin' })).toBe(false);
    expect(moverMay({ side: 'brand', can: 'work' }, { side: 'brand', role: 'reviewer', clientReviewer: true })).toBe(false);
    expect(moverMay({ side: 'brand', can: 'work', clientReview: true }, { side: 'brand', role: 'reviewer', clientReviewer: true })).toBe(true);
  });

  it('says whose turn it is in the reader’s words', () => {
    expect(waitingWords('brand', 'brand')).toBe('Waiting on you');
    expect(waitingWords('team', 'brand')).toBe('Waiting on the editorial team');
    expect(waitingWords('brand', 'admin')).toBe('Waiting on the brand');
    expect(waitingWords('team', 'admin')).toBe('Waiting on you');
    expect(waitingWords('nobody', 'brand')).toBeNull();
  });

  it('lists what each state allows, for the brand and for the team', () => {
    const brandSees = Object.fromEntries(LIFE_STATE_IDS.map((s) => [s, lifeOf(EXAMPLES[s], as('owner')).actions]));
    expect(brandSees).toEqual({
      brief_pending: ['submit_brief', 'cancel'],
      awaiting_first_draft: ['submit_brief', 'cancel'],
      declined: ['submit_brief', 'swap', 'cancel'],
      awaiting_review: ['submit_brief', 'request_edits', 'approve', 'request_cancellation', 'open_dispute'],
      edits_requested: ['submit_brief', 'request_edits', 'approve', 'request_cancellation', 'open_dispute'],
      edits_complete: ['submit_brief', 'request_edits', 'approve', 'request_cancellation', 'open_dispute'],
      approved: ['request_cancellation', 'open_dispute'],
      released: ['open_dispute'],
      refunded: [],
    });
    const teamSees = Object.fromEntries(LIFE_STATE_IDS.map((s) => [s, lifeOf(EXAMPLES[s], ADMIN).actions]));
    expect(teamSees).toEqual({
      brief_pending: ['decline', 'start_writing', 'release', 'refund', 'refund_part'],
      awaiting_first_draft: ['decline', 'start_writing', 'attach_draft', 'release', 'refund', 'refund_part'],
      declined: ['release', 'refund', 'refund_part'],
      awaiting_review: ['attach_draft', 'release', 'refund', 'refund_part'],
      edits_requested: ['attach_draft', 'mark_edits_complete', 'release', 'refund', 'refund_part'],
      edits_complete: ['attach_draft', 'release', 'refund', 'refund_part'],
      approved: ['release', 'refund', 'refund_part'],
      released: ['refund', 'refund_part'],
      refunded: [],
    });
  });

  it('follows the guards: revisions, writing, open requests', () => {
    const used = { ...EXAMPLES.edits_complete, revisionsUsed: 2 };
    expect(lifeOf(used, as('buyer')).actions).not.toContain('request_edits');
    expect(lifeOf(used, as('buyer')).actions).toContain('request_extra_revision');
    const asked = { ...used, extraRevisionPending: true };
    expect(lifeOf(asked, as('buyer')).actions).not.toContain('request_extra_revision');
    expect(lifeOf(asked, ADMIN).actions).toEqual(expect.arrayContaining(['accept_extra_revision', 'decline_extra_revision']));
    expect(transitionsFrom(asked, 'accept_extra_revision').flatMap((t) => landsIn(t, 'edits_complete'))).toEqual(['edits_requested']);
    // writing started: cancelling becomes a request, and the outlet can no longer decline
    const writing = { ...EXAMPLES.awaiting_first_draft, writingStarted: true };
    expect(lifeOf(writing, as('owner')).actions).toEqual(['submit_brief', 'request_cancellation']);
    expect(lifeOf(writing, ADMIN).actions).not.toContain('decline');
    expect(transitionsFrom(EXAMPLES.approved, 'approve')).toEqual([]);
    expect(transitionsFrom(EXAMPLES.awaiting_review, 'approve')).toHaveLength(1);
  });

  it('says whose turn it is while a request is open beside the state', () => {
    const cancelling = { ...EXAMPLES.awaiting_review, cancellationPending: true };
    expect(lifeOf(cancelling, as('owner'))).toMatchObject({ state: 'awaiting_review', request: 'cancellation', waitingOn: 'team' });
    expect(lifeOf(cancelling, ADMIN).actions).toEqual(expect.arrayContaining(['grant_cancellation', 'refuse_cancellation']));
    expect(lifeOf({ ...EXAMPLES.released, disputeStatus: 'open' }, as('owner'))).toMatchObject({ request: 'dispute', waitingOn: 'team', actions: [] });
    expect(lifeOf({ ...EXAMPLES.released, disputeStatus: 'offered' }, as('owner'))).toMatchObject({ request: 'dispute_offer', waitingOn: 'brand' });
    expect(lifeOf({ ...EXAMPLES.released, disputeStatus: 'resolved' }, as('owner'))).toMatchObject({ request: null, waitingOn: 'nobody' });
    expect(lifeOf({ ...EXAMPLES.edits_complete, extraRevisionPending: true }, as('owner'))).toMatchObject({ request: 'extra_revision', waitingOn: 'team' });
  });

  describe('a dispute’s moves (issue 47)', () => {
    const DISPUTED = ['awaiting_review', 'edits_requested', 'edits_complete', 'approved', 'released', 'refunded'] as const;
    const open = (state: LifeState) => ({ ...EXAMPLES[state], disputeStatus: 'open' as const });
    const offer = (state: LifeState) => ({ ...EXAMPLES[state], disputeStatus: 'offered' as const, disputeOffer: true });
    const rejected = (state: LifeState) => ({ ...EXAMPLES[state], disputeStatus: 'offered' as const, disputeOffer: false });
    const escalated = (state: LifeState) => ({ ...EXAMPLES[state], disputeStatus: 'escalated' as const });
    const disputeActions = (p: LifeInputs & { since: string }, viewer: Viewer) =>
      lifeOf(p, viewer).actions.filter((e) => DISPUTE_MOVES.includes(e));

    it.each(DISPUTED)('from %s: the team answers an open one, the brand accepts an offer or escalates, an admin decides', (state) => {
      expect(disputeActions(open(state), ADMIN)).toEqual(['answer_dispute', 'accept_dispute']);
      expect(disputeActions(open(state), as('owner'))).toEqual([]);
      for (const role of ['owner', 'admin', 'buyer', 'reviewer'] as const) {
        expect(disputeActions(offer(state), as(role))).toEqual(['accept_dispute_offer', 'escalate_dispute']);
        // a rejection has no offer to accept: the brand may only escalate it
        expect(disputeActions(rejected(state), as(role))).toEqual(['escalate_dispute']);
      }
      expect(disputeActions(offer(state), as('viewer'))).toEqual([]);
      expect(disputeActions(offer(state), ADMIN)).toEqual([]);
      expect(disputeActions(escalated(state), ADMIN)).toEqual(['decide_dispute']);
      expect(disputeActions(escalated(state), as('owner'))).toEqual([]);
      expect(disputeActions({ ...EXAMPLES[state], disputeStatus: 'resolved' }, ADMIN)).toEqual([]);
    });

    it('lets no client reviewer accept or escalate (its routes refuse it)', () => {
      const clientReviewer: Viewer = { side: 'brand', role: 'reviewer', clientReviewer: true };
      expect(disputeActions(offer('released'), clientReviewer)).toEqual([]);
    });

    it.each(['brief_pending', 'awaiting_first_draft', 'declined'] as const)('has no dispute move from %s (no draft yet)', (state) => {
      for (const event of DISPUTE_MOVES) expect(transitionsFrom(open(state), event)).toEqual([]);
    });

    it('lets only Byline grant by deadline or settle a link dispute, from any unresolved status', () => {
      const system = { side: 'system' } as const;
      for (const p of [open('released'), offer('released'), rejected('approved'), escalated('edits_complete')]) {
        const [t] = transitionsFrom(p, 'grant_dispute_by_deadline');
        expect(moverMay(t.who, system)).toBe(true);
        expect(moverMay(t.who, { side: 'admin' })).toBe(false);
        expect(moverMay(t.who, { side: 'brand', role: 'owner', clientReviewer: false })).toBe(false);
      }
      expect(transitionsFrom(open('released'), 'settle_link_dispute')).toHaveLength(1);
      expect(transitionsFrom(offer('released'), 'settle_link_dispute')).toEqual([]);
      // Byline's checks answer a link dispute as the team would
      expect(moverMay(transitionsFrom(open('released'), 'answer_dispute')[0].who, system)).toBe(true);
      expect(transitionsFrom({ ...EXAMPLES.released, disputeStatus: 'resolved' }, 'grant_dispute_by_deadline')).toEqual([]);
    });

    it('lets a resolution refund the placement, never an answer or an escalation', () => {
      const resolving = [
        ['accept_dispute', open('approved')],
        ['accept_dispute_offer', offer('approved')],
        ['decide_dispute', escalated('approved')],
        ['grant_dispute_by_deadline', open('approved')],
      ] as const;
      for (const [event, p] of resolving) {
        const [t] = transitionsFrom(p, event);
        expect(landsIn(t, 'approved')).toEqual(['approved', 'refunded']);
        expect(t.writes).toBe('dispute_resolved');
      }
      expect(landsIn(transitionsFrom(open('approved'), 'answer_dispute')[0], 'approved')).toEqual(['approved']);
      expect(landsIn(transitionsFrom(offer('approved'), 'escalate_dispute')[0], 'approved')).toEqual(['approved']);
      expect(transitionsFrom(offer('approved'), 'escalate_dispute')[0].writes).toBe('dispute_escalated');
      expect(transitionsFrom(open('approved'), 'answer_dispute')[0].writes).toBe('dispute_answered');
    });
  });

  describe('the dispute windows are guards (issue 58, decision 050)', () => {
    const NOW = '2026-03-10T12:00:00.000Z';
    const at = (p: LifeInputs & { since: string }, more: Partial<LifeInputs>) => ({ ...p, now: NOW, ...more });
    const owner = { side: 'brand', role: 'owner', clientReviewer: false } as const;

    it('a content dispute opens from the first draft until its end (release + DISPUTE_DAYS), the end itself included', () => {
      expect(lifeOf(at(EXAMPLES.awaiting_review, { disputeContentUntil: null }), as('owner')).actions).toContain('open_dispute');
      expect(lifeOf(at(EXAMPLES.released, { disputeContentUntil: NOW }), as('owner')).actions).toContain('open_dispute');
      const passed = at(EXAMPLES.released, { disputeContentUntil: '2026-03-10T11:59:59.999Z' });
      expect(lifeOf(passed, as('owner')).actions).not.toContain('open_dispute');
      expect(refusal(passed, 'open_dispute', owner)).toBe('content_window');
      // before the first draft there is nothing to dispute: not a state it opens from
      expect(refusal(at(EXAMPLES.awaiting_first_draft, {}), 'open_dispute', owner)).toBe('state');
    });

    it('a live link dispute opens while released and guaranteed, the guarantee’s end excluded', () => {
      const guaranteed = at(EXAMPLES.released, { disputeLinkUntil: '2026-03-10T12:00:00.001Z' });
      expect(lifeOf(guaranteed, as('owner')).actions).toContain('open_link_dispute');
      expect(lifeOf(guaranteed, as('viewer')).actions).not.toContain('open_link_dispute');
      expect(refusal(guaranteed, 'open_link_dispute', { side: 'brand', role: 'viewer', clientReviewer: false })).toBe('who');
      const ended = at(EXAMPLES.released, { disputeLinkUntil: NOW });
      expect(refusal(ended, 'open_link_dispute', owner)).toBe('link_window');
      expect(refusal(at(EXAMPLES.released, { disputeLinkUntil: null }), 'open_link_dispute', owner)).toBe('link_window');
      expect(refusal(at(EXAMPLES.approved, {}), 'open_link_dispute', owner)).toBe('state');
      // a request open beside it still stops both
      expect(refusal({ ...guaranteed, cancellationPending: true }, 'open_link_dispute', owner)).toBe('no_request_open');
    });

    it('an answer is escalated until escalate_by, and the offer accepted whatever the time', () => {
      const offered = { disputeStatus: 'offered' as const, disputeOffer: true };
      const inTime = at(EXAMPLES.released, { ...offered, disputeEscalateBy: NOW });
      expect(lifeOf(inTime, as('owner')).actions).toEqual(expect.arrayContaining(['accept_dispute_offer', 'escalate_dispute']));
      const late = at(EXAMPLES.released, { ...offered, disputeEscalateBy: '2026-03-10T11:00:00.000Z' });
      expect(lifeOf(late, as('owner')).actions).toContain('accept_dispute_offer');
      expect(lifeOf(late, as('owner')).actions).not.toContain('escalate_dispute');
      expect(refusal(late, 'escalate_dispute', owner)).toBe('escalation_open');
      expect(refusal(at(EXAMPLES.released, { disputeStatus: 'offered', disputeOffer: false }), 'accept_dispute_offer', owner)).toBe('dispute_offer_stands');
    });
  });
});
