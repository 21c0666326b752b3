import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGE_EMPTY, messageTextSchema } from '../../../shared/schemas/message';
import type { Module } from '../../deps';
import { badRequest, notFound } from '../../lib/errors';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { claimLimits, releaseClaims } from '../../lib/rate-limit';
import { parse } from '../../lib/validate';
import { uploadRoutes } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';
import { requireAdmin, requireApprovedBrand } from '../auth/guards';
import { pageWithSession } from '../auth/session';
import { checkAttachment, readMessageForm } from './attachment';
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
type Params = { Params: { paymentId: string; messageId?: string } };

/** A download name in Content-Disposition: ASCII for old clients, the real name as RFC 5987 UTF-8. */
function dispositionOf(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The conversation of a placement between its brand and the editorial team (issue 19), under
 * /api/brand/projects/{paymentId}/… for the brand that owns the payment and /api/admin/projects/
 * {paymentId}/… for admins (all admins are one side). Another brand's payment is a 404, like a
 * missing one. Attachments are private to the two sides, stored like drafts (never under /uploads).
 */
export const messagesModule: Module = async (app: FastifyInstance, deps) => {
  const { db, files, limits } = deps;
  const sides: { prefix: string; caller: (req: FastifyRequest) => Caller }[] = [
    {
      prefix: '/api/brand',
      caller: (req) => {
        const brand = requireApprovedBrand(req);
        return { side: 'brand', brandId: brand.id, userId: brand.id };
      },
    },
    {
      prefix: '/api/admin',
      caller: (req) => ({ side: 'admin', userId: requireAdmin(req).id }),
    },
  ];

  for (const { prefix, caller: callerOf } of sides) {
    const base = `${prefix}/projects/:paymentId`;

    // the sidebar badge and the cards: the caller's side's unread messages per placement
    app.get(`${prefix}/messages/unread`, async (req) => {
      const caller = callerOf(req);
      return unreadByPayment(db, caller.side, caller.side === 'brand' ? { brandId: caller.brandId } : 'all');
    });

    app.get<Params>(`${base}/conversation`, async (req) => conversationAbout(db, callerOf(req), req.params.paymentId));

    app.get<Params>(`${base}/messages`, { config: { sessionInStatement: true } }, async (req, reply) => {
      const { page, rows } = await pageWithSession(db, req, async (check) => {
        const caller = callerOf(req);
        const page = pageOf(req);
        return { page, rows: await messagesPage(db, caller, req.params.paymentId, page, check) };
      });
      return sendJsonPage(req, reply, page, rows);
    });

    // a message with an attachment comes as multipart/form-data
    uploadRoutes(app, (uploads) =>
      uploads.post<Params>(`${base}/messages`, async (req, reply) => {
        const caller = callerOf(req);
        const { paymentId } = await conversationOf(db, caller, req.params.paymentId);
        const form = req.isMultipart()
          ? await readMessageForm(req)
          : { text: (req.body as { text?: unknown } | null)?.text, file: null };
        let claimed: number[] = [];
        try {
          const { text } = parse(messageTextSchema, { text: form.text });
          const checked = form.file ? await checkAttachment(form.file) : null;
          if (!text && !checked) throw badRequest(MESSAGE_EMPTY, { text: MESSAGE_EMPTY });
          // counted once the message is known to be valid, and taken back if it is not stored
          claimed = caller.side === 'brand' ? await claimLimits(db, [{ limit: limits.messages, subject: caller.userId }]) : [];
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
            await form.file?.spooled.dispose();
          }
        }
      }),
    );

    app.post<Params>(`${base}/messages/read`, async (req, reply) => {
      const caller = callerOf(req);
      const { paymentId } = await conversationOf(db, caller, req.params.paymentId);
      await markRead(db, caller.side, paymentId);
      return reply.code(204).send();
    });

    app.get<Params>(`${base}/messages/:messageId/attachment`, async (req, reply: FastifyReply) => {
      const caller = callerOf(req);
      const { paymentId } = await conversationOf(db, caller, req.params.paymentId);
      const attachment = await attachmentOf(db, paymentId, req.params.messageId ?? '');
      const file = attachment && (await files.get(attachment.file));
      if (!attachment || !file) throw notFound(ATTACHMENT_NOT_FOUND);
      return reply
        .header('Content-Type', attachment.type)
        .header('Content-Length', file.size)
        .header('Content-Disposition', dispositionOf(attachment.name))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "sandbox; default-src 'none'")
        .header('Cache-Control', 'private, no-store')
        .send(file.stream);
    });
  }
};
