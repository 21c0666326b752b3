/**
 * A placement's timeline (issue 19): what happened to one purchased article, who did it and when,
 * newest last. Written by the server in the same transaction as the change it records; never
 * edited. Shared by server and client.
 */

import type { z } from 'zod';
import type { timelineEntrySchema } from './schemas/responses/conversation';

// the actors live in the leaf enums.ts; the kinds are the machine's table's and the other steps' (placement-machine.ts)
export { ACTOR_TYPES } from './enums';
export { TIMELINE_KINDS } from './placement-machine';
export type { TimelineKind } from './placement-machine';

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: one entry. */
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
