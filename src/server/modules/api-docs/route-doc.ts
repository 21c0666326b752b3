import type { z } from 'zod';

/**
 * How one route is described in the API documentation (catalogue.ts holds one entry per route).
 * The routes themselves parse their input with the shared schemas (lib/validate.ts); an entry names
 * the same schemas, so the documentation shows exactly what the server accepts and answers.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route, by the guard it starts with:
 * - `public`: anyone;
 * - `user`: any signed-in user (`requireUser`);
 * - `brand`: a brand with a completed profile, approved (`requireApprovedBrand`);
 * - `any-brand`: any signed-in brand, approved or not (its billing details and tax documents);
 * - `admin`: an admin (`requireAdmin`);
 * - `webhook`: the payment provider, proven by its signature (no session);
 * - `operator`: whoever holds the operator's bearer token (METRICS_TOKEN).
 */
export type Access = 'public' | 'user' | 'brand' | 'any-brand' | 'admin' | 'webhook' | 'operator';

/** The kinds of access that need a sign-in session. */
export const SIGNED_IN: readonly Access[] = ['user', 'brand', 'any-brand', 'admin'];

/** The groups of the reference page, in its order, with what each is about. */
export const TAGS = {
  Account: 'Signing up and in, the current user, the profile, forgotten passwords, the terms.',
  Catalogue: 'The opportunities: the brands’ browse list and search, the shortlist, the admins’ catalogue.',
  Checkout: 'Buying a placement: a checkout holds a slot while the brand pays on the provider’s page.',
  Payments:
    'Payments and the money held in escrow: the brand’s history, wallet, billing details and tax documents; the admins’ list, totals, export and refunds.',
  Placements: 'What a brand bought: the brief, the draft and its review, My Articles and the admins’ Projects.',
  Publication: 'The live article: release, its checks, and the guarantee that watches it.',
  Conversation: 'A placement’s messages between its brand and the editorial team, and its timeline.',
  Brands: 'Approving brands and the invite codes that approve them at sign-up.',
  Files: 'Uploads and how stored files are served.',
  Operations: 'Probes and measurements for whoever runs Byline.',
  Documentation: 'This documentation.',
} as const;
type Tag = keyof typeof TAGS;

/** A JSON request body: its schema and named examples (each checked against the schema by the tests). */
export interface JsonBody {
  schema: z.ZodType;
  examples: Record<string, unknown>;
  description?: string;
}

/** A multipart/form-data request: its fields (name → what to send); files are marked as such. */
export interface Upload {
  fields: Record<string, { description: string; file?: true }>;
  required: string[];
}

/** What a route answers when it succeeds. */
export type Answer =
  | { kind: 'json'; status: 200 | 201; schema: z.ZodType; example: unknown; description: string }
  | { kind: 'empty'; status: 204; description: string }
  | { kind: 'file'; status: 200; types: string[]; description: string };

export interface RouteDoc {
  method: Method;
  /** as registered with Fastify: `/api/admin/opportunities/:id` */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  access: Access;
  /** one of the calls the product spec names (§7): their paths and payloads never change */
  spec?: true;
  /** what each path parameter is, where the default for its name (document.ts) says too little */
  params?: Record<string, string>;
  query?: z.ZodObject;
  /** keyset-paged: takes `?limit=&cursor=` and names the next page in `Link: <…>; rel="next"` */
  paged?: true;
  /** request headers the route reads (name → what it is) */
  headers?: Record<string, string>;
  body?: JsonBody;
  upload?: Upload;
  answer: Answer;
  /** response headers besides the paging link (name → what it says) */
  answerHeaders?: Record<string, string>;
  /**
   * Refusals particular to this route (status → when; with its own schema where the body says more
   * than `{message, errors?}`); the ones every route of its kind has are added (document.ts).
   */
  errors?: Record<number, string | Refusal>;
}

/** A refusal whose body carries more than the message. */
interface Refusal {
  description: string;
  schema: z.ZodType;
}

/** A JSON body and its example (more examples by name, where the route takes several shapes). */
export function body<S extends z.ZodType>(
  schema: S,
  example: z.input<S>,
  more: Record<string, z.input<S>> = {},
  description?: string,
): JsonBody {
  return { schema, examples: { example, ...more }, description };
}

/** A JSON answer and its example. */
export function json<S extends z.ZodType>(
  schema: S,
  example: z.output<S>,
  description = 'OK',
  status: 200 | 201 = 200,
): Answer {
  return { kind: 'json', status, schema, example, description };
}

/** 204 No Content. */
export const empty = (description: string): Answer => ({ kind: 'empty', status: 204, description });

/** A file, streamed as it is stored. */
export const file = (types: string[], description: string): Answer => ({
  kind: 'file',
  status: 200,
  types,
  description,
});

/** A multipart upload of one file in `field`. */
export const upload = (field: string, description: string, more: Upload['fields'] = {}): Upload => ({
  fields: { [field]: { description, file: true }, ...more },
  required: [field],
});
