import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { parse } from '../../lib/validate';
import { editRequestSchema } from '../../../shared/schemas/brief';
import { requireAdmin, requireApprovedBrand } from '../auth/guards';
import { documentRoutes } from './documents';
import { adminProjects, approveDraft, markEditsComplete, requestEdits } from './service';

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

  app.get('/api/admin/projects', async (req) => {
    requireAdmin(req);
    return adminProjects(db);
  });

  // the id is the payment id
  app.post<{ Params: { id: string } }>('/api/admin/projects/:id/mark-edits-complete', async (req) => {
    requireAdmin(req);
    return markEditsComplete(db, req.params.id);
  });

  documentRoutes(app, deps);
}
