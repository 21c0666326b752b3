/**
 * The conversation of a placement between its brand and the editorial team (issue 19). Shared by
 * server and client.
 */

export const MESSAGE_TEXT_MAX = 5000;
/** The two sides of a conversation: the brand, and the editorial team (every admin). */
export const MESSAGE_SIDES = ['brand', 'admin'] as const;
export type MessageSide = (typeof MESSAGE_SIDES)[number];

/** GET /api/{brand|admin}/projects/{paymentId}/messages: one message. */
export interface Message {
  id: string;
  side: MessageSide;
  /** the author's name as the other side sees it (an admin's name, the brand's name) */
  authorName: string;
  text: string;
  attachment: { name: string; contentType: string; size: number } | null;
  createdAt: string;
}
