import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Module } from '../../deps';
import { fileAnswer, idIn, memberOf, noContent, placementParams, route, scopeOf } from '../../lib/contract';
import { publicUrl } from '../../config';
import { notFound, unsupportedMedia } from '../../lib/errors';
import { PAYMENT_NOT_FOUND, paymentVisible } from '../../db/payment-access';
import { reports } from '../../db/schema';
import { readUpload, uploadRoutes } from '../../storage/read-upload';
import { detectImage } from '../../storage/file-type';
import { storeUpload } from '../../storage/uploads';
import { urlAnswerSchema } from '../../../shared/schemas/responses/common';
import {
  reportRequestSchema,
  reportScheduleSchema,
  reportSchema,
  shareRequestSchema,
  shareSchema,
} from '../../../shared/schemas/reports';
import { fileNameOf, logoOf, reportContent, reportDocuments } from './documents';
import { shareHtml, unsubscribeHtml } from './share-page';
import {
  createReport,
  createShare,
  listReports,
  listShares,
  openShare,
  REPORT_NOT_FOUND,
  reportCsv,
  readerOf,
  reportOf,
  revokeShare,
  shareReader,
  setSchedule,
  SHARE_NOT_FOUND,
  unsubscribe,
} from './service';
import { placementProof } from './proof';

const reportParams = z.object({ id: idIn(REPORT_NOT_FOUND) });
const LOGO_MAX_BYTES = 2 * 1024 * 1024;

const sendFile = (reply: FastifyReply, type: string, name: string, body: Buffer | string) =>
  reply
    .header('Content-Type', type)
    .header('Content-Disposition', `attachment; filename="${name}"`)
    .header('Cache-Control', 'private, no-cache')
    .send(body);

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .status(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex')
    .send(body);

/**
 * Reports (issue 48): an organisation's placements as PDF and CSV, white label when it wants,
 * shared by links that expire and can be revoked, and sent on a schedule.
 */
export const reportsModule: Module = async (app, { db, readDb, files, limits, config }) => {
  // a report's row, its shares and schedule are read on the primary (what the member just made or
  // changed); its contents, the organisation's placements, on the replica when there is one
  // (`readDb`): a placement's latest step shows there within the replication lag
  const baseUrl = publicUrl(config);

  uploadRoutes(app, (uploads) =>
    route(
      uploads,
      'POST',
      '/api/org/reports/logo',
      {
        access: 'brand',
        can: 'work',
        clientReview: true,
        tags: ['Reports'],
        summary: 'Upload the logo of a white-label report',
        upload: { logo: { description: 'a PNG or JPEG image, at most 2 MB', file: true } },
        response: { 200: urlAnswerSchema },
        errors: { 413: 'The logo is larger than 2 MB', 415: 'Not a PNG or JPEG image', 429: 'Too many uploads today' },
      },
      async (req) => {
        const member = memberOf(req);
        const { file } = await readUpload(req, 'logo', LOGO_MAX_BYTES, 'The logo must be smaller than 2 MB');
        try {
          const image = await detectImage(file);
          if (!image || (image.ext !== 'png' && image.ext !== 'jpg'))
            throw unsupportedMedia('image_type_refused', 'Please upload the logo as a PNG or JPEG image');
          const name = await storeUpload(
            db,
            files,
            limits,
            { id: member.userId, role: 'brand' },
            // a report logo of this organisation: only its reports may name it (issue 57)
            { source: file, ext: image.ext, mime: image.mime, kind: 'report_logo', organisationId: member.organisationId },
          );
          return { url: `/uploads/${name}` };
        } finally {
          await file.dispose();
        }
      },
    ),
  );

  route(
    app,
    'POST',
    '/api/org/reports',
    {
      access: 'brand',
      can: 'work',
      clientReview: true,
      tags: ['Reports'],
      summary: 'Make a report of the organisation’s placements',
      description:
        'Filters (a client, the days ordered, a status), the columns, prices (off by default: the `price` column needs `showPrices`) and a white label (the logo uploaded first, a colour, a footer of up to 200 characters): with it the PDF, the CSV and a shared page name only the agency. A member limited to clients reports on one of theirs, without prices.',
      body: reportRequestSchema,
      response: { 201: z.object({ id: z.guid() }) },
      errors: {
        403: 'Prices for a member who does not see them, or a client the member is not limited to',
        404: 'Client not found, or a logo that is not one this organisation uploaded for its reports',
      },
    },
    async (req, reply) => reply.status(201).send(await createReport(db, memberOf(req), req.body)),
  );

  route(
    app,
    'GET',
    '/api/org/reports',
    {
      access: 'brand',
      clientReview: true,
      tags: ['Reports'],
      summary: 'The organisation’s reports, newest first',
      response: { 200: z.array(reportSchema) },
    },
    async (req) => listReports(db, memberOf(req)),
  );

  for (const format of ['pdf', 'csv'] as const) {
    route(
      app,
      'GET',
      `/api/org/reports/:id/${format}`,
      {
        access: 'brand',
        actsOn: { own: 'a report of the organisation: its service limits it to the member’s clients' },
        clientReview: true,
        tags: ['Reports'],
        summary: `The report as ${format.toUpperCase()}, as it is now`,
        params: reportParams,
        response: {
          200: fileAnswer([format === 'pdf' ? 'application/pdf' : 'text/csv'], 'The report, as an attachment'),
        },
        errors: { 404: REPORT_NOT_FOUND },
      },
      async (req, reply) => {
        const member = memberOf(req);
        const report = await reportOf(db, member, req.params.id);
        // prices by who asks: never to a member who may not see amounts, whoever made the report
        const reader = readerOf(member);
        if (format === 'csv') {
          // the lines only: no PDF to render for it
          const { lines } = await reportContent(readDb, report);
          return sendFile(reply, 'text/csv; charset=utf-8', fileNameOf(report, 'csv'), reportCsv(report, lines, reader));
        }
        const docs = await reportDocuments(readDb, files, report, reader);
        return sendFile(reply, 'application/pdf', fileNameOf(report, 'pdf'), docs.pdf);
      },
    );
  }

  route(
    app,
    'PUT',
    '/api/org/reports/:id/schedule',
    {
      access: 'brand',
      actsOn: { own: 'a report of the organisation: its service limits it to the member’s clients' },
      can: 'work',
      clientReview: true,
      tags: ['Reports'],
      summary: 'Send the report weekly or monthly (null: stop)',
      description:
        'To up to 20 addresses, each with a link to stop receiving it. A period’s report is sent once, at the first run of the job in that period (ISO weeks, calendar months, UTC), and only when its placements changed since the last one sent. Each recipient gets it as it may read it: a member who sees no amounts (a client reviewer) without prices; a member limited to other clients not at all. A client reviewer schedules it to the organisation’s members only.',
      params: reportParams,
      body: reportScheduleSchema,
      response: { 200: reportSchema },
      errors: {
        400: 'A recipient is a member limited to other clients',
        403: 'A client reviewer names an address outside the organisation’s members',
        404: REPORT_NOT_FOUND,
        429: 'The organisation added too many recipients this hour (LIMIT_REPORT_RECIPIENTS: each address a save adds counts, every one when the cadence is set or changed); `Retry-After` says when to try again',
      },
    },
    async (req) => setSchedule(db, limits, memberOf(req), req.params.id, req.body),
  );

  // ---- share links ----
  route(
    app,
    'POST',
    '/api/org/reports/:id/shares',
    {
      access: 'brand',
      actsOn: { own: 'a report of the organisation: its service limits it to the member’s clients' },
      can: 'work',
      clientReview: true,
      tags: ['Reports'],
      summary: 'Share the report by a link that expires',
      description:
        'The link opens the report signed out, as it is when opened, until it expires (30 days unless said) or is revoked.',
      params: reportParams,
      body: shareRequestSchema,
      response: { 201: z.object({ id: z.guid(), url: z.string(), expiresAt: z.iso.datetime() }) },
      errors: { 404: REPORT_NOT_FOUND },
    },
    async (req, reply) => {
      const member = memberOf(req);
      const report = await reportOf(db, member, req.params.id);
      return reply
        .status(201)
        .send(await createShare(db, member, { reportId: report.id }, req.body.expiresInDays, baseUrl));
    },
  );

  route(
    app,
    'POST',
    '/api/brand/placements/:placementId/shares',
    {
      access: 'brand',
      actsOn: { placement: 'placementId' },
      can: 'work',
      clientReview: true,
      tags: ['Reports'],
      summary: 'Share a placement’s proof by a link that expires',
      description:
        'The link shows the outlet, the article’s title, its live URL, the link’s status and its check history: no price, no conversation.',
      params: placementParams,
      body: shareRequestSchema,
      response: { 201: z.object({ id: z.guid(), url: z.string(), expiresAt: z.iso.datetime() }) },
      errors: { 404: PAYMENT_NOT_FOUND },
    },
    async (req, reply) => {
      const member = memberOf(req);
      // another organisation's, or (the contract's placement check) a client the member is not limited to: 404
      if (!(await paymentVisible(db, req.params.placementId, member.organisationId))) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
      return reply
        .status(201)
        .send(await createShare(db, member, { placementId: req.params.placementId }, req.body.expiresInDays, baseUrl));
    },
  );

  route(
    app,
    'GET',
    '/api/org/shares',
    {
      access: 'brand',
      clientReview: true,
      tags: ['Reports'],
      summary: 'The organisation’s share links, with how often each was opened',
      description:
        'An active link carries its `url`, to copy again, for a member whose role may make links (a link to a report with prices: only for a member who may see amounts); otherwise `url` is null.',
      response: { 200: z.array(shareSchema) },
    },
    async (req) => listShares(db, memberOf(req), scopeOf(req), baseUrl),
  );

  route(
    app,
    'DELETE',
    '/api/org/shares/:id',
    {
      access: 'brand',
      actsOn: { own: 'a share link of the organisation: its service limits it to the member’s clients' },
      can: 'work',
      clientReview: true,
      tags: ['Reports'],
      summary: 'Revoke a share link: it answers 404 at once',
      params: z.object({ id: idIn('Link not found') }),
      response: { 204: noContent('Revoked') },
      errors: { 404: 'Link not found' },
    },
    async (req, reply) => {
      await revokeShare(db, scopeOf(req), req.params.id);
      return reply.status(204).send();
    },
  );

  route(
    app,
    'GET',
    '/share/:token',
    {
      access: 'public',
      tags: ['Reports'],
      summary: 'A shared report or placement proof, as a page (signed out)',
      description:
        'Counts the view. 404 once the link is revoked or expired. A white-label report’s page names only the agency.',
      params: z.object({ token: z.string().max(100) }),
      response: { 200: fileAnswer(['text/html'], 'The page') },
      errors: { 404: SHARE_NOT_FOUND },
    },
    async (req, reply) => {
      const share = await openShare(db, req.params.token);
      if (!share) return html(reply, 404, await shareHtml({ kind: 'gone' }));
      if (share.reportId) {
        const [report] = await db.select().from(reports).where(eq(reports.id, share.reportId));
        if (!report) return html(reply, 404, await shareHtml({ kind: 'gone' }));
        const docs = await reportContent(readDb, report);
        const logo = report.whiteLabel ? await logoOf(readDb, files, report) : null;
        return html(reply, 200, await shareHtml({ kind: 'report', report, docs, logo, reader: await shareReader(db, share) }));
      }
      const proof = await placementProof(readDb, share.placementId!);
      if (!proof) return html(reply, 404, await shareHtml({ kind: 'gone' }));
      return html(reply, 200, await shareHtml({ kind: 'placement', proof }));
    },
  );

  // ---- unsubscribing from a scheduled report (the mail's link: a page, then a POST, so that a mail scanner opening links changes nothing) ----
  const unsubscribeQuery = z.object({ email: z.string().max(254), token: z.string().max(100) });
  app.register(async (scope) => {
    // the page's form posts no fields of its own: what it needs is in the query
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) =>
      done(null, {}),
    );
    for (const method of ['GET', 'POST'] as const) {
      route(
        scope,
        method,
        '/unsubscribe/report/:id',
        {
          access: 'public',
          tags: ['Reports'],
          summary:
            method === 'GET' ? 'The page to stop receiving a scheduled report' : 'Stop receiving a scheduled report',
          params: reportParams,
          querystring: unsubscribeQuery,
          response: { 200: fileAnswer(['text/html'], 'The page') },
          errors: { 404: 'The link is not valid' },
        },
        async (req, reply) => {
          const { email, token } = req.query;
          if (method === 'GET') return html(reply, 200, unsubscribeHtml({ state: 'ask', email }));
          const done = await unsubscribe(db, req.params.id, email, token);
          return html(reply, done ? 200 : 404, unsubscribeHtml({ state: done ? 'done' : 'invalid', email }));
        },
      );
    }
  });
};
