import { z } from 'zod';
import { MESSAGE_TEXT_MAX } from '../messages';
import type { conversationAboutSchema, unreadSummarySchema } from './responses/conversation';

export const MESSAGE_EMPTY = 'Write a message or attach a file';
const MESSAGE_TOO_LONG = `Message must be at most ${MESSAGE_TEXT_MAX.toLocaleString('en-US')} characters`;

/**
 * POST /api/{brand|admin}/projects/{paymentId}/messages: the text (JSON `{text}`, or the `text`
 * field of a multipart request with a `file`). Outer whitespace is dropped; whether an empty text
 * is enough depends on the file, so the route says "Write a message or attach a file".
 */
export const messageTextSchema = z.object({
  text: z
    .string({ error: 'Message must be text' })
    .trim()
    .max(MESSAGE_TEXT_MAX, MESSAGE_TOO_LONG)
    .nullish()
    .transform((v) => v ?? ''),
});

/** GET /api/{brand|admin}/messages/unread: the caller's side's unread messages, per placement (payment id). */
export type UnreadSummary = z.infer<typeof unreadSummarySchema>;

/** GET /api/{brand|admin}/projects/{paymentId}/conversation: what the details page's header names. */
export type ConversationAbout = z.infer<typeof conversationAboutSchema>;
