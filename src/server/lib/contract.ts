import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  LogLevel,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { aliasesOf, type RoutePath } from '../../shared/api-paths';
import { pageQuerySchema } from '../../shared/schemas/paging';
import { errorSchema } from '../../shared/schemas/responses/common';
import { PAYMENT_NOT_FOUND } from '../db/payment-access';
import { DomainError, unauthorized, forbidden, notFound } from './errors';
import { issuesAsDomainError } from './validate';
import type { SessionUser } from './session-user';
import { AMOUNTS_REFUSAL, CAPABILITY_REFUSALS, hidesAmounts, ORG_ROLES, roleCan, type Capability, type OrgRole } from '../../shared/org';

/**
 * One contract per route (issue 44): a route declares who may call it, its params, query, body and
 * every answer, status by status, once, as the shared zod schemas. The declaration validates the
 * input (before the handler runs: a refusal is `{message, errors}` with the schemas' own texts),
 * types the handler and its reply, checks every JSON answer on its way out, and is the API's
 * documentation (`GET /api/openapi.json`, made by @fastify/swagger from the routes themselves).
 */

/**
 * Who may call a route, checked by one hook before its input is read (app.ts `checkAccess`):
 * - `public`: anyone;
 * - `user`: any signed-in user;
 * - `brand`: a brand with a completed profile, approved;
 * - `any-brand`: any signed-in brand, approved or not (its billing details and tax documents);
 * - `admin`: an admin;
 * - `webhook`: the payment provider, proven by its signature (no session);
 * - `operator`: whoever holds the operator's bearer token (METRICS_TOKEN).
 */
export type Access = 'public' | 'user' | 'brand' | 'any-brand' | 'admin' | 'webhook' | 'operator';

const ACCESS_TEXT: Record<Access, string> = {
  public: 'Anyone may call it.',
  user: 'Any signed-in user (brand or admin).',
  brand: 'A brand with a completed profile, approved.',
  'any-brand': 'Any signed-in brand, approved or not.',
  admin: 'Admins only.',
  webhook: 'The payment provider: no session; the signature is the check.',
  operator: 'The operator: `Authorization: Bearer <METRICS_TOKEN>`.',
};

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
  Disputes: 'A brand’s complaint about a placement, the editorial team’s answer, the escalation to another admin, and their deadlines (issue 47).',
  Outlets: 'The outlets (one per website host): their metrics, each with its source and date, the imports of SEO tools’ exports, and Byline’s record of their placements (issue 48).',
  Reports: 'An organisation’s reports of its placements (PDF, CSV, white label), the links that share them or a placement’s proof, and their schedules (issue 48).',
  Brands: 'Approving brands and the invite codes that approve them at sign-up.',
  Files: 'Uploads and how stored files are served.',
  Operations: 'Probes and measurements for whoever runs Byline.',
  Organisation: 'The buyer’s organisation: members and their roles, invitations, the audit log.',
  Documentation: 'This documentation.',
} as const;
type Tag = keyof typeof TAGS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** who may call the route (its contract) */
    access?: Access;
    /** the statuses the route declares it answers */
    statuses?: readonly number[];
    /** what a member's role must allow (brand routes) */
    can?: Capability;
    /** a client reviewer may call it: its answers carry no amount (decision 035) */
    clientReview?: true;
    /** what a `brand` route with path parameters acts on (its contract's `actsOn`) */
    actsOn?: ActsOn;
  }
}

/** A file answer (PDF, CSV, an upload): its media types. */
export const fileAnswer = (types: string[], description: string) => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema: z.string().meta({ format: 'binary' }) }])),
});

/** 204: nothing. */
export const noContent = (description: string) => z.undefined().describe(description);

type Responses = Record<number, unknown>;

/** What a route declares. `errors` are refusals of its own; those of every route of its kind are added. */
export interface Contract<P, Q, B, R extends Responses> {
  access: Access;
  /**
   * Brand routes: what the member's role in its organisation must allow (shared/org.ts). Default:
   * `read` for GET; `buy` for other `brand` routes, `own` for other `any-brand` routes.
   */
  can?: Capability;
  /**
   * Brand routes a client reviewer (a reviewer limited to clients, decision 035) may call: its
   * answers carry no price or amount, or drop them for such a member. Every other `brand` route
   * answers such a member 403.
   */
  clientReview?: true;
  /**
   * What a `brand` route with path parameters acts on, declared (required for them): a member
   * limited to clients reaches only its clients' placements (decision 035), checked once for every
   * such route in app.ts before the body is read, from this and not from the parameters' names.
   */
  actsOn?: ActsOn;
  tags: [Tag];
  summary: string;
  description?: string;
  /** one of the calls the product spec names (§7): their paths and payloads never change */
  spec?: true;
  /** keyset-paged: `?limit=&cursor=`, the next page in `Link: <…>; rel="next"` */
  paged?: true;
  params?: P;
  querystring?: Q;
  body?: B;
  /**
   * `body` documents the shapes the body may take, but which one applies depends on more than the
   * body (PATCH /api/user/profile: on who sends it): the body is then handed on as sent, and the
   * handler reads it with the shape that applies (lib/validate.ts `parse`, the same refusals).
   */
  bodyParsedByHandler?: true;
  /** a multipart upload: the fields (name → what it is; `file: true` for the file) */
  upload?: Record<string, { description: string; file?: true }>;
  /** the successful answers, by status */
  response: R;
  /** headers of the 200 answer besides the usual ones: name → what it says (documented, not checked) */
  headers?: Record<string, string>;
  /** refusals particular to this route: status → when (or a schema, when the body says more than `{message}`) */
  errors?: Record<number, string | z.ZodType>;
  /** the least level its completion line is logged at: 'warn' for the probes, asked every few seconds */
  logLevel?: LogLevel;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What a route's path parameter names: `placement` a placement (the spec's payment id), `dispute` a
 * dispute (its placement decides), `own` a record of the organisation that belongs to no one
 * placement (a saved opportunity, a template, an order, a report), its service limiting it: why.
 */
type ActsOn = { placement: string } | { dispute: string } | { own: string };

/** The refusals every route of its kind has. */
function commonErrors(method: string, c: Contract<unknown, unknown, unknown, Responses>): Record<number, string> {
  const out: Record<number, string> = {};
  if (c.body || c.querystring || c.paged) out[400] = 'invalid input: a message per field';
  if (c.body) Object.assign(out, { 413: 'the body is too large', 415: 'not a JSON body' });
  // a body sent to a call that takes none is still read: malformed, too large or of another type
  else if (UNSAFE.has(method) && !c.upload)
    Object.assign(out, { 400: out[400] ?? 'a body that is not valid JSON', 413: 'the body is too large', 415: 'a body that is not JSON' });
  if (c.upload) Object.assign(out, { 400: 'no file, or more than one', 413: 'the file is too large', 415: 'not a type this upload takes' });
  if (c.params) out[404] = 'not found (another brand’s looks the same)';
  if (c.access !== 'public' && c.access !== 'webhook' && c.access !== 'operator') out[401] = 'not signed in';
  if (c.access === 'brand' || c.access === 'any-brand' || c.access === 'admin') out[403] = 'not allowed for this account';
  if (UNSAFE.has(method) && c.access !== 'webhook') out[403] = out[403] ? `${out[403]}, or not sent from Byline’s own pages` : 'not sent from Byline’s own pages (the `Origin` check)';
  // any call may meet the database restarting
  out[503] = 'the database cannot be reached for a moment (Retry-After)';
  return out;
}

/**
 * A refusal's answer: `{message, errors?}` and whatever the refusal carries besides (a brief's
 * current copy, a check's findings), so it is declared loose. When it happens is said per route
 * (`x-refusals`, read by the documentation).
 */
const refusalSchema = errorSchema.loose().meta({ id: 'Refusal' });

/** The handler of a contract: its request and reply typed by the declared schemas. */
export type Handler<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;

/** A paged list's query: its own parameters and `limit`, `cursor` (read by lib/paging.ts `pageFrom`). */
type Paged<Q> = [Q] extends [never]
  ? typeof pageQuerySchema
  : Q extends z.ZodObject<infer S>
    ? z.ZodObject<S & (typeof pageQuerySchema)['shape']>
    : Q;

/** The bodies only documented by their schema (`bodyParsedByHandler`): the validator passes them on. */
const documentedOnly = new WeakSet<z.ZodType>();

/** Registers a route with its contract. */
export function route<
  P extends z.ZodType = never,
  Q extends z.ZodType = never,
  B extends z.ZodType = never,
  R extends Responses = Responses,
  G extends true | undefined = undefined,
>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  // the one list of paths the client builds its URLs from (src/shared/api-paths.ts)
  url: RoutePath,
  contract: Omit<Contract<P, Q, B, R>, 'paged'> & { paged?: G },
  handler: Handler<{ params: P; querystring: G extends true ? Paged<Q> : Q; body: B; response: R }>,
): void {
  if (contract.bodyParsedByHandler && contract.body) documentedOnly.add(contract.body);
  if (contract.access === 'brand' && url.includes('/:') && !contract.actsOn) {
    throw new Error(`${method} ${url}: a brand route with path parameters declares what it acts on (actsOn)`);
  }
  const named = contract.actsOn && ('placement' in contract.actsOn ? contract.actsOn.placement : 'dispute' in contract.actsOn ? contract.actsOn.dispute : null);
  if (named && !url.includes(`/:${named}`)) throw new Error(`${method} ${url}: actsOn names :${named}, which the path does not have`);
  const errors: Record<number, unknown> = {};
  const refusals: Record<number, string> = {};
  for (const [status, when] of Object.entries({ ...commonErrors(method, contract as Contract<unknown, unknown, unknown, Responses>), ...contract.errors })) {
    // a status the route answers itself (/readyz's 503) is its answer, not a refusal
    if (Number(status) in contract.response) continue;
    errors[Number(status)] = typeof when === 'string' ? refusalSchema : when;
    if (typeof when === 'string') refusals[Number(status)] = when;
  }
  const response = { ...errors, ...contract.response };
  const can = capabilityOf(method, contract.access, contract.can);
  const roles = can ? ORG_ROLES.filter((r) => roleCan(r, can)) : undefined;
  const who = `**Who:** ${ACCESS_TEXT[contract.access]}${roles ? ` Roles in the organisation: ${roles.join(', ')}.` : ''}`;
  const description = [contract.description, who].filter(Boolean).join('\n\n');
  let querystring: z.ZodType | undefined = contract.querystring;
  if (contract.paged) querystring = querystring ? (querystring as unknown as z.ZodObject).extend(pageQuerySchema.shape) : pageQuerySchema;
  const schema: FastifySchema & Record<string, unknown> = {
    tags: contract.tags,
    summary: contract.summary,
    description,
    'x-access': contract.access,
    ...(can ? { 'x-capability': can } : {}),
    ...(contract.clientReview ? { 'x-client-review': true } : {}),
    ...(contract.actsOn ? { 'x-acts-on': contract.actsOn } : {}),
    'x-refusals': refusals,
    ...(contract.spec ? { 'x-spec': true } : {}),
    ...(contract.paged ? { 'x-paged': true } : {}),
    ...(contract.headers ? { 'x-headers': contract.headers } : {}),
    ...(contract.params ? { params: contract.params } : {}),
    ...(querystring ? { querystring } : {}),
    ...(contract.body ? { body: contract.body } : {}),
    ...(contract.upload ? { consumes: ['multipart/form-data'], 'x-upload': contract.upload } : {}),
    response,
  };
  // what the access hooks read (lib/access.ts), the same for the path and its aliases but for the
  // name of the parameter that says which placement it acts on
  const configOf = (actsOn: ActsOn | undefined) => ({
    access: contract.access,
    statuses: Object.keys(response).map(Number),
    ...(can ? { can } : {}),
    ...(contract.clientReview ? { clientReview: true as const } : {}),
    ...(contract.access === 'brand' && actsOn ? { actsOn } : {}),
  });
  const common = {
    method,
    ...(contract.logLevel ? { logLevel: contract.logLevel } : {}),
    ...(contract.body ? { preValidation: absentBodyAsEmpty } : {}),
    handler: handler as never,
  };
  app.route({ ...common, url, schema, config: configOf(contract.actsOn) });
  // its older paths (shared/api-paths.ts API_ALIASES): the same route, documented as deprecated
  for (const alias of aliasesOf(url)) {
    const names = paramNamesOf(url);
    const olds = paramNamesOf(alias);
    if (olds.length !== names.length) throw new Error(`${method} ${alias}: an alias of ${url} has other parameters`);
    const toNew = new Map(olds.map((old, i) => [old, names[i]]));
    const toOld = new Map(names.map((name, i) => [name, olds[i]]));
    const actsOn = contract.actsOn ? renameActsOn(contract.actsOn, toOld) : undefined;
    app.route({
      ...common,
      url: alias,
      schema: {
        ...schema,
        deprecated: true,
        description: `**Deprecated:** the older path of \`${method} ${url.replace(/:([A-Za-z]+)/g, '{$1}')}\`, kept for existing callers; new callers use that one.\n\n${description}`,
        'x-alias-of': url,
        ...(actsOn ? { 'x-acts-on': actsOn } : {}),
        ...(contract.params ? { params: renameKeys(contract.params as unknown as z.ZodObject, toOld) } : {}),
      },
      config: configOf(actsOn),
      // the handler reads the new path's names
      preHandler: async (req) => {
        const params = req.params as Record<string, string>;
        req.params = Object.fromEntries(Object.entries(params).map(([k, v]) => [toNew.get(k) ?? k, v]));
      },
    });
  }
}

const paramNamesOf = (url: string) => [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);

function renameActsOn(on: ActsOn, names: Map<string, string>): ActsOn {
  if ('placement' in on) return { placement: names.get(on.placement) ?? on.placement };
  if ('dispute' in on) return { dispute: names.get(on.dispute) ?? on.dispute };
  return { own: names.get(on.own) ?? on.own };
}

function renameKeys(params: z.ZodObject, names: Map<string, string>): z.ZodObject {
  return z.object(Object.fromEntries(Object.entries(params.shape).map(([k, v]) => [names.get(k) ?? k, v as z.ZodType])));
}

/**
 * A call with no body at all reads as `{}` (the spec's release has none): Fastify hands the
 * validator `null` for it, which would be refused like a JSON `null`. Runs after the access check.
 */
async function absentBodyAsEmpty(req: FastifyRequest): Promise<void> {
  if (req.body === undefined) req.body = {};
}

/** The signed-in user of a route whose contract asks for one (checked before the handler runs). */
export function userOf(req: FastifyRequest): SessionUser {
  if (!req.user) throw new Error('userOf: the route’s contract lets visitors in');
  return req.user;
}

/** What a brand route asks of the member's role: declared, or its default (see `Contract.can`). */
function capabilityOf(method: string, access: Access, declared: Capability | undefined): Capability | undefined {
  if (access !== 'brand' && access !== 'any-brand') return undefined;
  if (declared) return declared;
  if (method === 'GET') return 'read';
  return access === 'brand' ? 'buy' : 'own';
}

/** The signed-in member of a brand route: the user, its organisation and its role there. */
export interface Member {
  userId: string;
  organisationId: string;
  role: OrgRole;
  /** the clients the member is limited to (null: all; decision 035) */
  clientIds: string[] | null;
  /** for the audit log: who and from which address */
  name: string | null;
  email: string;
  address: string;
}

/** The member calling a `brand` route (its contract has made sure there is one). */
export function memberOf(req: FastifyRequest): Member {
  const user = userOf(req);
  if (!user.organisationId || !user.orgRole) throw new Error('memberOf: the route’s contract lets non-members in');
  return {
    userId: user.id,
    organisationId: user.organisationId,
    role: user.orgRole,
    clientIds: user.clientIds ?? null,
    name: user.name,
    email: user.email,
    address: req.ip,
  };
}

/** The organisation whose placements a `brand` route reads and changes. */
export const orgOf = (req: FastifyRequest): string => memberOf(req).organisationId;

/**
 * The placements a `brand` list shows (decision 035): the organisation's, narrowed to the clients
 * the member is limited to and to the one client asked for (`?clientId=`); `clientIds` null: all,
 * including those bought for no client; an empty list: none.
 */
export interface Scope {
  organisationId: string;
  clientIds: string[] | null;
}
export function scopeOf(req: FastifyRequest, clientId?: string): Scope {
  const member = memberOf(req);
  const allowed = member.clientIds;
  const clientIds = clientId === undefined ? allowed : allowed === null || allowed.includes(clientId) ? [clientId] : [];
  return { organisationId: member.organisationId, clientIds };
}

/** The code of a role's refusal, by the capability it lacks. */
const CAPABILITY_CODES: Record<Capability, string> = {
  read: 'no_organisation',
  work: 'role_read_only',
  buy: 'role_cannot_buy',
  manage: 'managers_only',
  own: 'owner_only',
};

/** The contract's `access`, checked before the input is read (a visitor's bad body is still a 401). */
export function checkAccess(req: FastifyRequest): void {
  const access = req.routeOptions.config.access;
  if (!access || access === 'public' || access === 'webhook' || access === 'operator') return;
  const user = req.user;
  if (!user) throw unauthorized();
  if (access === 'admin' && user.role !== 'admin') throw forbidden('admins_only', 'Only admins can do this');
  if (access === 'any-brand' && user.role !== 'brand') throw forbidden('brands_only', 'Only brands can do this');
  if (access === 'brand') {
    if (user.role !== 'brand') throw forbidden('brands_only', 'Only brands can do this');
    if (!user.name) throw forbidden('profile_incomplete', 'Please complete your profile first');
    if (!user.approved) throw forbidden('account_awaiting_approval', 'Your account is awaiting approval');
    if (!user.organisationId) throw forbidden('no_organisation', CAPABILITY_REFUSALS.read);
  }
  // a client reviewer reaches only the routes whose answers carry no amount (decision 035)
  if (access === 'brand' && hidesAmounts(user.orgRole, user.clientIds) && !req.routeOptions.config.clientReview) throw forbidden('amounts_hidden', AMOUNTS_REFUSAL);
  // a member's role, read from the session on this request: a change takes effect at once
  const can = req.routeOptions.config.can;
  if (can && (access === 'brand' || access === 'any-brand')) {
    if (user.organisationId) {
      if (!roleCan(user.orgRole, can)) throw forbidden(CAPABILITY_CODES[can], CAPABILITY_REFUSALS[can]);
    } else if (can !== 'read') throw forbidden('profile_incomplete', 'Please complete your profile first');
  }
}

/**
 * The validator of every declared schema. Body and query: the shared schema, every string storable
 * (lib/validate.ts), a refusal as `{message, errors}`. Path parameters: anything the schema refuses
 * is answered like an id that does not exist, 404 with the parameter schema's own message.
 */
export function validatorCompiler({ schema, httpPart }: { schema: unknown; httpPart?: string }) {
  if (!(schema instanceof z.ZodType)) return (data: unknown) => ({ value: data });
  const zod = schema;
  if (httpPart === 'body' && documentedOnly.has(zod)) return (data: unknown) => ({ value: data });
  if (httpPart === 'params') {
    return (data: unknown) => {
      const result = zod.safeParse(data);
      if (result.success) return { value: result.data };
      const message = result.error.issues[0]?.message ?? 'Not found';
      return { error: notFound(NOT_FOUND_CODES.get(message) ?? 'not_found', message) as Error };
    };
  }
  return (data: unknown) => {
    const parsed = issuesAsDomainError(zod, data);
    return parsed instanceof DomainError ? { error: parsed as Error } : { value: parsed.value };
  };
}

/**
 * The code of a path parameter's 404, by its message (`idIn`): the same code the service answers
 * for an id that does not exist, so a malformed id and another organisation's read alike.
 */
const NOT_FOUND_CODES = new Map<string, string>();

/** "Payment not found" → `payment_not_found`. */
const codeOfNotFound = (message: string) =>
  message
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * An id in a path, a uuid: anything else is `message` with 404, as for an id that does not exist;
 * its code is `code`, by default the message's words ("Payment not found": `payment_not_found`).
 */
export const idIn = (message: string, code = codeOfNotFound(message)) => {
  NOT_FOUND_CODES.set(message, code);
  return z
    .string({ error: message })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, message)
    .meta({ format: 'uuid' });
};

/**
 * The parameter of a placement's routes (issue 58, `/api/brand|admin/placements/:placementId/…`): the
 * placement's id (today the same uuid as the payment that bought it, so the older paths' payment id
 * finds it too). One that is not found is answered as the spec's routes answer a payment.
 */
export const placementParams = z.object({ placementId: idIn(PAYMENT_NOT_FOUND).describe('the placement’s id') });
