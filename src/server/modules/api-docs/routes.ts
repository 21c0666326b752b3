import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Module } from '../../deps';
import { route } from '../../lib/contract';
import { compressOnce, preferredEncoding, type Encoding } from '../../lib/compress-json';
import { referencePage } from './page';

/** A body made once and sent many times, with its compressed forms made on first demand. */
function kept(body: string) {
  const encoded: Partial<Record<Encoding, Promise<Buffer>>> = {};
  return async (req: FastifyRequest, reply: FastifyReply, type: string) => {
    // the API changes only with a new release; a few minutes' cache spares repeated reads
    void reply.type(type).header('cache-control', 'public, max-age=300').header('vary', 'Accept-Encoding');
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    if (!encoding) return reply.send(body);
    return reply.header('content-encoding', encoding).send(await (encoded[encoding] ??= compressOnce(body, encoding)));
  };
}

const textAnswer = (type: string, description: string) => ({ description, content: { [type]: { schema: z.string() } } });

/**
 * The API documentation (issues 22, 44): GET /api/openapi.json, the OpenAPI 3.1 document that
 * @fastify/swagger makes from the routes' own contracts (openapi.ts), and GET /api/docs, the same
 * drawn as a page to read. Both are made on the first request, once every route is registered.
 */
export const apiDocsModule: Module = async (app) => {
  let made: { json: ReturnType<typeof kept>; html: ReturnType<typeof kept> } | undefined;
  const docs = () => {
    if (!made) {
      const doc = app.swagger() as unknown as Record<string, unknown>;
      made = { json: kept(JSON.stringify(doc)), html: kept(referencePage(doc)) };
    }
    return made;
  };

  route(
    app,
    'GET',
    '/api/openapi.json',
    {
      access: 'public',
      tags: ['Documentation'],
      summary: 'This API as an OpenAPI 3.1 document',
      response: { 200: textAnswer('application/json', 'the OpenAPI 3.1 document, made from the routes themselves') },
    },
    async (req, reply) => docs().json(req, reply, 'application/json; charset=utf-8'),
  );

  route(
    app,
    'GET',
    '/api/docs',
    {
      access: 'public',
      tags: ['Documentation'],
      summary: 'This API as a page to read',
      response: { 200: textAnswer('text/html', 'the reference page') },
    },
    async (req, reply) => docs().html(req, reply, 'text/html; charset=utf-8'),
  );
};
