import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ModuleDeps } from '../../deps';
import { idIn, memberOf, placementParams, route, userOf } from '../../lib/contract';
import {
  cancelAnswerSchema,
  cancellationAnswerSchema,
  cancellationSchema,
  cancelRequestedSchema,
  cancelRequestSchema,
  openCancellationSchema,
} from '../../../shared/schemas/fair-terms';
import { answerCancellation, cancelPlacement, openCancellations } from './cancel';

/** Cancellation (issue 47): the brand's, refunded at once before writing or asked for after; the team's answer. */
export function cancelRoutes(app: FastifyInstance, { db, provider, config }: ModuleDeps) {
  route(
    app,
    'POST',
    '/api/brand/placements/:placementId/cancel',
    {
      access: 'brand',
      actsOn: { placement: 'placementId' },
      can: 'buy',
      tags: ['Placements'],
      summary: 'Cancel a placement in progress',
      description: `Before the editorial team marks writing as started (or attaches a draft) it is refunded in full at once, with its credit note (200). After that it is a request the team answers within RESPONSE_DAYS (${config.RESPONSE_DAYS} here): a full or part refund, or a refusal with a reason; unanswered by \`respondBy\`, it is granted in full (202).`,
      params: placementParams,
      body: cancelRequestSchema,
      response: { 200: cancelAnswerSchema, 202: cancelRequestedSchema },
      errors: {
        409: 'Not in progress (published, refunded or being refunded), or a cancellation already awaits an answer',
      },
    },
    async (req, reply) => {
      const done = await cancelPlacement(
        db,
        provider,
        memberOf(req),
        req.params.placementId,
        req.body.reason || null,
        new Date(),
        config.RESPONSE_DAYS,
      );
      if ('requested' in done) return reply.code(202).send({ cancellation: done.requested });
      return done;
    },
  );

  route(
    app,
    'GET',
    '/api/admin/cancellations',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'Cancellations awaiting the editorial team’s answer, soonest due first',
      response: { 200: z.array(openCancellationSchema) },
    },
    async () => openCancellations(db),
  );

  route(
    app,
    'POST',
    '/api/admin/cancellations/:id/answer',
    {
      access: 'admin',
      tags: ['Placements'],
      summary:
        'Answer a cancellation: refund in full, refund a part (the rest is kept and the placement ends), or refuse with a reason',
      params: z.object({ id: idIn('Cancellation not found') }),
      body: cancellationAnswerSchema,
      response: { 200: cancellationSchema },
      errors: {
        404: 'Cancellation not found',
        409: 'Answered already, the placement is no longer in progress, or more than is left to refund',
      },
    },
    async (req) => answerCancellation(db, provider, req.params.id, req.body, { type: 'admin', id: userOf(req).id }),
  );
}
