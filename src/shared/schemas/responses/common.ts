import { z } from 'zod';

/**
 * Building blocks of the API's answers (the response schemas in this folder). Each answer's type
 * is `z.infer` of its schema, so what the API documentation says (GET /api/openapi.json) and what
 * the code returns cannot drift apart: the server's list items are checked against these types.
 */

/** A row id: a uuid. */
export const id = z.guid();

/** A moment, as `Date.prototype.toISOString()` writes it (UTC, milliseconds). */
export const timestamp = z.iso.datetime();

/** Money: a decimal string with 2 places, e.g. "1250.00" (never a float). */
export const decimal = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('decimal string with 2 places, e.g. "1250.00"');

/**
 * What a form edits from two places carries (decision 019): GET answers it, a save sends it back as
 * `baseVersion`, and one based on an older copy is refused with 409 and the current copy.
 */
export const version = z.string().describe('opaque: the version of what the form edits; send it back as `baseVersion`');

/** A count of things. */
export const count = z.number().int().min(0);

/** A count per key, every key present (the tabs' counts). */
export const countsOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, count])) as Record<K, typeof count>);

/** The brand an admin list names beside a placement or payment. */
export const brandContactSchema = z
  .object({ id, name: z.string().nullable(), brandName: z.string().nullable(), email: z.string() })
  .meta({ id: 'BrandContact' });

/** The organisation a placement or payment belongs to, as admin lists name it (decision 033). */
export const organisationRefSchema = z.object({ id, name: z.string() }).meta({ id: 'OrganisationRef' });

/** The client a placement was bought for (decision 035); null: none. */
export const clientRefSchema = z
  .object({ id, name: z.string() })
  .nullable()
  .describe('the organisation’s client it was bought for; null: none')
  .meta({ id: 'ClientRef' });

/**
 * A refusal's code (decision 040): snake_case, stable, what a client branches on (never the
 * message, whose words may change). E.g. `payment_not_found`, `more_than_left_to_refund`,
 * `invalid_input` (a body or query its schema refuses).
 */
export const errorCodeSchema = z
  .string()
  .regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
  .describe('what went wrong, as a stable snake_case code to branch on (`payment_not_found`, `invalid_input`, …)');

/** Every refusal: 4xx and 5xx alike. */
export const errorSchema = z
  .object({
    message: z.string().describe('what went wrong, in words a person can be shown'),
    code: errorCodeSchema,
    errors: z
      .record(z.string(), z.string())
      .optional()
      .describe('invalid input: one message per field, keyed by its path ("part1Json.personOrBrandName")'),
  })
  .meta({ id: 'Error' });

/** `{url}`: where an uploaded image is served, or where the browser goes next. */
export const urlAnswerSchema = z.object({ url: z.string() });

/** `{message}`: an answer that is only a sentence to show. */
export const messageAnswerSchema = z.object({ message: z.string() });
