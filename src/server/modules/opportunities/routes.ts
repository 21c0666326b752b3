import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { SEARCH_COUNT_CAP } from '../../../shared/constants';
import {
  adminOpportunitiesQuerySchema,
  opportunityEditSchema,
  opportunityRequestSchema,
  pastDeadlineRefusal,
  serverMinDeadlineDay,
} from '../../../shared/schemas/opportunity';
import { opportunitySearchQuerySchema } from '../../../shared/schemas/opportunity-search';
import {
  adminOpportunityItemSchema,
  brandOpportunityItemSchema,
  brandOpportunitySchema,
  opportunitySchema,
  versionedOpportunitySchema,
} from '../../../shared/schemas/responses/opportunity';
import type { Module } from '../../deps';
import { idIn, memberOf, noContent, orgOf, route } from '../../lib/contract';
import { badRequest } from '../../lib/errors';
import { decodeCursor, pageFrom, sendJsonPage } from '../../lib/paging';
import { uploadRoutes } from '../../storage/read-upload';
import { browseList } from './claimable';
import { logoUploadRoutes } from './logo-upload';
import { searchOpportunities } from './search';
import {
  createOpportunity,
  getOpportunity,
  listAll,
  toOpportunityJson,
  toVersionedOpportunityJson,
  updateOpportunity,
} from './service';
import { listSaved, saveOpportunity, unsaveOpportunity } from './shortlist';
import { errorCodeSchema } from '../../../shared/schemas/responses/common';

const opportunityParams = z.object({ id: idIn('Opportunity not found').describe('the opportunity id') });

/** X-Total-Count when more than SEARCH_COUNT_CAP match: `1000+` */
const TOTAL_COUNT_MORE = `${SEARCH_COUNT_CAP}+`;

/** Answers JSON text the database built: a string goes out as it is, not serialised again. */
const sendJsonText = (reply: FastifyReply, body: string) => reply.type('application/json; charset=utf-8').send(body);

/** If-None-Match (one tag, a list, or `*`) against the current tag, compared weakly (RFC 9110 13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** The catalogue: the brands' browse list, search and shortlist, and the admins' list, form and logo and example uploads. */
export const opportunitiesModule: Module = async (app, deps) => {
  // the brands' catalogue and search read the replica when there is one (`readDb`): a change shows
  // there within the replication lag. The shortlist, the admins' lists and forms read the primary:
  // each is what its user just changed
  const { db, readDb } = deps;

  route(
    app,
    'GET',
    '/api/opportunities',
    {
      access: 'brand',
      tags: ['Catalogue'],
      spec: true,
      summary: 'The opportunities a brand can buy; with any parameter, the search',
      description: `Without parameters: every available opportunity whose deadline has not passed, newest first (\`BrandOpportunity[]\`, with an \`ETag\`; \`If-None-Match\` answers 304 while the list is unchanged), at most \`LIST_MAX\` (1,000) at once: the rest follow in \`Link: rel="next"\` (\`?after=\`). With any parameter: one page of the search (\`BrandOpportunityItem[]\`), the next page in \`Link: rel="next"\`, and on the first page (no \`cursor\`) the number found in \`X-Total-Count\`: exact up to ${SEARCH_COUNT_CAP}, \`${TOTAL_COUNT_MORE}\` when more match. Unknown parameters are refused.`,
      querystring: opportunitySearchQuerySchema,
      headers: {
        Link: '`<…>; rel="next"`: the search\'s next page, or the plain list\'s past `LIST_MAX`, when there is one',
        'X-Total-Count': `the search's first page only (none with \`cursor\`): how many it finds, exactly up to ${SEARCH_COUNT_CAP}, or \`${TOTAL_COUNT_MORE}\` when more match`,
      },
      // the search's items first: the plain list's would also read them, dropping `saved` and `soldOut`
      response: {
        200: z.union([z.array(brandOpportunityItemSchema), z.array(brandOpportunitySchema)]),
        304: noContent('Not modified (the `If-None-Match` tag is current)'),
      },
    },
    async (req, reply) => {
      // with any parameter but `after`: the search, one page at a time (search.ts)
      if (Object.keys(req.query).length > 0 && req.query.after === undefined) {
        const page = await searchOpportunities(readDb, orgOf(req), req.query);
        if (page.next) {
          const url = new URL(req.url, 'http://x');
          url.searchParams.set('cursor', page.next);
          void reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
        }
        // the first page only: a page asked with a cursor is not counted (search.ts)
        if (page.found)
          void reply.header('x-total-count', page.found.atLeast ? TOTAL_COUNT_MORE : String(page.found.total));
        void reply.header('cache-control', 'private, no-store');
        return sendJsonText(reply, page.body);
      }
      // without: the spec's list, LIST_MAX at a time (decision 039), the rest after `after`; the same
      // list for every brand: browsers revalidate it with its ETag, the hash of its bytes, and get a
      // 304 while it has not changed
      const after = req.query.after === undefined ? undefined : decodeCursor(req.query.after);
      const page = await browseList(readDb, deps.config.LIST_MAX, after);
      if (page.next) void reply.header('link', `</api/opportunities?after=${page.next}>; rel="next"`);
      const etag = `W/"${createHash('sha256').update(page.body).digest('base64url')}"`;
      void reply.header('cache-control', 'private, no-cache').header('etag', etag).header('vary', 'Accept-Encoding');
      if (matchesEtag(req.headers['if-none-match'], etag)) return reply.code(304).send();
      return sendJsonText(reply, page.body);
    },
  );

  route(
    app,
    'GET',
    '/api/brand/saved',
    {
      access: 'brand',
      tags: ['Catalogue'],
      summary: 'The brand’s shortlist',
      description:
        'Most recently saved first; one that sold out or whose deadline passed stays, marked `soldOut`. At most `LIST_MAX` (1,000) at once: the rest follow in `Link: rel="next"` (`?after=`).',
      // other parameters are ignored, as they always were here
      querystring: z.object({
        after: z
          .string()
          .max(500, 'This page link is no longer valid; reload the list from the start')
          .optional()
          .describe('the next page, as its `Link` names it'),
      }),
      headers: { Link: '`<…>; rel="next"`: the shortlist past `LIST_MAX`, when there is more' },
      response: { 200: z.array(brandOpportunityItemSchema) },
    },
    async (req, reply) => {
      const after = req.query.after === undefined ? undefined : decodeCursor(req.query.after);
      const page = await listSaved(db, orgOf(req), deps.config.LIST_MAX, after);
      if (page.next) void reply.header('link', `</api/brand/saved?after=${page.next}>; rel="next"`);
      return sendJsonText(reply.header('cache-control', 'private, no-store'), page.body);
    },
  );

  route(
    app,
    'PUT',
    '/api/brand/saved/:id',
    {
      access: 'brand',
      actsOn: { own: 'an opportunity the member saved: its own list' },
      // saving is not buying (issue 57): a reviewer shortlists for the buyers; a viewer only reads
      can: 'work',
      tags: ['Catalogue'],
      summary: 'Save an opportunity to the shortlist',
      params: opportunityParams,
      response: { 204: noContent('Saved (also when it already was)') },
    },
    async (req, reply) => {
      await saveOpportunity(db, memberOf(req), req.params.id);
      return reply.code(204).send();
    },
  );

  route(
    app,
    'DELETE',
    '/api/brand/saved/:id',
    {
      access: 'brand',
      actsOn: { own: 'an opportunity the member saved: its own list' },
      can: 'work',
      tags: ['Catalogue'],
      summary: 'Remove an opportunity from the shortlist',
      params: opportunityParams,
      response: { 204: noContent('Removed (also when it was not saved)') },
    },
    async (req, reply) => {
      await unsaveOpportunity(db, orgOf(req), req.params.id);
      return reply.code(204).send();
    },
  );

  route(
    app,
    'GET',
    '/api/admin/opportunities',
    {
      access: 'admin',
      tags: ['Catalogue'],
      spec: true,
      paged: true,
      summary: 'Every opportunity (the admins’ dashboard)',
      description:
        'Newest first, whatever its status, with its filters and the search by words (as the brands’ search, over every opportunity).',
      querystring: adminOpportunitiesQuerySchema,
      response: { 200: z.array(adminOpportunityItemSchema) },
    },
    async (req, reply) => {
      const page = pageFrom(req.query);
      return sendJsonPage(req, reply, page, await listAll(db, req.query, page));
    },
  );

  route(
    app,
    'GET',
    '/api/admin/opportunities/:id',
    {
      access: 'admin',
      tags: ['Catalogue'],
      spec: true,
      summary: 'One opportunity, with the version its edit form sends back',
      params: opportunityParams,
      response: { 200: versionedOpportunitySchema },
    },
    async (req) => toVersionedOpportunityJson(await getOpportunity(db, req.params.id)),
  );

  route(
    app,
    'POST',
    '/api/admin/opportunities',
    {
      access: 'admin',
      tags: ['Catalogue'],
      spec: true,
      summary: 'Create an opportunity',
      description:
        'Prices and numbers as strings or numbers; an empty value means none. `status` and `filledSlots` are not set here.',
      body: opportunityRequestSchema,
      response: { 201: opportunitySchema },
    },
    async (req, reply) => reply.code(201).send(toOpportunityJson(await createOpportunity(db, req.body))),
  );

  route(
    app,
    'PATCH',
    '/api/admin/opportunities/:id',
    {
      access: 'admin',
      tags: ['Catalogue'],
      spec: true,
      summary: 'Edit an opportunity',
      description:
        'The same body as creating one, whole. A deadline already past may be kept. With `baseVersion` (the `version` read), a save based on an older copy is refused with 409 and the current one.',
      params: opportunityParams,
      body: opportunityEditSchema,
      response: { 200: versionedOpportunitySchema },
      // `current` first, as the error's answer has always written it
      errors: {
        409: z
          .object({ current: versionedOpportunitySchema.optional(), message: z.string(), code: errorCodeSchema })
          .describe(
            'Changed by someone else since it was read (the body carries the `current` opportunity), or max slots below the slots already filled',
          ),
      },
    },
    async (req) => {
      const { baseVersion, ...input } = req.body;
      const current = await getOpportunity(db, req.params.id);
      // a past deadline only when it is the one the opportunity already has
      const keepDay = current.deadlineDate ? current.deadlineDate.toISOString().slice(0, 10) : null;
      const refusal = input.deadlineDate
        ? pastDeadlineRefusal(input.deadlineDate, serverMinDeadlineDay(), keepDay)
        : null;
      if (refusal) throw badRequest('deadline_refused', refusal, { deadlineDate: refusal });
      // the version the admin's form started from (GET's `version`): an older one is refused with 409
      return toVersionedOpportunityJson(await updateOpportunity(db, req.params.id, input, baseVersion));
    },
  );

  uploadRoutes(app, (uploads) => logoUploadRoutes(uploads, deps));
};
