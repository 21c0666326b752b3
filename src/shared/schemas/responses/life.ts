import { z } from 'zod';
import { timestamp } from './common';
import { CLOCK_STAGES, CLOCK_STATES } from '../../stage-clock';
import { LIFE_EVENTS, LIFE_STATE_IDS, OPEN_REQUESTS, type LifeState, type OpenRequest } from '../../placement-machine';

const stage = z.enum(CLOCK_STAGES);

/** A move of "Live by" and its reason (decision 048). */
const promiseMoveSchema = z
  .object({
    stage: stage.describe('the stage the brand ended late, or the team’s stage it held'),
    to: z.enum([...CLOCK_STAGES, 'held']).describe('the stage it went on to; `held`: the brand held the team’s stage'),
    days: z.number().int().describe('business days "Live by" moved by'),
    at: timestamp.describe('when'),
  })
  .meta({ id: 'PromiseMove' });

/**
 * The placement's stage clock (issue 59, decision 048): the stage, the side that owes it, its due
 * time and its state now (at risk with a fifth of its time left, late past due, paused while the
 * other side holds the placement), and "Live by" with its moves. Kept by the database; read against
 * Byline's time.
 */
export const clockSchema = z
  .object({
    stage: stage.nullable().describe('the stage running: brief, draft (the first), review (the brand’s), edits (a round), publication; null when none (released, refunded, declined)'),
    owner: z.enum(['brand', 'team']).nullable().describe('the side that owes the stage'),
    startedAt: timestamp.nullable().describe('when the stage started (moved by its pauses)'),
    dueAt: timestamp.nullable().describe('when it is due (business days, Mon–Fri UTC; moved by its pauses once resumed)'),
    pausedAt: timestamp.nullable().describe('paused since: the other side holds the placement (a request open beside the state)'),
    state: z.enum(CLOCK_STATES).nullable().describe('on_track; at_risk (a fifth of its time left); late (past due); paused'),
    liveBy: timestamp.nullable().describe('"Live by" now: the promised date moved by the brand’s delays'),
    promiseMovedDays: z.number().int().describe('business days "Live by" moved by the brand’s delays'),
    promiseMoves: z.array(promiseMoveSchema).describe('each move with its reason'),
    promiseMoved: z.string().nullable().describe('the moves in a sentence: "moved 2 days: brief sent 2 days late"; null when it never moved'),
  })
  .meta({ id: 'StageClock' });

/**
 * Where the placement stands, whose turn it is, since when and what the viewer may do now (issue 58,
 * decision 042): made by the server from the one table of src/shared/placement-machine.ts. A new
 * member beside the spec's `payment.status` and `draftReviewStatus`, which keep their values.
 */
export const lifeSchema = z
  .object({
    state: z.enum(LIFE_STATE_IDS as [LifeState, ...LifeState[]]).describe('the placement’s state (one vocabulary, placement-machine.ts)'),
    label: z.string().describe('the state in words, the same on every screen ("Brief pending", "Awaiting first draft", …)'),
    waitingOn: z.enum(['brand', 'team', 'nobody']).describe('whose turn it is: the brand’s, the editorial team’s, or nobody’s'),
    since: timestamp.describe('when it entered this state'),
    request: z
      .enum(Object.keys(OPEN_REQUESTS) as [OpenRequest, ...OpenRequest[]])
      .nullable()
      .describe('a request open beside the state (an extra revision, a cancellation, a dispute), which decides whose turn it is'),
    actions: z.array(z.enum(LIFE_EVENTS)).describe('the transitions this viewer may fire now, by the table'),
    clock: clockSchema,
  })
  .meta({ id: 'PlacementLife' });
