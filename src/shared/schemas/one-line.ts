import { z } from 'zod';

/** Line and paragraph breaks and tabs, with the spaces around them. */
const BREAKS = /\s*[\t\n\v\f\r\u0085\u2028\u2029]+\s*/g;
/** The other control characters (C0, DEL, C1) and the bidirectional overrides and isolates, which reorder what is shown. */
const INVISIBLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A name as one line of plain text (issue 57): each break becomes one space and the other control
 * characters go, so a name put into a mail's subject, a CSV cell, a PDF or a page cannot start a
 * line or a header of its own, or hide what it says.
 */
const oneLine = (value: string): string => value.replace(BREAKS, ' ').replace(INVISIBLE, '');

/**
 * The schema of every name people type: a person's, an organisation's (its company name), a
 * client's, a report's, a brief template's. One line, trimmed, `required` when empty, at most `max`.
 */
export const nameSchema = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).overwrite(oneLine).trim().min(1, required).max(max, tooLong);
