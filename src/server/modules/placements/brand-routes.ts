import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  briefCopyAnswerSchema,
  briefCopySchema,
  briefDraftSchema,
  briefSubmitSchema,
  briefTemplateAnswerSchema,
  briefTemplateSchema,
  bulkApproveAnswerSchema,
  bulkApproveSchema,
  editRequestSchema,
  clientFilter,
  myArticlesQuerySchema,
  olderBriefSubmitSchema,
} from '../../../shared/schemas/brief';
import {
  articleTabCountsSchema,
  briefResponseSchema,
  brandPlacementItemSchema,
  brandPlacementPaymentSchema,
  savedBriefSchema,
} from '../../../shared/schemas/responses/placement';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { ModuleDeps } from '../../deps';
import { idIn, memberOf, noContent, orgOf, placementParams, route, scopeOf } from '../../lib/contract';
import { pageFrom, sendJsonItem, sendJsonPage } from '../../lib/paging';
import { briefAccess, getBrief, saveBriefDraft, submitBrief, submitOlderBrief } from './brief';
import { myArticle, myArticleCounts, myArticles } from './lists';
import { memberViewer } from '../life/life';
import { approveDraft, requestEdits, requestExtraRevision, revisionsLeft } from './review';
import { EXTRA_REVISION_REASON_REQUIRED, extraRevisionReasonSchema, revisionsSchema } from '../../../shared/schemas/fair-terms';
import { REVISIONS_INCLUDED_DEFAULT } from '../../../shared/constants';
import { badRequest } from '../../lib/errors';
import { approveMany, copyBrief } from './bulk';
import { deleteBriefTemplate, getBriefTemplate, listBriefTemplates, saveBriefTemplate, TEMPLATE_NOT_FOUND } from './templates';
import { errorCodeSchema } from '../../../shared/schemas/responses/common';

const paymentParams = z.object({ paymentId: idIn(PAYMENT_NOT_FOUND).describe('the payment id (the placement’s)') });

/**
 * 409 of a brief save: based on an older copy (with the brief the server holds now, to merge), or
 * the placement is past the brief (approved, published or refunded: no `current`). `current` first,
 * as the refusal has always written it.
 */
const briefConflict = z
  .object({ current: briefResponseSchema.optional(), message: z.string(), code: errorCodeSchema })
  .describe(
    'Changed in another window since it was read (the body carries the `current` brief), or approved, published or refunded',
  );

const REVIEW_CONFLICT =
  'There is no draft to review yet, it was approved already, or the placement is published or refunded';

/** The brand's side: My Articles, the brief, and the draft review (approve, request edits). */
export function brandPlacementRoutes(app: FastifyInstance, { db }: ModuleDeps) {
  route(
    app,
    'GET',
    '/api/brand/my-articles',
    {
      access: 'brand',
      clientReview: true,
      tags: ['Placements'],
      spec: true,
      paged: true,
      summary: 'My Articles: the brand’s placements, drafts to review first',
      querystring: myArticlesQuerySchema,
      response: { 200: z.array(brandPlacementItemSchema) },
    },
    async (req, reply) => {
      const { tab, paymentId, opportunityId, clientId } = req.query;
      const page = pageFrom(req.query);
      const rows = await myArticles(db, scopeOf(req, clientId), { tab, paymentId, opportunityId }, page, memberViewer(memberOf(req)));
      // a client reviewer's copy loses its amounts on the way out (lib/amounts.ts)
      return sendJsonPage(req, reply, page, rows);
    },
  );

  route(
    app,
    'GET',
    '/api/brand/my-articles/counts',
    {
      access: 'brand',
      clientReview: true,
      tags: ['Placements'],
      summary: 'My Articles: each tab’s count',
      querystring: z.object({ clientId: clientFilter }),
      response: { 200: articleTabCountsSchema },
    },
    async (req) => myArticleCounts(db, scopeOf(req, req.query.clientId)),
  );

  // the placement's page: the same item as the list's, from the list's statement
  route(
    app,
    'GET',
    '/api/brand/placements/:placementId',
    {
      access: 'brand',
      actsOn: { placement: 'placementId' },
      clientReview: true,
      tags: ['Placements'],
      summary: 'One of the brand’s placements, as My Articles lists it (its page)',
      params: placementParams,
      response: { 200: brandPlacementItemSchema },
    },
    async (req, reply) => {
      return sendJsonItem(reply, await myArticle(db, scopeOf(req), req.params.placementId, memberViewer(memberOf(req))));
    },
  );

  route(
    app,
    'GET',
    '/api/brand/brief/:paymentId',
    {
      access: 'brand',
      actsOn: { placement: 'paymentId' },
      clientReview: true,
      tags: ['Placements'],
      spec: true,
      summary: 'The brief of a placement (or where a new one starts from)',
      params: paymentParams,
      response: { 200: briefResponseSchema },
    },
    async (req) => getBrief(db, orgOf(req), req.params.paymentId),
  );

  route(
    app,
    'POST',
    '/api/brand/brief/:paymentId',
    {
      access: 'brand',
      actsOn: { placement: 'paymentId' },
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      spec: true,
      summary: 'Save the brief as a draft (autosave)',
      description:
        'A part left out keeps what is stored. With `baseVersion` (the version read), a save based on an older copy is refused with 409 and the current copy.',
      params: paymentParams,
      body: briefDraftSchema,
      response: { 200: savedBriefSchema },
      errors: { 409: briefConflict },
    },
    async (req) => saveBriefDraft(db, memberOf(req), req.params.paymentId, req.body),
  );

  route(
    app,
    'POST',
    '/api/brand/brief/:paymentId/submit',
    {
      access: 'brand',
      actsOn: { placement: 'paymentId' },
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      spec: true,
      summary: 'Submit the brief to the editorial team',
      params: paymentParams,
      body: briefSubmitSchema,
      response: { 200: savedBriefSchema },
      errors: { 409: briefConflict },
    },
    async (req) => submitBrief(db, memberOf(req), req.params.paymentId, req.body),
  );

  route(
    app,
    'GET',
    '/api/brand/brief-access',
    {
      access: 'brand',
      tags: ['Placements'],
      spec: true,
      summary: 'Whether the brand bought this opportunity (the earlier brief form asks)',
      querystring: z.object({
        // the earlier flow (/brand/brief?opportunityId=…) asks with whatever its address held:
        // anything but one value (a repeated parameter, say) is simply not a purchase, never a 400
        opportunityId: z.string().optional().catch(undefined).describe('the opportunity id'),
      }),
      // a bare boolean, as the earlier flow reads it
      response: { 200: z.boolean() },
    },
    async (req) => briefAccess(db, orgOf(req), req.query.opportunityId),
  );

  route(
    app,
    'POST',
    '/api/briefs',
    {
      access: 'brand',
      can: 'work',
      tags: ['Placements'],
      spec: true,
      summary: 'Submit a brief with the earlier form’s fields',
      description:
        'The fields are mapped onto the current brief’s, so an admin sees one brief whichever form was used.',
      body: olderBriefSubmitSchema,
      response: { 200: savedBriefSchema },
      errors: { 404: 'No payment of this brand for the opportunity', 409: 'Approved, published or refunded' },
    },
    async (req) => submitOlderBrief(db, memberOf(req), req.body),
  );

  route(
    app,
    'POST',
    '/api/brand/projects/:paymentId/approve',
    {
      access: 'brand',
      actsOn: { placement: 'paymentId' },
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      spec: true,
      summary: 'Approve the draft',
      params: paymentParams,
      response: { 200: brandPlacementPaymentSchema },
      errors: { 409: REVIEW_CONFLICT },
    },
    async (req) => approveDraft(db, memberOf(req), req.params.paymentId),
  );

  route(
    app,
    'POST',
    '/api/brand/projects/:paymentId/request-edits',
    {
      access: 'brand',
      actsOn: { placement: 'paymentId' },
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      spec: true,
      summary: 'Ask for edits of the draft',
      description: `Each placement includes \`revisions.included\` requests (REVISIONS_INCLUDED when bought, default ${REVISIONS_INCLUDED_DEFAULT}). Beyond them a request needs \`feedback\` and a \`reason\` tied to the brief, and answers 202: it awaits the editorial team, who accept it (the round opens) or decline it with a reason.`,
      params: paymentParams,
      body: editRequestSchema.extend({ reason: extraRevisionReasonSchema.optional() }),
      response: { 200: brandPlacementPaymentSchema, 202: z.object({ revisions: revisionsSchema }) },
      errors: { 400: EXTRA_REVISION_REASON_REQUIRED, 409: REVIEW_CONFLICT },
    },
    async (req, reply) => {
      const member = memberOf(req);
      const { paymentId } = req.params;
      if ((await revisionsLeft(db, member, paymentId)) === false) {
        const { feedback, reason } = req.body;
        const errors = {
          ...(feedback ? {} : { feedback: 'Say what should change' }),
          ...(reason ? {} : { reason: EXTRA_REVISION_REASON_REQUIRED }),
        };
        if (Object.keys(errors).length) throw badRequest('extra_revision_reason_required', EXTRA_REVISION_REASON_REQUIRED, errors);
        return reply.code(202).send(await requestExtraRevision(db, member, paymentId, feedback!, reason!));
      }
      return requestEdits(db, member, paymentId, req.body.feedback);
    },
  );

  // many at once (issue 46): the brief copied to the rest of its order, templates, drafts approved together
  route(
    app,
    'POST',
    '/api/brand/placements/:placementId/brief/copy',
    {
      access: 'brand',
      actsOn: { placement: 'placementId' },
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      summary: 'Use this (submitted) brief for other placements of the same order',
      description:
        'Submits a copy of the brief for each placement chosen in `paymentIds`, or, without them, for every placement of the order that has no brief. A placement with a brief of its own keeps it and is listed in `skipped`, as is any that cannot take a brief (published, refunded, approved). Each copy stays editable.',
      params: placementParams,
      body: briefCopySchema,
      response: { 200: briefCopyAnswerSchema },
      errors: { 409: 'The brief is not submitted yet, or the placement was bought on its own' },
    },
    async (req) => copyBrief(db, memberOf(req), req.params.placementId, req.body.paymentIds),
  );

  route(
    app,
    'GET',
    '/api/brand/brief-templates',
    {
      access: 'brand',
      clientReview: true,
      tags: ['Placements'],
      summary: 'The brief templates a brief may start from, by name',
      description:
        'With `paymentId`, those of that placement’s client (for a placement bought for no client, the organisation’s own); without, every template the member may see. A member limited to clients sees only its clients’ templates, never the organisation’s own.',
      querystring: z.object({ paymentId: z.string().optional().describe('the placement whose brief is being written') }),
      response: { 200: z.array(briefTemplateAnswerSchema) },
      errors: { 404: 'Payment not found (not one the member may reach)' },
    },
    async (req) => listBriefTemplates(db, memberOf(req), req.query.paymentId),
  );

  route(
    app,
    'GET',
    '/api/brand/brief-templates/:id',
    {
      access: 'brand',
      actsOn: { own: 'a brief template: its service limits it to the member’s clients (templates.ts)' },
      clientReview: true,
      tags: ['Placements'],
      summary: 'One brief template',
      params: z.object({ id: idIn(TEMPLATE_NOT_FOUND).describe('the template’s id') }),
      response: { 200: briefTemplateAnswerSchema },
      errors: { 404: 'Brief template not found (another client’s, for a member limited to clients)' },
    },
    async (req) => getBriefTemplate(db, memberOf(req), req.params.id),
  );

  route(
    app,
    'POST',
    '/api/brand/brief-templates',
    {
      access: 'brand',
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      summary: 'Keep a brief as a template to start others from',
      description:
        'The template belongs to the client of the placement named by `paymentId` (without one, to the organisation; a member limited to clients must name a placement of one of its clients).',
      body: briefTemplateSchema,
      response: { 201: briefTemplateAnswerSchema },
      errors: {
        400: 'A member limited to clients names no placement',
        404: 'Payment not found (not one the member may reach)',
        409: 'A template of that name exists for this client, or it has 50',
      },
    },
    async (req, reply) => reply.code(201).send(await saveBriefTemplate(db, memberOf(req), req.body)),
  );

  route(
    app,
    'DELETE',
    '/api/brand/brief-templates/:id',
    {
      access: 'brand',
      actsOn: { own: 'a brief template: its service limits it to the member’s clients (templates.ts)' },
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      summary: 'Delete a brief template',
      params: z.object({ id: idIn(TEMPLATE_NOT_FOUND).describe('the template’s id') }),
      response: { 204: noContent('Deleted') },
      errors: { 404: 'Brief template not found' },
    },
    async (req, reply) => {
      await deleteBriefTemplate(db, memberOf(req), req.params.id);
      return reply.code(204).send();
    },
  );

  route(
    app,
    'POST',
    '/api/brand/projects/approve',
    {
      access: 'brand',
      clientReview: true,
      can: 'work',
      tags: ['Placements'],
      summary: 'Approve the ready drafts of several placements at once',
      description: 'Each placement is approved as on its own; those whose draft is not ready (or not found) are listed in `skipped` with why.',
      body: bulkApproveSchema,
      response: { 200: bulkApproveAnswerSchema },
    },
    async (req) => approveMany(db, memberOf(req), req.body.paymentIds),
  );
}
