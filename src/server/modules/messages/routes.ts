import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MESSAGE_EMPTY, messageTextSchema } from '../../../shared/schemas/message';
import {
  conversationAboutSchema,
  messageSchema,
  unreadSummarySchema,
} from '../../../shared/schemas/responses/conversation';
import type { Module } from '../../deps';
import { fileAnswer, idIn, memberOf, noContent, placementParams, route, scopeOf, userOf, type Access } from '../../lib/contract';
import { badRequest, notFound } from '../../lib/errors';
import { pageFrom, sendJsonPage } from '../../lib/paging';
import { claimLimits, releaseClaims } from '../../lib/rate-limit';
import { parse } from '../../lib/validate';
import { uploadRoutes } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';
import { checkAttachment, readMessageForm, sendAttachment } from './attachment';
import {
  attachmentOf,
  conversationAbout,
  conversationOf,
  markRead,
  messagesPage,
  postMessage,
  type Caller,
} from './conversation';
import { unreadByPayment } from './service';

const ATTACHMENT_NOT_FOUND = 'Attachment not found';
const ATTACHMENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'image/png',
  'image/jpeg',
];

const attachmentParams = placementParams.extend({ messageId: idIn(ATTACHMENT_NOT_FOUND).describe('the message’s id') });
/**
 * JSON `{text}`; a multipart message has no JSON body (null here) and its `text` field is read with
 * the same schema from the form.
 */
const messageBody = messageTextSchema.nullable();

/** The two sides of every conversation: the brand that owns the payment, and the editorial team. */
const SIDES: { prefix: '/api/brand' | '/api/admin'; access: Access; who: string; caller: (req: FastifyRequest) => Caller }[] = [
  {
    prefix: '/api/brand',
    access: 'brand',
    who: 'the brand (its own placements; another brand’s is a 404)',
    caller: (req) => {
      const member = memberOf(req);
      return { side: 'brand', organisationId: member.organisationId, userId: member.userId };
    },
  },
  {
    prefix: '/api/admin',
    access: 'admin',
    who: 'the editorial team',
    caller: (req) => ({ side: 'admin', userId: userOf(req).id }),
  },
];

/**
 * The conversation of a placement between its brand and the editorial team (issue 19), under
 * /api/brand/placements/{placementId}/… for the brand that owns it and /api/admin/placements/
 * {placementId}/… for admins (the older /projects/{paymentId}/… paths are aliases) (all admins are one side). Another brand's payment is a 404, like a
 * missing one. Attachments are private to the two sides, stored like drafts (never under /uploads).
 */
export const messagesModule: Module = async (app, deps) => {
  const { db, files, limits } = deps;

  for (const { prefix, access, who, caller: callerOf } of SIDES) {
    const base = `${prefix}/placements/:placementId` as const;

    // the sidebar badge and the cards: the caller's side's unread messages per placement
    route(
      app,
      'GET',
      `${prefix}/messages/unread`,
      {
        access,
        ...(access === 'brand' ? { clientReview: true as const } : {}),
        tags: ['Conversation'],
        summary: `Unread messages per placement, for ${who}`,
        response: { 200: unreadSummarySchema },
      },
      async (req) => {
        const caller = callerOf(req);
        return unreadByPayment(db, caller.side, caller.side === 'brand' ? scopeOf(req) : 'all');
      },
    );

    route(
      app,
      'GET',
      `${base}/conversation`,
      {
        access,
        actsOn: { placement: 'placementId' },
        ...(access === 'brand' ? { clientReview: true as const } : {}),
        tags: ['Conversation'],
        summary: 'What a placement’s conversation is about (the details page’s header)',
        params: placementParams,
        response: { 200: conversationAboutSchema },
      },
      async (req) => conversationAbout(db, callerOf(req), req.params.placementId),
    );

    route(
      app,
      'GET',
      `${base}/messages`,
      {
        access,
        actsOn: { placement: 'placementId' },
        ...(access === 'brand' ? { clientReview: true as const } : {}),
        tags: ['Conversation'],
        paged: true,
        summary: 'A placement’s messages: the newest page first, each page newest first',
        description: 'The `Link: rel="next"` page holds older messages.',
        params: placementParams,
        response: { 200: z.array(messageSchema) },
      },
      async (req, reply) => {
        const page = pageFrom(req.query);
        return sendJsonPage(req, reply, page, await messagesPage(db, callerOf(req), req.params.placementId, page));
      },
    );

    // a message with an attachment comes as multipart/form-data
    uploadRoutes(app, (uploads) =>
      route(
        uploads,
        'POST',
        `${base}/messages`,
        {
          access,
          actsOn: { placement: 'placementId' },
          ...(access === 'brand' ? { clientReview: true as const } : {}),
          ...(access === 'brand' ? { can: 'work' as const } : {}),
          tags: ['Conversation'],
          summary: 'Write a message, with or without an attachment',
          description:
            'JSON `{text}`, or multipart/form-data with a `text` field and a `file` (PDF, DOC, DOCX, PNG or JPEG by its bytes, at most 25 MB). The other side is told by e-mail, at most every 15 minutes.',
          params: placementParams,
          body: messageBody,
          upload: {
            text: { description: 'the message (may be empty when a file is attached)' },
            file: { description: 'the attachment (optional)', file: true },
          },
          response: { 201: messageSchema },
          errors: {
            413: 'The file is larger than 25 MB',
            429: 'Too many messages this hour, or uploads today (brands)',
          },
        },
        async (req, reply) => {
          const caller = callerOf(req);
          const { paymentId } = await conversationOf(db, caller, req.params.placementId);
          const form = req.isMultipart() ? await readMessageForm(req) : null;
          let claimed: number[] = [];
          try {
            const text = form ? parse(messageTextSchema, { text: form.text }).text : (req.body?.text ?? '');
            const checked = form?.file ? await checkAttachment(form.file) : null;
            if (!text && !checked) throw badRequest('message_empty', MESSAGE_EMPTY, { text: MESSAGE_EMPTY });
            // counted once the message is known to be valid, and taken back if it is not stored
            claimed =
              caller.side === 'brand'
                ? await claimLimits(db, [{ limit: limits.messages, subject: caller.userId }])
                : [];
            const attachment = checked
              ? {
                  // stored as <random>.bin, whatever it is: the public /uploads route serves image extensions,
                  // and an attached image must stay private to the two sides (its type is in the row)
                  file: await storeUpload(
                    db,
                    files,
                    limits,
                    { id: caller.userId, role: caller.side },
                    { source: checked.file, ext: 'bin', mime: checked.mime, kind: checked.kind },
                  ),
                  name: checked.name,
                  type: checked.mime,
                  size: checked.file.size,
                }
              : null;
            const message = await postMessage(db, caller, paymentId, { text, attachment });
            claimed = [];
            return reply.code(201).send(message);
          } finally {
            try {
              if (claimed.length) await releaseClaims(db, claimed);
            } finally {
              await form?.file?.spooled.dispose();
            }
          }
        },
      ),
    );

    route(
      app,
      'POST',
      `${base}/messages/read`,
      {
        access,
        actsOn: { placement: 'placementId' },
        ...(access === 'brand' ? { clientReview: true as const } : {}),
        // the read mark is the side's, not the member's: a viewer reading marks it too
        ...(access === 'brand' ? { can: 'read' as const } : {}),
        tags: ['Conversation'],
        summary: 'Mark everything the other side wrote so far as read',
        params: placementParams,
        response: { 204: noContent('Marked read') },
      },
      async (req, reply) => {
        const caller = callerOf(req);
        const { paymentId } = await conversationOf(db, caller, req.params.placementId);
        await markRead(db, caller.side, paymentId);
        return reply.code(204).send();
      },
    );

    route(
      app,
      'GET',
      `${base}/messages/:messageId/attachment`,
      {
        access,
        actsOn: { placement: 'placementId' },
        ...(access === 'brand' ? { clientReview: true as const } : {}),
        tags: ['Conversation'],
        summary: 'Download a message’s attachment',
        params: attachmentParams,
        response: { 200: fileAnswer(ATTACHMENT_TYPES, 'The file, as an attachment under its original name') },
      },
      async (req, reply) => {
        const { paymentId } = await conversationOf(db, callerOf(req), req.params.placementId);
        const attachment = await attachmentOf(db, paymentId, req.params.messageId);
        const file = attachment && (await files.get(attachment.file));
        if (!attachment || !file) throw notFound('attachment_not_found', ATTACHMENT_NOT_FOUND);
        return sendAttachment(reply, attachment, file);
      },
    );
  }
};
