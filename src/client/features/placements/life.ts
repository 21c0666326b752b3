import type { Life, LifeEvent } from '@shared/placement-machine';

/**
 * Whether the signed-in member may take this step now, as the server's table says (`life.actions`,
 * issue 58): the one question every placement screen, brand or admin, asks before offering a step.
 */
export const may = (p: { life: Pick<Life, 'actions'> }, event: LifeEvent) => p.life.actions.includes(event);
