import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PublishRequest } from '../../../shared/publication';
import { draftAttachSchema, isDraftAttachBody } from '../../../shared/schemas/brief';
import { adminPaymentPatchSchema } from '../../../shared/schemas/payment';
import {
  publicationCheckSchema,
  publicationUrlSchema,
  publishRequestSchema,
} from '../../../shared/schemas/publication';
import { paymentSchema } from '../../../shared/schemas/responses/payment';
import { placementPaymentSchema } from '../../../shared/schemas/responses/placement';
import { publicationCheckResultSchema, publicationSetSchema } from '../../../shared/schemas/responses/publication';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { ModuleDeps } from '../../deps';
import { idIn, placementParams, route, userOf } from '../../lib/contract';
import { parse } from '../../lib/validate';
import type { PublicationDeps } from './live-check';
import { previewCheck, releasePayment } from './release';
import { attachDraftFromBody } from './review';
import { recheckNow, setPublicationUrl } from './watch';
import { errorCodeSchema } from '../../../shared/schemas/responses/common';
import { now as clockNow } from '../../lib/clock';

const paymentParams = z.object({ id: idIn(PAYMENT_NOT_FOUND).describe('the payment id (the placement’s)') });

/** 409 of a live article whose check found problems: the check, to show them (`check` first, as the refusal writes it). */
const checkRefusal = (when: string) =>
  z
    .object({ check: publicationCheckResultSchema.optional(), message: z.string(), code: errorCodeSchema })
    .describe(`${when}, or the live article has problems (the body carries the \`check\`)`);

const admin = (req: FastifyRequest) => ({ type: 'admin', id: userOf(req).id }) as const;

/** Publication: the release (both of the spec's calls), the draft's other PATCH, the live article and its checks. */
export function publicationRoutes(app: FastifyInstance, { db, files, provider, checker, config }: ModuleDeps) {
  const publication: PublicationDeps = {
    db,
    provider,
    checker,
    terms: {
      guaranteeDays: config.PUBLICATION_GUARANTEE_DAYS,
      restoreDays: config.RESTORE_DAYS,
      checkIntervalHours: config.LINK_CHECK_INTERVAL_HOURS,
    },
  };

  /**
   * The one release path: POST …/release and PATCH …/status {status: "released"} both end here, so
   * they answer and refuse alike. Without a live URL (the spec's calls) the money is released as it
   * always was; with {liveUrl, overrideReason?} the live article is checked first.
   */
  const release = (req: FastifyRequest, paymentId: string, request: PublishRequest) =>
    releasePayment(publication, paymentId, request, clockNow(), admin(req), req.ip);

  route(
    app,
    'POST',
    '/api/admin/payments/:id/release',
    {
      access: 'admin',
      tags: ['Publication'],
      spec: true,
      summary: 'Publish: the article is live and the money held in escrow is released',
      description:
        'The spec’s call has no body. With `{liveUrl}` the live page is checked first: problems refuse the release unless `overrideReason` accepts them (a draft the brand has not approved needs a reason too).',
      params: paymentParams,
      body: publishRequestSchema,
      response: { 200: paymentSchema },
      errors: {
        409: checkRefusal(
          'Not held in escrow, a refund is in progress, the brand has not approved the draft (give a reason)',
        ),
      },
    },
    async (req) => release(req, req.params.id, req.body),
  );

  route(
    app,
    'PATCH',
    '/api/admin/payments/:id/status',
    {
      access: 'admin',
      tags: ['Placements'],
      spec: true,
      summary: 'Attach the draft, or publish (`{status: "released"}`)',
      description:
        '`{draftDocumentUrl}` or `{draftDocumentFile}` (the path POST /api/upload/document answered) attaches the draft once the brief is in, or replaces it while the brand reviews: the answer is the `PlacementPayment`. `{status: "released"}` publishes, as POST …/release does: the answer is the `Payment`.',
      params: paymentParams,
      body: z.union([
        draftAttachSchema.describe('Attach the draft: a link or an uploaded file'),
        adminPaymentPatchSchema.describe('Publish'),
      ]),
      // the spec's one route for three changes: the body's members name the change, whose own schema reads it
      bodyParsedByHandler: true,
      // the Payment first: a PlacementPayment is a part of it, and would be answered without the rest
      response: { 200: z.union([paymentSchema, placementPaymentSchema]) },
      errors: { 409: checkRefusal('No brief yet, approved or published already') },
    },
    async (req) => {
      const body: unknown = req.body;
      if (isDraftAttachBody(body)) return attachDraftFromBody(db, files, req.params.id, body, admin(req));
      const { status: _released, ...request } = parse(adminPaymentPatchSchema, body);
      return release(req, req.params.id, request);
    },
  );

  route(
    app,
    'PUT',
    '/api/admin/placements/:placementId/publication',
    {
      access: 'admin',
      tags: ['Publication'],
      summary: 'Give or change the live article’s address (checked first)',
      params: placementParams,
      body: publicationUrlSchema,
      response: { 200: publicationSetSchema },
      errors: { 409: checkRefusal('Not published, or refunded') },
    },
    async (req) => {
      // the check the new URL passed (or was accepted with)
      const check = await setPublicationUrl(publication, req.params.placementId, req.body, clockNow(), admin(req));
      return { ok: true as const, check };
    },
  );

  // with {liveUrl}: the check of a URL before it is used (nothing changes); without: the live article's, applied
  route(
    app,
    'POST',
    '/api/admin/placements/:placementId/publication/check',
    {
      access: 'admin',
      tags: ['Publication'],
      summary: 'Check a live article now',
      description:
        'With `{liveUrl}`: try that address (nothing changes). Without: check the live article and apply the result.',
      params: placementParams,
      body: publicationCheckSchema,
      response: { 200: publicationCheckResultSchema },
      errors: { 409: 'Published without a live link, or refunded' },
    },
    async (req) => {
      const { liveUrl } = req.body;
      return liveUrl ? previewCheck(publication, req.params.placementId, liveUrl) : recheckNow(publication, req.params.placementId);
    },
  );
}
