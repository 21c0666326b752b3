import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { adminProjectCountsQuerySchema, adminProjectsQuerySchema } from '../../../shared/schemas/brief';
import { placementsQuerySchema } from '../../../shared/schemas/publication';
import {
  adminPlacementItemSchema,
  assigneeSchema,
  placementPaymentSchema,
  projectTabCountsSchema,
} from '../../../shared/schemas/responses/placement';
import { livePlacementItemSchema, placementCountsSchema } from '../../../shared/schemas/responses/publication';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { ModuleDeps } from '../../deps';
import { idIn, placementParams, route, userOf } from '../../lib/contract';
import { pageFrom, sendJsonItem, sendJsonPage } from '../../lib/paging';
import { uploadRoutes } from '../../storage/read-upload';
import { documentRoutes } from './documents';
import { adminPlacements, adminProject, adminProjectCounts, adminProjects, placementCounts } from './lists';
import { publicationRoutes } from './publication-routes';
import { assignEditor, editorialTeam } from './editor';
import { answerExtraRevision, markEditsComplete, markWritingStarted } from './review';
import { answerReasonSchema } from '../../../shared/schemas/fair-terms';
import { timestamp } from '../../../shared/schemas/responses/common';

/** The editorial team's side: Admin Projects, drafts, marking edits complete, publication and its watch. */
export function adminPlacementRoutes(app: FastifyInstance, deps: ModuleDeps) {
  const { db } = deps;

  route(
    app,
    'GET',
    '/api/admin/projects',
    {
      access: 'admin',
      tags: ['Placements'],
      spec: true,
      paged: true,
      summary: 'Projects: every placement with its payment and brief',
      querystring: adminProjectsQuerySchema,
      response: { 200: z.array(adminPlacementItemSchema) },
    },
    async (req, reply) => {
      const { tab, q, mine, sort, clock } = req.query;
      const page = pageFrom(req.query);
      return sendJsonPage(req, reply, page, await adminProjects(db, { tab, q, mine, sort, clock }, page, userOf(req).id));
    },
  );

  // with the list's search, so each tab counts what it lists
  route(
    app,
    'GET',
    '/api/admin/projects/counts',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'Projects: each tab’s count (of the brands `q` finds; with `mine=true`, of the admin’s own)',
      querystring: adminProjectCountsQuerySchema,
      response: { 200: projectTabCountsSchema },
    },
    async (req) => adminProjectCounts(db, req.query.q, req.query.mine ? userOf(req).id : undefined),
  );

  route(
    app,
    'GET',
    '/api/admin/team',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'The editorial team: the admins a placement may be assigned to',
      response: { 200: z.array(assigneeSchema) },
    },
    async () => editorialTeam(db),
  );

  route(
    app,
    'PUT',
    '/api/admin/placements/:placementId/assignee',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'Assign the placement to an admin (its editor), or to nobody',
      description: 'The first admin who acts on an unassigned placement becomes its editor; Projects’ “Mine” lists an admin’s own.',
      params: placementParams,
      body: z.object({ adminId: idIn('Choose an admin of the editorial team').nullable() }),
      response: { 200: z.object({ assignee: assigneeSchema.nullable() }) },
      errors: { 400: 'Not an admin of the editorial team' },
    },
    async (req) => assignEditor(db, req.params.placementId, req.body.adminId),
  );

  // the placement's page: the same item as the list's, from the list's statement
  route(
    app,
    'GET',
    '/api/admin/placements/:placementId',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'One placement, as Projects lists it (its page), whatever its state',
      params: placementParams,
      response: { 200: adminPlacementItemSchema },
    },
    async (req, reply) => sendJsonItem(reply, await adminProject(db, req.params.placementId)),
  );

  route(
    app,
    'POST',
    '/api/admin/projects/:id/mark-edits-complete',
    {
      access: 'admin',
      tags: ['Placements'],
      spec: true,
      summary: 'Mark the requested edits done (the brand is asked to review again)',
      params: z.object({ id: idIn(PAYMENT_NOT_FOUND).describe('the payment id (the placement’s)') }),
      response: { 200: placementPaymentSchema },
      errors: { 409: 'Edits can only be marked complete after the brand has requested them' },
    },
    async (req) => markEditsComplete(db, req.params.id, { type: 'admin', id: userOf(req).id }),
  );

  // the fair terms (issue 47): extra revisions answered, writing started (cancelling becomes a request)
  route(
    app,
    'POST',
    '/api/admin/placements/:placementId/revision-request/accept',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'Accept the brand’s extra revision: the round opens with its feedback',
      params: placementParams,
      response: { 200: placementPaymentSchema },
      errors: { 409: 'No extra revision is awaiting an answer, or the draft is no longer under review' },
    },
    async (req) => answerExtraRevision(db, req.params.placementId, true, null, { type: 'admin', id: userOf(req).id }),
  );
  route(
    app,
    'POST',
    '/api/admin/placements/:placementId/revision-request/decline',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'Decline the brand’s extra revision, with the reason it reads (it may dispute it)',
      params: placementParams,
      body: answerReasonSchema,
      response: { 200: placementPaymentSchema },
      errors: { 409: 'No extra revision is awaiting an answer' },
    },
    async (req) => answerExtraRevision(db, req.params.placementId, false, req.body.reason, { type: 'admin', id: userOf(req).id }),
  );
  route(
    app,
    'POST',
    '/api/admin/placements/:placementId/writing-started',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'Mark the writing as started: from now the brand’s cancellation is a request the team answers',
      description: 'Attaching a draft marks it too.',
      params: placementParams,
      response: { 200: z.object({ writingStartedAt: timestamp }) },
      errors: { 409: 'Already marked, or the placement is not in progress (or is being refunded, or was declined)' },
    },
    async (req) => markWritingStarted(db, req.params.placementId, { type: 'admin', id: userOf(req).id }),
  );

  publicationRoutes(app, deps);

  route(
    app,
    'GET',
    '/api/admin/placements',
    {
      access: 'admin',
      tags: ['Publication'],
      paged: true,
      summary: 'Published placements and their health (of the brands `q` finds)',
      querystring: placementsQuerySchema,
      response: { 200: z.array(livePlacementItemSchema) },
    },
    async (req, reply) => {
      const page = pageFrom(req.query);
      return sendJsonPage(req, reply, page, await adminPlacements(db, { health: req.query.health, q: req.query.q }, page));
    },
  );

  route(
    app,
    'GET',
    '/api/admin/placements/counts',
    {
      access: 'admin',
      tags: ['Publication'],
      summary: 'Published placements by health, and the open cases',
      response: { 200: placementCountsSchema },
    },
    async () => placementCounts(db),
  );

  uploadRoutes(app, (uploads) => documentRoutes(uploads, deps));
}
