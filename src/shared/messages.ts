/**
 * The conversation of a placement between its brand and the editorial team (issue 19). Shared by
 * server and client.
 */

import type { z } from 'zod';
import type { messageSchema } from './schemas/responses/conversation';

// the sides live in the leaf enums.ts, which the response schemas build on
export { MESSAGE_SIDES } from './enums';
export type { MessageSide } from './enums';

export const MESSAGE_TEXT_MAX = 5000;

/** GET /api/{brand|admin}/projects/{paymentId}/messages: one message. */
export type Message = z.infer<typeof messageSchema>;
