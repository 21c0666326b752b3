/**
 * A placement's timeline (issue 19): what happened to one purchased article, who did it and when,
 * newest last. Written by the server in the same transaction as the change it records; never
 * edited. Shared by server and client.
 */

import type { z } from 'zod';
import type { timelineEntrySchema } from './schemas/responses/conversation';

// the lists themselves live in the leaf enums.ts, which the response schemas build on
export { ACTOR_TYPES, TIMELINE_KINDS } from './enums';
export type { TimelineKind } from './enums';

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: one entry. */
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
