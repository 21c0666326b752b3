import { adminOpportunitiesQuerySchema, opportunityRequestSchema, opportunityRequestSchemaFor } from '../../../shared/schemas/opportunity';
import { pageOf, sendJsonPage } from '../../lib/paging';
import type { Module } from '../../deps';
import { idParam } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { requireAdmin, requireApprovedBrand } from '../auth/guards';
import { pageWithSession } from '../auth/session';
import { uploadRoutes } from '../../storage/read-upload';
import { logoUploadRoutes } from './logo-upload';
import { browseListCache } from './browse-cache';
import { listSaved, saveOpportunity, searchOpportunities, unsaveOpportunity } from './search';
import { opportunitySearchQuerySchema } from '../../../shared/schemas/opportunity-search';
import { compressAsPage, preferredEncoding } from '../../lib/compress-json';
import { baseVersionSchema } from '../../../shared/schemas/version';
import {
  createOpportunity,
  getOpportunity,
  listAll,
  toOpportunityJson,
  toVersionedOpportunityJson,
  updateOpportunity,
} from './service';

const OPPORTUNITY_NOT_FOUND = 'Opportunity not found';

/** If-None-Match (one tag, a list, or `*`) against the current tag, compared weakly (RFC 9110 13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** The catalogue: the brands' browse list, and the admins' list, form and logo and example uploads. */
export const opportunitiesModule: Module = async (app, deps) => {
  const { db } = deps;

  // the same list for every brand, kept ready per catalogue version (browse-cache.ts); browsers
  // revalidate it with its ETag and get a 304 while the catalogue has not changed
  const claimable = browseListCache(db);
  app.get('/api/opportunities', async (req, reply) => {
    const brand = requireApprovedBrand(req);
    // with any parameter: the search, one page at a time (search.ts); without: the spec's whole list
    if (Object.keys(req.query as object).length > 0) {
      const query = parse(opportunitySearchQuerySchema, req.query);
      const page = await searchOpportunities(db, brand.id, query, {
        catalogueVersion: req.catalogueVersion,
        shortlistVersion: req.shortlistVersion,
      });
      if (page.next) {
        const url = new URL(req.url, 'http://x');
        url.searchParams.set('cursor', page.next);
        void reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
      }
      void reply.header('x-total-count', String(page.total)).header('cache-control', 'private, no-store');
      // the same search is the same bytes until the catalogue or the brand's shortlist changes
      compressAsPage(reply, page.json);
      return reply.type('application/json; charset=utf-8').send(page.json.body);
    }
    const list = await claimable(new Date(), req.catalogueVersion ?? undefined);
    const etag = `W/"${list.key}"`;
    void reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'private, no-cache')
      .header('etag', etag)
      .header('vary', 'Accept-Encoding');
    if (matchesEtag(req.headers['if-none-match'], etag)) return reply.code(304).send();
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    if (!encoding) return reply.send(list.json);
    return reply.header('content-encoding', encoding).send(await list.encoded(encoding));
  });

  // the brand's shortlist
  app.get('/api/brand/saved', async (req, reply) => {
    const brand = requireApprovedBrand(req);
    void reply.header('cache-control', 'private, no-store');
    return listSaved(db, brand.id);
  });
  app.put('/api/brand/saved/:id', async (req, reply) => {
    const brand = requireApprovedBrand(req);
    await saveOpportunity(db, brand.id, idParam(req, 'id', OPPORTUNITY_NOT_FOUND));
    return reply.code(204).send();
  });
  app.delete('/api/brand/saved/:id', async (req, reply) => {
    const brand = requireApprovedBrand(req);
    await unsaveOpportunity(db, brand.id, idParam(req, 'id', OPPORTUNITY_NOT_FOUND));
    return reply.code(204).send();
  });

  app.get('/api/admin/opportunities', { config: { sessionInStatement: true } }, async (req, reply) => {
    const { page, rows } = await pageWithSession(db, req, async (check) => {
      requireAdmin(req);
      const filter = parse(adminOpportunitiesQuerySchema, req.query);
      const page = pageOf(req);
      return { page, rows: await listAll(db, filter, page, check) };
    });
    return sendJsonPage(req, reply, page, rows);
  });

  app.get('/api/admin/opportunities/:id', async (req) => {
    requireAdmin(req);
    return toVersionedOpportunityJson(await getOpportunity(db, idParam(req, 'id', OPPORTUNITY_NOT_FOUND)));
  });

  app.post('/api/admin/opportunities', async (req, reply) => {
    requireAdmin(req);
    const input = parse(opportunityRequestSchema, req.body);
    return reply.code(201).send(toOpportunityJson(await createOpportunity(db, input)));
  });

  app.patch('/api/admin/opportunities/:id', async (req) => {
    requireAdmin(req);
    const id = idParam(req, 'id', OPPORTUNITY_NOT_FOUND);
    const current = await getOpportunity(db, id);
    const keepDay = current.deadlineDate ? current.deadlineDate.toISOString().slice(0, 10) : null;
    const input = parse(opportunityRequestSchemaFor(keepDay), req.body);
    // the version the admin's form started from (GET's `version`): an older one is refused with 409
    const { baseVersion } = parse(baseVersionSchema, req.body);
    return toVersionedOpportunityJson(await updateOpportunity(db, id, input, baseVersion));
  });

  uploadRoutes(app, (uploads) => logoUploadRoutes(uploads, deps));
};
