import type { FastifyInstance } from 'fastify';
import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import { adminProjectsQuerySchema, isDraftAttachBody } from '../../../shared/schemas/brief';
import { adminPaymentPatchSchema } from '../../../shared/schemas/payment';
import { placementsQuerySchema, publicationCheckSchema, publicationUrlSchema, publishRequestSchema } from '../../../shared/schemas/publication';
import type { ModuleDeps } from '../../deps';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { idParam } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { requireAdmin } from '../auth/guards';
import { pageWithSession } from '../auth/session';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { uploadRoutes } from '../../storage/read-upload';
import { documentRoutes } from './documents';
import { adminPlacements, adminProjectCounts, adminProjects, placementCounts } from './lists';
import { previewCheck, recheckNow, releasePayment, setPublicationUrl, type PublicationDeps } from './publication';
import { attachDraftFromBody, markEditsComplete } from './review';

/** The editorial team's side: Admin Projects, drafts, marking edits complete, publication and its watch. */
export function adminPlacementRoutes(app: FastifyInstance, deps: ModuleDeps) {
  const { db, files, config } = deps;
  const publication: PublicationDeps = {
    db,
    provider: deps.provider,
    checker: deps.checker,
    terms: { guaranteeDays: config.PUBLICATION_GUARANTEE_DAYS, restoreDays: config.RESTORE_DAYS, checkIntervalHours: config.LINK_CHECK_INTERVAL_HOURS },
  };

  app.get('/api/admin/projects', { config: { sessionInStatement: true } }, async (req, reply) => {
    const { page, rows } = await pageWithSession(db, req, async (check) => {
      requireAdmin(req);
      const filter = parse(adminProjectsQuerySchema, req.query);
      const page = pageOf(req);
      return { page, rows: await adminProjects(db, filter, page, check) };
    });
    return sendJsonPage(req, reply, page, rows);
  });

  // with the list's search, so each tab counts what it lists
  app.get('/api/admin/projects/counts', async (req) => {
    requireAdmin(req);
    const { q } = parse(adminSearchQuerySchema, req.query);
    return adminProjectCounts(db, q);
  });

  // the id is the payment id
  app.post<{ Params: { id: string } }>('/api/admin/projects/:id/mark-edits-complete', async (req) => {
    const admin = requireAdmin(req);
    return markEditsComplete(db, req.params.id, { type: 'admin', id: admin.id });
  });

  // the spec's call has no body; with {liveUrl, overrideReason?} the live article is checked first
  app.post('/api/admin/payments/:id/release', async (req) => {
    const admin = requireAdmin(req);
    const id = idParam(req, 'id', PAYMENT_NOT_FOUND);
    return releasePayment(publication, id, parse(publishRequestSchema, req.body ?? {}), new Date(), { type: 'admin', id: admin.id });
  });

  // The spec's one route for three changes: {status: "released"} publishes, {draftDocumentUrl} or
  // {draftDocumentFile} attaches the draft. The body's members name the change; each has its handler.
  app.patch('/api/admin/payments/:id/status', async (req) => {
    const admin = requireAdmin(req);
    const id = idParam(req, 'id', PAYMENT_NOT_FOUND);
    if (isDraftAttachBody(req.body)) return attachDraftFromBody(db, files, id, req.body, { type: 'admin', id: admin.id });
    const { liveUrl, overrideReason } = parse(adminPaymentPatchSchema, req.body);
    return releasePayment(publication, id, { liveUrl, overrideReason }, new Date(), { type: 'admin', id: admin.id });
  });

  app.put('/api/admin/payments/:id/publication', async (req) => {
    const admin = requireAdmin(req);
    const id = idParam(req, 'id', PAYMENT_NOT_FOUND);
    // the check the new URL passed (or was accepted with)
    const check = await setPublicationUrl(publication, id, parse(publicationUrlSchema, req.body), new Date(), { type: 'admin', id: admin.id });
    return { ok: true, check };
  });

  // with {liveUrl}: the check of a URL before it is used (nothing changes); without: the live article's, applied
  app.post('/api/admin/payments/:id/publication/check', async (req) => {
    requireAdmin(req);
    const id = idParam(req, 'id', PAYMENT_NOT_FOUND);
    const { liveUrl } = parse(publicationCheckSchema, req.body ?? {});
    return liveUrl ? previewCheck(publication, id, liveUrl) : recheckNow(publication, id);
  });

  app.get('/api/admin/placements', { config: { sessionInStatement: true } }, async (req, reply) => {
    const { page, rows } = await pageWithSession(db, req, async (check) => {
      requireAdmin(req);
      const { health } = parse(placementsQuerySchema, req.query);
      const page = pageOf(req);
      return { page, rows: await adminPlacements(db, health, page, check) };
    });
    return sendJsonPage(req, reply, page, rows);
  });

  app.get('/api/admin/placements/counts', async (req) => {
    requireAdmin(req);
    return placementCounts(db);
  });

  uploadRoutes(app, (uploads) => documentRoutes(uploads, deps));
}
