import { z } from 'zod';
import { pageQuerySchema } from '../../../shared/schemas/paging';
import { errorSchema } from '../../../shared/schemas/responses/common';
import { SESSION_COOKIE } from '../auth/session';
import { SIGNED_IN, TAGS, type Access, type RouteDoc } from './route-doc';

/**
 * The OpenAPI 3.1 document made from the route catalogue: every schema is the shared zod schema the
 * route parses or answers with, converted by zod's own `z.toJSONSchema` (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1). Request bodies and query strings are described as they are sent
 * (`io: "input"`), answers as they come (`io: "output"`). Named answer shapes (`.meta({ id })`)
 * become `components.schemas`.
 */

export type Json = Record<string, unknown>;

/** What a path parameter holds, by its name; a route with another name needs a line here. */
const PATH_PARAMS: Record<string, { schema: Json; description: string }> = {
  id: { schema: { type: 'string', format: 'uuid' }, description: 'the id' },
  paymentId: { schema: { type: 'string', format: 'uuid' }, description: 'the payment id (the placement’s)' },
  messageId: { schema: { type: 'string', format: 'uuid' }, description: 'the message id' },
  sessionId: {
    schema: { type: 'string', pattern: '^[A-Za-z0-9_]{1,255}$' },
    description: 'the provider session id of the checkout',
  },
  name: { schema: { type: 'string' }, description: 'the stored file’s generated name' },
};

const ACCESS: Record<Access, string> = {
  public: 'Anyone may call it.',
  user: 'Any signed-in user (brand or admin).',
  brand: 'A brand with a completed profile, approved.',
  'any-brand': 'Any signed-in brand, approved or not.',
  admin: 'Admins only.',
  webhook: 'The payment provider: no session; the signature is the check.',
  operator: 'The operator: `Authorization: Bearer <METRICS_TOKEN>`.',
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The overview at the top of the document (Markdown). */
const OVERVIEW = `Byline's HTTP API: the calls its own pages make, documented for integrators.

- **Sessions.** \`POST /api/login\` sets the \`${SESSION_COOKIE}\` cookie (HttpOnly); send it with every call. Roles: a *brand* (a company buying placements, approved by the editorial team) and an *admin* (the editorial team).
- **Same origin.** \`POST\`, \`PUT\`, \`PATCH\` and \`DELETE\` under \`/api\` must come from Byline's own pages: an \`Origin\` header of the site's address (or \`Sec-Fetch-Site: same-origin\`). A server calling the API sends \`Origin\` itself. Webhooks are checked by their signature instead.
- **JSON.** Bodies are JSON (\`Content-Type: application/json\`); uploads are \`multipart/form-data\`.
- **Errors.** Every refusal is \`{"message": "…", "errors"?: {"field": "…"}}\`: 400 invalid input (a message per field), 401 not signed in, 403 not allowed, 404 not found (another brand's resources look exactly like missing ones), 409 conflict (sold out, wrong state), 413 too large, 415 wrong file type, 429 too many attempts (\`Retry-After\` says when to try again), 503 the database is unreachable for a moment (\`Retry-After\`). Bad input never gets a 5xx.
- **Lists that grow** are keyset-paged: \`?limit=\` (1–200, default 50) and an opaque \`?cursor=\`; the next page's address is in \`Link: <…>; rel="next"\`.
- **Values.** Money is a decimal string with 2 places (\`"1250.00"\`, USD), never a float; moments are ISO 8601 in UTC; ids are UUIDs.
- Calls marked **spec** are the product specification's: their paths and payloads never change.`;

/** Zod's conversion, tidied for reading: a format says what its generated pattern says. */
function tidy({ jsonSchema }: { jsonSchema: Json }) {
  if (jsonSchema.format && jsonSchema.pattern) delete jsonSchema.pattern;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/** JSON Schemas of zod schemas, the named ones gathered as components (the input side of one as `<name>Input`). */
class Schemas {
  readonly components: Record<string, Json> = {};

  of(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: tidy }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    delete json.$schema;
    const nameOf = (id: string) => (io === 'output' ? id : `${id}Input`);
    const relink = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_, id: string) =>
          JSON.stringify(`#/components/schemas/${nameOf(id)}`),
        ),
      );
    for (const [id, def] of Object.entries(defs)) {
      const name = nameOf(id);
      const linked = relink(def) as Json;
      const kept = this.components[name];
      if (kept && JSON.stringify(kept) !== JSON.stringify(linked))
        throw new Error(`two different schemas are named ${name}`);
      this.components[name] = linked;
    }
    return relink(json) as Json;
  }
}

/** `/api/admin/opportunities/:id` → `/api/admin/opportunities/{id}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');
const pathParamsOf = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);

const pascal = (s: string) => s.replace(/(^|[-_.])([a-z0-9])/gi, (_, _sep: string, c: string) => c.toUpperCase());
/** `GET /api/admin/opportunities/:id` → `getAdminOpportunitiesById` */
export function operationIdOf(route: Pick<RouteDoc, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter((s) => s && s !== 'api')
    .map((s) => (s.startsWith(':') ? `By${pascal(s.slice(1))}` : pascal(s)));
  return route.method.toLowerCase() + words.join('');
}

const PAGING: Record<string, string> = {
  limit: 'how many items a page holds: 1 to 200 (default 50)',
  cursor: 'where the page starts: the value in the previous page’s `Link: rel="next"` (opaque)',
};

/** The query parameters of a route: its own and, when paged, `limit` and `cursor`. */
function queryParameters(route: RouteDoc, schemas: Schemas): Json[] {
  const objects = [...(route.query ? [route.query] : []), ...(route.paged ? [pageQuerySchema] : [])];
  const parameters: Json[] = [];
  const seen = new Set<string>();
  for (const object of objects) {
    const properties = (schemas.of(object, 'input').properties ?? {}) as Record<string, Json>;
    for (const [name, property] of Object.entries(properties)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const { description, ...schema } = property;
      // an optional value spelled as a union with `undefined` converts to an empty member: drop it
      const members = Array.isArray(schema.anyOf)
        ? (schema.anyOf as Json[]).filter((m) => Object.keys(m).length)
        : null;
      const clean = members?.length === 1 ? members[0] : members ? { ...schema, anyOf: members } : schema;
      const required = !(object.shape as Record<string, z.ZodType>)[name].safeParse(undefined).success;
      const text = description ?? (object === pageQuerySchema ? PAGING[name] : undefined);
      parameters.push({ name, in: 'query', required, ...(text ? { description: text } : {}), schema: clean });
    }
  }
  return parameters;
}

function pathParameters(route: RouteDoc): Json[] {
  return pathParamsOf(route.path).map((name) => {
    const known = PATH_PARAMS[name];
    if (!known)
      throw new Error(
        `${route.method} ${route.path}: no description of the path parameter "${name}" (PATH_PARAMS, api-docs/document.ts)`,
      );
    return {
      name,
      in: 'path',
      required: true,
      description: route.params?.[name] ?? known.description,
      schema: known.schema,
    };
  });
}

/** The refusals every route of its kind has, then the route's own. */
function refusalsOf(route: RouteDoc): NonNullable<RouteDoc['errors']> {
  const refusals: NonNullable<RouteDoc['errors']> = {};
  if (route.body || route.query || route.upload || route.paged)
    refusals[400] = 'Invalid input: `message` says what, `errors` which field';
  if (SIGNED_IN.includes(route.access)) refusals[401] = 'Not signed in';
  const forbidden = [
    route.access === 'brand' ? 'not a brand, or its profile is not completed or not approved yet' : null,
    route.access === 'any-brand' ? 'not a brand' : null,
    route.access === 'admin' ? 'not an admin' : null,
    UNSAFE.has(route.method) && route.path.startsWith('/api/') && route.access !== 'webhook'
      ? 'not sent from Byline’s own pages (the `Origin` check)'
      : null,
  ].filter(Boolean);
  if (forbidden.length) refusals[403] = forbidden.join('; or ').replace(/^./, (c) => c.toUpperCase());
  if (pathParamsOf(route.path).length) {
    refusals[404] = route.access.endsWith('brand') ? 'Not found (another brand’s looks exactly the same)' : 'Not found';
  }
  if (route.upload) {
    refusals[413] = 'The file is too large';
    refusals[415] = 'Not a file type this route takes (judged by its bytes)';
  }
  return { ...refusals, ...route.errors };
}

function requestBody(route: RouteDoc, schemas: Schemas): Json | undefined {
  const content: Json = {};
  if (route.body) {
    const examples = Object.fromEntries(Object.entries(route.body.examples).map(([name, value]) => [name, { value }]));
    content['application/json'] = { schema: schemas.of(route.body.schema, 'input'), examples };
  }
  if (route.upload) {
    const properties = Object.fromEntries(
      Object.entries(route.upload.fields).map(([name, f]) => [
        name,
        f.file
          ? { type: 'string', contentMediaType: 'application/octet-stream', description: f.description }
          : { type: 'string', description: f.description },
      ]),
    );
    content['multipart/form-data'] = { schema: { type: 'object', properties, required: route.upload.required } };
  }
  if (!Object.keys(content).length) return undefined;
  // a route whose body may be left out parses a missing one as {} (lib/validate.ts)
  const required = route.upload ? !route.body : !route.body!.schema.safeParse({}).success;
  return { ...(route.body?.description ? { description: route.body.description } : {}), required, content };
}

function responses(route: RouteDoc, schemas: Schemas): Json {
  const { answer } = route;
  const headers: Json = {};
  if (route.paged)
    headers.Link = { description: '`<…>; rel="next"`: the next page, when there is one', schema: { type: 'string' } };
  for (const [name, description] of Object.entries(route.answerHeaders ?? {}))
    headers[name] = { description, schema: { type: 'string' } };
  const ok: Json = { description: answer.description, ...(Object.keys(headers).length ? { headers } : {}) };
  if (answer.kind === 'json')
    ok.content = { 'application/json': { schema: schemas.of(answer.schema, 'output'), example: answer.example } };
  if (answer.kind === 'file')
    ok.content = Object.fromEntries(
      answer.types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
    );
  const all: Json = { [answer.status]: ok };
  const error = { $ref: '#/components/schemas/Error' };
  for (const [status, refusal] of Object.entries(refusalsOf(route))) {
    if (Number(status) < 400) {
      all[status] = { description: typeof refusal === 'string' ? refusal : refusal.description };
      continue;
    }
    all[status] =
      typeof refusal === 'string'
        ? { description: refusal, content: { 'application/json': { schema: error } } }
        : {
            description: refusal.description,
            content: { 'application/json': { schema: schemas.of(refusal.schema, 'output') } },
          };
  }
  return all;
}

function operation(route: RouteDoc, schemas: Schemas): Json {
  const headers = Object.entries(route.headers ?? {}).map(([name, description]) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  const parameters = [...pathParameters(route), ...queryParameters(route, schemas), ...headers];
  const body = requestBody(route, schemas);
  return {
    operationId: operationIdOf(route),
    tags: [route.tag],
    summary: route.summary,
    description: [route.description, `**Who:** ${ACCESS[route.access]}`].filter(Boolean).join('\n\n'),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(route, schemas),
    security: SIGNED_IN.includes(route.access) ? [{ session: [] }] : [],
    'x-access': route.access,
    ...(route.spec ? { 'x-spec': true } : {}),
  };
}

/** The whole document. `serverUrl`: the site's public address, when it is configured. */
export function openApiDocument(routes: readonly RouteDoc[], serverUrl?: string): Json {
  const schemas = new Schemas();
  schemas.of(errorSchema, 'output');
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase()] = operation(route, schemas);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Byline API', version: '1', description: OVERVIEW },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The sign-in session, set by POST /api/login and POST /api/register.',
        },
      },
    },
  };
}
