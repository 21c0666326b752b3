import { z } from 'zod';
import { timestamp } from './common';
import { LIFE_EVENTS, LIFE_STATE_IDS, OPEN_REQUESTS, type LifeState, type OpenRequest } from '../../placement-machine';

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
  })
  .meta({ id: 'PlacementLife' });
