/**
 * The conversation of a placement between its brand and the editorial team (issue 19). Shared by
 * server and client.
 */

import type { z } from 'zod';
import type { messageSchema } from './schemas/responses/conversation';

export const MESSAGE_TEXT_MAX = 5000;
/** The two sides of a conversation: the brand, and the editorial team (every admin). */
export const MESSAGE_SIDES = ['brand', 'admin'] as const;
export type MessageSide = (typeof MESSAGE_SIDES)[number];

/** GET /api/{brand|admin}/projects/{paymentId}/messages: one message. */
export type Message = z.infer<typeof messageSchema>;
