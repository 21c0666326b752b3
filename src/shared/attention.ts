/**
 * The admins' "Needs attention" list (issue 19): each placement that waits on the editorial team,
 * with why. GET /api/admin/attention answers {@link AttentionList} (its schema:
 * schemas/responses/conversation.ts).
 */

import type { z } from 'zod';
import type { attentionListSchema } from './schemas/responses/conversation';

/** Days before the automatic guarantee refund from which a held payment is listed. */
export const GUARANTEE_NEAR_DAYS = 14;

/** The most placements the list answers; `total` counts them all. */
export const ATTENTION_LIMIT = 200;

/** Why a placement is listed (a placement may have several reasons at once). */
export type AttentionReason = AttentionItem['reasons'][number];

export type AttentionItem = AttentionList['items'][number];

/** Every placement that needs attention (`total`) and the first ATTENTION_LIMIT, the most urgent first. */
export type AttentionList = z.infer<typeof attentionListSchema>;
