import { z } from 'zod';

/**
 * Records edited from two places carry a version (decision 019): GET answers an opaque `version`,
 * a save may send it back as `baseVersion`, and one based on an older copy is refused with 409
 * `{message, current}`. Without `baseVersion` a save works as it always did (the spec's bodies).
 */
export const baseVersionSchema = z.object({
  baseVersion: z
    .string({ error: 'baseVersion must be text' })
    .max(100, 'baseVersion must be at most 100 characters')
    .optional(),
});

/** A record as GET answers it, with the version a save sends back as `baseVersion`. */
export type Versioned<T> = T & { version: string };
