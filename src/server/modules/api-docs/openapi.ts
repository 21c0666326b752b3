import type { SwaggerOptions, SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { TAGS, type Access } from '../../lib/contract';
import { SESSION_COOKIE } from '../auth/session';

/**
 * The OpenAPI 3.1 document, made by @fastify/swagger from the routes' own contracts (lib/contract.ts):
 * every schema is the shared zod schema the route validates or answers with, converted by zod's own
 * `z.toJSONSchema` (JSON Schema 2020-12, the dialect of OpenAPI 3.1) through
 * fastify-type-provider-zod. Named shapes (`.meta({ id })`) become `components.schemas`.
 */

export type Json = Record<string, unknown>;

/** What a success answer is, when its contract does not say. */
const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created', 204: 'Done: no content', 302: 'Redirected' };

const SIGNED_IN: readonly Access[] = ['user', 'brand', 'any-brand', 'admin'];

/** The overview at the top of the document (Markdown). */
const OVERVIEW = `Byline's HTTP API: the calls its own pages make, documented for integrators.

- **Sessions.** \`POST /api/login\` sets the \`${SESSION_COOKIE}\` cookie (HttpOnly); send it with every call. Roles: a *brand* (a company buying placements, approved by the editorial team) and an *admin* (the editorial team).
- **Same origin.** \`POST\`, \`PUT\`, \`PATCH\` and \`DELETE\` under \`/api\` must come from Byline's own pages: an \`Origin\` header of the site's address (or \`Sec-Fetch-Site: same-origin\`). A server calling the API sends \`Origin\` itself. Webhooks are checked by their signature instead.
- **JSON.** Bodies are JSON (\`Content-Type: application/json\`); uploads are \`multipart/form-data\`.
- **Errors.** Every refusal is \`{"message": "…", "errors"?: {"field": "…"}}\`: 400 invalid input (a message per field), 401 not signed in, 403 not allowed, 404 not found (another brand's resources look exactly like missing ones), 409 conflict (sold out, wrong state), 413 too large, 415 wrong file type, 429 too many attempts (\`Retry-After\` says when to try again), 503 the database is unreachable for a moment (\`Retry-After\`). Bad input never gets a 5xx.
- **Lists that grow** are keyset-paged: \`?limit=\` (1–200, default 50) and an opaque \`?cursor=\`; the next page's address is in \`Link: <…>; rel="next"\`.
- **Values.** Money is a decimal string with 2 places (\`"1250.00"\`, USD), never a float; moments are ISO 8601 in UTC; ids are UUIDs.
- Calls marked **spec** are the product specification's: their paths and payloads never change.`;

/** `GET /api/admin/opportunities/:id` → `getAdminOpportunitiesById` */
export function operationIdOf(method: string, url: string): string {
  const pascal = (s: string) => s.replace(/(^|[-_.])([a-z0-9])/gi, (_, _sep: string, c: string) => c.toUpperCase());
  const words = url
    .split('/')
    .filter((s) => s && s !== 'api')
    .map((s) => (s.startsWith(':') ? `By${pascal(s.slice(1))}` : pascal(s)));
  return method.toLowerCase() + words.join('');
}

/**
 * zod's conversion through the type provider, then what the contract says besides the schemas: who
 * may call it (`security`), the multipart fields of an upload, the paging header and the answer's
 * other headers.
 */
const transform: SwaggerTransform = (document) => {
  const { schema, url, route } = document;
  const raw = schema as Json | undefined;
  if (!raw || !raw['x-access']) return { schema: { hide: true } as never, url };
  const { ...zodParts } = raw;
  const upload = raw['x-upload'] as Record<string, { description: string; file?: true }> | undefined;
  const { schema: converted } = jsonSchemaTransform({ ...document, schema: zodParts as never });
  const out = converted as Json;
  const access = raw['x-access'] as Access;
  out.operationId = operationIdOf(String(route.method), url);
  out.security = SIGNED_IN.includes(access) ? [{ session: [] }] : [];
  if (upload) {
    out.body = {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(upload).map(([name, f]) => [
          name,
          f.file ? { type: 'string', contentMediaType: 'application/octet-stream', description: f.description } : { type: 'string', description: f.description },
        ]),
      ),
      required: Object.entries(upload).filter(([, f]) => f.file).map(([name]) => name),
    };
    delete out['x-upload'];
  }
  const responses = (out.response ?? {}) as Record<string, Json>;
  for (const [status, when] of Object.entries((raw['x-refusals'] ?? {}) as Record<string, string>)) {
    if (responses[status]) responses[status] = { ...responses[status], description: when };
  }
  delete out['x-refusals'];
  // a success the contract did not describe says what it is in the words of the summary
  for (const [status, answer] of Object.entries(responses))
    if (answer.description === undefined || answer.description === 'Default Response') responses[status] = { ...answer, description: SUCCESS[status] ?? String(raw.summary ?? 'OK') };
  const ok = responses['200'];
  if (ok && raw['x-paged'])
    ok.headers = { Link: { type: 'string', description: '`<…>; rel="next"`: the next page, when there is one' } };
  const headers = raw['x-headers'] as Record<string, string> | undefined;
  if (ok && headers)
    ok.headers = {
      ...(ok.headers as Json | undefined),
      ...Object.fromEntries(
        Object.entries(headers).map(([name, description]) => [name, { type: 'string', description }]),
      ),
    };
  delete out['x-headers'];
  return { schema: out as never, url };
};

/** @fastify/swagger's options. `serverUrl`: the site's public address, when it is configured. */
export function openApiOptions(serverUrl?: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Byline API', version: '1', description: OVERVIEW },
      ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The sign-in session, set by POST /api/login and POST /api/register.',
          },
        },
      },
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  };
}
