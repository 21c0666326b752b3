import { z } from 'zod';
import type { Module } from '../../deps';
import { idIn, memberOf, placementParams, route, scopeOf, userOf } from '../../lib/contract';
import { parse } from '../../lib/validate';
import { uploadRoutes } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';
import { DISPUTE_STATUSES } from '../../../shared/enums';
import {
  adminDisputesSchema,
  DISPUTE_OUTCOME_LABELS,
  DISPUTE_REASON_LABELS,
  disputeAnswerSchema,
  disputeDecisionSchema,
  disputeDetailSchema,
  disputeRequestSchema,
  disputeSchema,
} from '../../../shared/schemas/fair-terms';
import { formatUsd } from '../../../shared/money';
import { checkAttachment, readMessageForm } from '../messages/attachment';
import { postMessage } from '../messages/conversation';
import {
  acceptOffer,
  adminDisputes,
  answerDispute,
  decideDispute,
  disputeDetail,
  escalateDispute,
  openDispute,
} from './service';
import { memberViewer } from '../life/life';
import { now as clockNow } from '../../lib/clock';

const DISPUTE_NOT_FOUND = 'Dispute not found';
const disputeParams = z.object({ id: idIn(DISPUTE_NOT_FOUND) });

/**
 * Disputes (issue 47): the brand opens one on a placement (with a file, as multipart), reads it,
 * accepts an offer or escalates; the editorial team answers; an admin who neither released the
 * placement nor answered decides an escalation. The text and any file also go into the
 * placement's conversation, where both sides keep talking about it.
 */
export const disputesModule: Module = async (app, { db, provider, config, files, limits }) => {
  const terms = { responseDays: config.RESPONSE_DAYS, disputeDays: config.DISPUTE_DAYS };

  uploadRoutes(app, (uploads) =>
    route(
      uploads,
      'POST',
      '/api/brand/placements/:placementId/disputes',
      {
        access: 'brand',
        actsOn: { placement: 'placementId' },
        can: 'work',
        tags: ['Disputes'],
        summary: 'Open a dispute about a placement',
        description: `About the content (\`not_as_briefed\`, \`other\`) from the first draft until DISPUTE_DAYS (${config.DISPUTE_DAYS} here) after release; about the live link (\`not_published\`, \`link_missing\`, \`link_changed\`) while it is published and guaranteed: Byline checks it at once and a problem two checks an hour apart confirm becomes the publication case. The editorial team answers a content dispute within RESPONSE_DAYS (${config.RESPONSE_DAYS} here) or the brand gets what it asked for. JSON, or multipart/form-data with the same fields and a \`file\` (PDF, DOC, DOCX, PNG or JPEG, at most 25 MB), which goes into the placement's conversation with the text.`,
        params: placementParams,
        body: disputeRequestSchema,
        bodyParsedByHandler: true,
        upload: {
          reason: { description: 'not_published | link_missing | link_changed | not_as_briefed | other' },
          outcome: { description: 'refund_full | refund_partial | correction' },
          amountUsd: { description: 'with refund_partial: the amount asked for' },
          text: { description: 'what is wrong' },
          file: { description: 'evidence (optional)', file: true },
        },
        response: { 201: disputeSchema },
        errors: {
          409: 'Outside its window (the content: from the first draft to DISPUTE_DAYS after release; the link: during the publication guarantee), refunded, more than is left, or a dispute already open',
          413: 'The file is larger than 25 MB',
        },
      },
      async (req, reply) => {
        const member = memberOf(req);
        const form = req.isMultipart() ? await readMessageForm(req) : null;
        try {
          const input = parse(disputeRequestSchema, form ? { ...form.fields, text: form.text } : req.body);
          const checked = form?.file ? await checkAttachment(form.file) : null;
          const dispute = await openDispute(db, member, req.params.placementId, input, clockNow(), terms);
          const attachment = checked
            ? {
                file: await storeUpload(
                  db,
                  files,
                  limits,
                  { id: member.userId, role: 'brand' },
                  { source: checked.file, ext: 'bin', mime: checked.mime, kind: checked.kind },
                ),
                name: checked.name,
                type: checked.mime,
                size: checked.file.size,
              }
            : null;
          const asked =
            input.outcome === 'refund_partial'
              ? `${DISPUTE_OUTCOME_LABELS.refund_partial} of ${formatUsd(input.amountUsd!)}`
              : DISPUTE_OUTCOME_LABELS[input.outcome];
          await postMessage(
            db,
            { side: 'brand', organisationId: member.organisationId, userId: member.userId },
            dispute.paymentId,
            {
              text: `Dispute opened: ${DISPUTE_REASON_LABELS[input.reason]}. Asking for: ${asked}.\n\n${input.text}`,
              attachment,
            },
          );
          return reply.code(201).send(dispute);
        } finally {
          await form?.file?.spooled.dispose();
        }
      },
    ),
  );

  route(
    app,
    'GET',
    '/api/brand/disputes/:id',
    {
      access: 'brand',
      actsOn: { dispute: 'id' },
      can: 'read',
      tags: ['Disputes'],
      summary:
        'A dispute: its deadlines, the answer, the decision, and Byline’s checks of the live article since it opened',
      description: 'Its messages are the placement’s conversation.',
      params: disputeParams,
      response: { 200: disputeDetailSchema },
      errors: { 404: DISPUTE_NOT_FOUND },
    },
    async (req) => disputeDetail(db, req.params.id, scopeOf(req), memberViewer(memberOf(req))),
  );

  route(
    app,
    'POST',
    '/api/brand/disputes/:id/accept-offer',
    {
      access: 'brand',
      actsOn: { dispute: 'id' },
      can: 'work',
      tags: ['Disputes'],
      summary: 'Accept the editorial team’s offer (a part refund or a correction)',
      params: disputeParams,
      response: { 200: disputeSchema },
      errors: { 404: DISPUTE_NOT_FOUND, 409: 'Nothing offered (or the dispute is not awaiting the brand)' },
    },
    async (req) => acceptOffer(db, provider, memberOf(req), req.params.id),
  );

  route(
    app,
    'POST',
    '/api/brand/disputes/:id/escalate',
    {
      access: 'brand',
      actsOn: { dispute: 'id' },
      can: 'work',
      tags: ['Disputes'],
      summary: 'Escalate an answered dispute to an admin who neither released the placement nor answered it',
      description:
        'Within 3 days of the answer. The admin decides within 10 days, or the brand gets what it asked for.',
      params: disputeParams,
      response: { 200: disputeSchema },
      errors: {
        404: DISPUTE_NOT_FOUND,
        409: 'Not answered yet, already escalated or resolved, or the 3 days have passed',
      },
    },
    async (req) => escalateDispute(db, provider, memberOf(req), req.params.id),
  );

  route(
    app,
    'GET',
    '/api/admin/disputes',
    {
      access: 'admin',
      tags: ['Disputes'],
      summary: 'Disputes: counts by status, and the disputes of one status (all without), soonest due first',
      querystring: z.object({ status: z.enum(DISPUTE_STATUSES, { error: 'Unknown status' }).optional() }),
      response: { 200: adminDisputesSchema },
    },
    async (req) => adminDisputes(db, req.query.status),
  );

  route(
    app,
    'GET',
    '/api/admin/disputes/:id',
    {
      access: 'admin',
      tags: ['Disputes'],
      summary: 'A dispute, for an admin: its deadlines, the answer, the decision, the checks since it opened',
      params: disputeParams,
      response: { 200: disputeDetailSchema },
      errors: { 404: DISPUTE_NOT_FOUND },
    },
    async (req) => disputeDetail(db, req.params.id, null, { side: 'admin' }, userOf(req).id),
  );

  route(
    app,
    'POST',
    '/api/admin/disputes/:id/answer',
    {
      access: 'admin',
      tags: ['Disputes'],
      summary:
        'Answer an open dispute: accept (the brand gets what it asked for), offer a part refund or a correction, or reject with a reason',
      params: disputeParams,
      body: disputeAnswerSchema,
      response: { 200: disputeSchema },
      errors: { 404: DISPUTE_NOT_FOUND, 409: 'Not open, or an offer of more than is left' },
    },
    async (req) => answerDispute(db, provider, req.params.id, req.body, { type: 'admin', id: userOf(req).id }),
  );

  route(
    app,
    'POST',
    '/api/admin/disputes/:id/decide',
    {
      access: 'admin',
      tags: ['Disputes'],
      summary: 'Decide an escalated dispute, with a written reason',
      description: 'Only an admin who neither released the placement nor answered the dispute may decide it.',
      params: disputeParams,
      body: disputeDecisionSchema,
      response: { 200: disputeSchema },
      errors: {
        403: 'This admin released the placement or answered the dispute',
        404: DISPUTE_NOT_FOUND,
        409: 'Not escalated, or more than is left',
      },
    },
    async (req) => decideDispute(db, provider, req.params.id, req.body, { type: 'admin', id: userOf(req).id }),
  );
};
