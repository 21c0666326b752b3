import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Module } from '../../deps';
import { compressOnce, preferredEncoding, type Encoding } from '../../lib/compress-json';
import { CATALOGUE } from './catalogue';
import { openApiDocument } from './document';
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

/**
 * The API documentation (issue 22): GET /api/openapi.json, the OpenAPI 3.1 document made from the
 * route catalogue and the shared zod schemas, and GET /api/docs, the same drawn as a page to read.
 * Both are made on the first request, not at start.
 */
export const apiDocsModule: Module = async (app, { config }) => {
  let made: { json: ReturnType<typeof kept>; html: ReturnType<typeof kept> } | undefined;
  const docs = () => {
    if (!made) {
      const doc = openApiDocument(CATALOGUE, config.PUBLIC_URL);
      made = { json: kept(JSON.stringify(doc)), html: kept(referencePage(doc)) };
    }
    return made;
  };

  app.get('/api/openapi.json', async (req, reply) => docs().json(req, reply, 'application/json; charset=utf-8'));
  app.get('/api/docs', async (req, reply) => docs().html(req, reply, 'text/html; charset=utf-8'));
};
