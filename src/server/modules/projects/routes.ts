import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { parse } from '../../lib/validate';
import { adminProjectsQuerySchema, editRequestSchema } from '../../../shared/schemas/brief';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { requireAdmin, requireApprovedBrand } from '../auth/guards';
import { documentRoutes } from './documents';
import { adminProjectCounts, adminProjects, approveDraft, markEditsComplete, requestEdits } from './service';

type PaymentParams = { Params: { paymentId: string } };

/** Draft review (brand), Admin Projects, and the private draft documents. */
export function projectRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  app.post<PaymentParams>('/api/brand/projects/:paymentId/approve', async (req) => {
    const brand = requireApprovedBrand(req);
    return approveDraft(db, brand.id, req.params.paymentId);
  });

  app.post<PaymentParams>('/api/brand/projects/:paymentId/request-edits', async (req) => {
    const brand = requireApprovedBrand(req);
    const { feedback } = parse(editRequestSchema, req.body);
    return requestEdits(db, brand.id, req.params.paymentId, feedback);
  });

  app.get('/api/admin/projects', async (req, reply) => {
    requireAdmin(req);
    const { tab } = parse(adminProjectsQuerySchema, req.query);
    const page = pageOf(req);
    return sendJsonPage(req, reply, page, await adminProjects(db, tab, page));
  });

  app.get('/api/admin/projects/counts', async (req) => {
    requireAdmin(req);
    return adminProjectCounts(db);
  });

  // the id is the payment id
  app.post<{ Params: { id: string } }>('/api/admin/projects/:id/mark-edits-complete', async (req) => {
    requireAdmin(req);
    return markEditsComplete(db, req.params.id);
  });

  documentRoutes(app, deps);
}
