import type { Life, LifeEvent } from '@shared/placement-machine';

/**
 * Whether the signed-in member may take this step now, as the server's table says (`life.actions`,
 * issue 58): the one question every placement screen, brand or admin, asks before offering a step.
 */
export const may = (p: { life: Pick<Life, 'actions'> }, event: LifeEvent) => p.life.actions.includes(event);

/**
 * Whether the signed-in user may make this move of a dispute now: its placement's life speaks of
 * its latest dispute, the one still unresolved (a placement has at most one), never of an old one.
 */
export const mayOnDispute = (d: { status: string; life: Pick<Life, 'actions'> }, event: LifeEvent) =>
  d.status !== 'resolved' && may(d, event);
