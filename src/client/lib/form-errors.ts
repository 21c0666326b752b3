import type { z } from 'zod';
import { ApiError, errorMessage } from './api';

/** One message per field; `form` holds what belongs to no field (a 409's message). */
export type FieldErrors = Partial<Record<string, string>>;

/** A shared schema's refusals, the first per field (the same messages the server answers with). */
export function issuesByField(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    out[field] ??= issue.message;
  }
  return out;
}

/**
 * The server's refusal beside the fields it names: a 400's message per field; a conflict that names
 * a field (a 409 "That is more than is left to refund: …") says its whole message there. Otherwise
 * the message alone, for the form.
 */
export function apiFieldErrors(err: unknown, fallback: string): FieldErrors {
  if (err instanceof ApiError && err.errors) {
    const fields = Object.keys(err.errors);
    if (fields.length) return err.status === 400 ? { ...err.errors } : { ...err.errors, [fields[0]]: err.message };
  }
  return { form: errorMessage(err, fallback) };
}
