import { eq, sql } from 'drizzle-orm';
import { hidesAmounts, type OrgRole } from '../../../shared/org';
import {
  landsIn,
  lifeStateOf,
  moverMay,
  PLACEMENT_LIFE_STATES,
  refusal,
  transitionsFrom,
  type LifeEvent,
  type LifeInputs,
  type LifeState,
  type Mover,
} from '../../../shared/placement-machine';
import { briefs, placements } from '../../db/schema';
import { conflict } from '../../lib/errors';
import type { Tx } from '../../mail/outbox';
import { recordEvent, type Actor, type EffectFacts } from '../timeline/service';
import { lifeInputsSql } from '../life/life';

/**
 * The one way a placement changes state (issue 58, decision 042): `transition()` checks the table of
 * shared/placement-machine.ts — the placement's state, the transition's guards, who acts — makes the
 * change and appends its timeline entry, all in the change's own transaction.
 */

/** Who acts, as the timeline names them and as the table checks them. */
export type TransitionActor =
  | { type: 'brand'; id: string; role: OrgRole; clientIds: string[] | null }
  | { type: 'admin'; id: string }
  | { type: 'system' };

const moverOf = (a: TransitionActor): Mover =>
  a.type === 'brand' ? { side: 'brand', role: a.role, clientReviewer: hidesAmounts(a.role, a.clientIds) } : { side: a.type };
const timelineActor = (a: TransitionActor): Actor => (a.type === 'system' ? a : { type: a.type, id: a.id });

/** A member acting (lib/contract.ts `Member`). */
export const memberActor = (m: { userId: string; role: OrgRole; clientIds: string[] | null }): TransitionActor => ({
  type: 'brand',
  id: m.userId,
  role: m.role,
  clientIds: m.clientIds,
});

/**
 * A timeline actor as the table's (the team's moves take one): a brand named without its role
 * counts as the least of members, whom the table lets do nothing.
 */
export function actorAsMover(a: Actor): TransitionActor {
  if (a.type === 'system') return a;
  if (a.type === 'admin') return { type: 'admin', id: a.id };
  return { type: 'brand', id: a.id, role: 'viewer', clientIds: null };
}

/**
 * What the life is made of now; `lock`: hold the placement's row to the transaction's end; `at`: the
 * time the caller's change reads (its windows' guards compare their ends with it).
 */
async function inputsOf(tx: Tx, placementId: string, lock: boolean, at?: Date): Promise<LifeInputs | undefined> {
  const q = tx
    .select({ inputs: sql<string>`${lifeInputsSql}` })
    .from(placements)
    .leftJoin(briefs, eq(briefs.placementId, placements.id))
    .where(eq(placements.id, placementId));
  const [row] = lock ? await q.for('no key update', { of: placements }) : await q;
  if (!row) return undefined;
  const inputs = JSON.parse(row.inputs) as LifeInputs;
  return at ? { ...inputs, now: at.toISOString() } : inputs;
}

/**
 * Why the table would refuse `event` by `actor` now, at `at` (null: it allows it; undefined: no such
 * placement), before the caller changes anything: a service that must refuse a window in its own
 * words (a code and a message of the spec's or its tests') asks the table first.
 */
export async function tableRefusal(tx: Tx, placementId: string, event: LifeEvent, actor: TransitionActor, at?: Date) {
  const inputs = await inputsOf(tx, placementId, false, at);
  return inputs ? refusal(inputs, event, moverOf(actor)) : undefined;
}

const TRANSITION_NOT_ALLOWED = 'transition_not_allowed';

/**
 * Moves a placement by `event`. The placement's row is locked and its state read; `apply` makes the
 * change (the caller's own conditional writes, whose refusals keep their words: when it answers
 * `undefined` nothing happened and nothing is recorded). Then the table must allow the event from
 * the state it was in, by this actor, or the whole change is refused (409 `transition_not_allowed`)
 * and rolled back; the state it lands in must be one the table names; the transition's timeline
 * entry is appended with `details`, and its effects run (timeline/effects.ts: the audit entry and
 * the mails of its kind, with `facts`). Answers what `apply` answered.
 */
export async function transition<T>(
  tx: Tx,
  placementId: string,
  event: LifeEvent,
  actor: TransitionActor,
  apply: () => Promise<T | undefined>,
  details: (result: T) => Record<string, unknown> | Promise<Record<string, unknown>> = () => ({}),
  at?: Date,
  facts: EffectFacts = {},
): Promise<T | undefined> {
  const before = await inputsOf(tx, placementId, true, at);
  if (!before) return undefined;
  const result = await apply();
  if (result === undefined) return undefined;
  const from = lifeStateOf(before);
  const allowed = transitionsFrom(before, event).filter((t) => moverMay(t.who, moverOf(actor)));
  if (!allowed.length) {
    throw conflict(TRANSITION_NOT_ALLOWED, `This placement cannot take this step now (it is ${PLACEMENT_LIFE_STATES[from].label})`, undefined, {
      event,
      state: from,
    });
  }
  const after = await inputsOf(tx, placementId, false);
  const to: LifeState = lifeStateOf(after!);
  const lands = allowed.flatMap((t) => landsIn(t, from));
  // the code moved it where the table says it cannot go: a fault of ours, never the caller's
  if (!lands.includes(to)) throw new Error(`placement ${placementId}: ${event} from ${from} landed in ${to}, not ${lands.join(' | ')}`);
  await recordEvent(tx, placementId, allowed[0].writes, timelineActor(actor), await details(result), at, facts);
  return result;
}
