import type { z } from 'zod';
import { HttpError } from './errors';

/**
 * Parses a request part with a shared schema. On failure: 400 with the first message as
 * `message` and one message per field in `errors` (the same texts the forms show).
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    errors[key] ??= issue.message;
  }
  const first = result.error.issues[0]?.message ?? 'Invalid input';
  throw new HttpError(400, first, errors);
}
