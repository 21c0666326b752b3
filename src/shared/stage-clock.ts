/**
 * Stage clocks (issue 59, decision 048): each stage of a placement's work has a side that owes it
 * and a due time, kept by the database (drizzle/0053 `placement_clock`) as the placement moves; a
 * clock pauses while the other side holds the placement and resumes where it stopped. What a
 * screen reads of it now — on track, at risk, late or paused — is computed here, at read, against
 * Byline's time (the server's `now()`); the sentence of "Live by" moved by the brand's delays too.
 */

import type { WaitingOn } from './placement-machine';

/** The settings' defaults (business days; the README's table and the terms page name them). */
export const REVIEW_DAYS_DEFAULT = 3;
export const EDIT_DAYS_DEFAULT = 2;

/** A stage is at risk once this share of its time is left (and late past its due time). */
export const AT_RISK_SHARE = 0.2;

export const CLOCK_STAGES = ['brief', 'draft', 'review', 'edits', 'publication'] as const;
export type ClockStage = (typeof CLOCK_STAGES)[number];

/** Each stage's name and the side that owes it. */
export const STAGE_CLOCKS: Record<ClockStage, { label: string; owner: Exclude<WaitingOn, 'nobody'> }> = {
  brief: { label: 'Brief', owner: 'brand' },
  draft: { label: 'First draft', owner: 'team' },
  review: { label: 'Brand review', owner: 'brand' },
  edits: { label: 'Edit round', owner: 'team' },
  publication: { label: 'Publication', owner: 'team' },
};

export const CLOCK_STATES = ['on_track', 'at_risk', 'late', 'paused'] as const;
export type ClockState = (typeof CLOCK_STATES)[number];

/**
 * A move of "Live by", as the database keeps it: the stage the brand ended late (and the stage it
 * moved to), or a team's stage the brand held (`to: 'held'`), by `days` business days, at `at`.
 */
export interface PromiseMove {
  stage: ClockStage;
  to: ClockStage | 'held';
  days: number;
  at: string;
}

/** The clock's columns as a list reads them. */
export interface ClockInputs {
  stage: ClockStage | null;
  startedAt: string | null;
  dueAt: string | null;
  pausedAt: string | null;
  /** live_by(promised_by, promise_moved_days): "Live by" now */
  liveBy: string | null;
  movedDays: number;
  moves: PromiseMove[];
}

/** On track, at risk (AT_RISK_SHARE of the stage's time left), late (past due) or paused, at `now`. */
export function clockStateOf(c: Pick<ClockInputs, 'startedAt' | 'dueAt' | 'pausedAt'>, now: Date): ClockState | null {
  if (!c.dueAt) return null;
  if (c.pausedAt) return 'paused';
  const due = Date.parse(c.dueAt);
  const t = now.getTime();
  if (t > due) return 'late';
  const span = c.startedAt ? due - Date.parse(c.startedAt) : 0;
  return due - t <= AT_RISK_SHARE * span ? 'at_risk' : 'on_track';
}

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/** Why "Live by" moved, in a phrase: "brief sent 2 days late". */
export function moveReason(m: PromiseMove): string {
  if (m.to === 'held') return `held by the brand ${days(m.days)} during ${STAGE_CLOCKS[m.stage].label.toLowerCase()}`;
  if (m.stage === 'brief') return `brief sent ${days(m.days)} late`;
  if (m.stage === 'review') {
    if (m.to === 'edits') return `review sent back ${days(m.days)} late`;
    if (m.to === 'publication') return `draft approved ${days(m.days)} late`;
    return `review answered ${days(m.days)} late`;
  }
  return `${STAGE_CLOCKS[m.stage].label.toLowerCase()} ${days(m.days)} late`;
}

/** "moved 2 days: brief sent 2 days late" (null: it never moved). */
export function promiseMoveSentence(movedDays: number, moves: readonly PromiseMove[]): string | null {
  if (movedDays <= 0) return null;
  const reasons = moves.map(moveReason);
  return reasons.length ? `moved ${days(movedDays)}: ${reasons.join('; ')}` : `moved ${days(movedDays)}`;
}

/** A placement's clock as its answers carry it (`life.clock`). */
export interface Clock {
  stage: ClockStage | null;
  /** the side that owes the stage */
  owner: 'brand' | 'team' | null;
  startedAt: string | null;
  dueAt: string | null;
  pausedAt: string | null;
  state: ClockState | null;
  liveBy: string | null;
  promiseMovedDays: number;
  promiseMoves: PromiseMove[];
  /** promiseMoveSentence */
  promiseMoved: string | null;
}

export function clockOf(c: ClockInputs, now: Date): Clock {
  return {
    stage: c.stage,
    owner: c.stage ? STAGE_CLOCKS[c.stage].owner : null,
    startedAt: c.startedAt,
    dueAt: c.dueAt,
    pausedAt: c.pausedAt,
    state: c.stage ? clockStateOf(c, now) : null,
    liveBy: c.liveBy,
    promiseMovedDays: c.movedDays,
    promiseMoves: c.moves,
    promiseMoved: promiseMoveSentence(c.movedDays, c.moves),
  };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The time left or over in words: "Due in 2 days", "Due in 5 hours", "1 day late", "Paused". */
export function dueWords(c: Pick<Clock, 'dueAt' | 'state'>, now: Date): string | null {
  if (!c.dueAt || !c.state) return null;
  if (c.state === 'paused') return 'Paused';
  const left = Date.parse(c.dueAt) - now.getTime();
  if (left < 0) {
    const over = -left;
    return over < DAY ? `${Math.max(1, Math.ceil(over / HOUR))} h late` : `${days(Math.floor(over / DAY))} late`;
  }
  if (left < DAY) return `Due in ${Math.max(1, Math.ceil(left / HOUR))} h`;
  return `Due in ${days(Math.floor(left / DAY))}`;
}
