import type { FastifyInstance } from 'fastify';
import { briefDraftSchema, briefSubmitSchema, editRequestSchema, myArticlesQuerySchema, olderBriefSubmitSchema } from '../../../shared/schemas/brief';
import type { ModuleDeps } from '../../deps';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { parse } from '../../lib/validate';
import { requireApprovedBrand } from '../auth/guards';
import { pageWithSession } from '../auth/session';
import { briefAccess, getBrief, saveBriefDraft, submitBrief, submitOlderBrief } from './brief';
import { myArticleCounts, myArticles } from './lists';
import { approveDraft, requestEdits } from './review';

type PaymentParams = { Params: { paymentId: string } };

/** The brand's side: My Articles, the brief, and the draft review (approve, request edits). */
export function brandPlacementRoutes(app: FastifyInstance, { db }: ModuleDeps) {
  app.get('/api/brand/my-articles', { config: { sessionInStatement: true } }, async (req, reply) => {
    const { page, rows } = await pageWithSession(db, req, async (check) => {
      const brand = requireApprovedBrand(req);
      const filter = parse(myArticlesQuerySchema, req.query);
      const page = pageOf(req);
      return { page, rows: await myArticles(db, brand.id, filter, page, check) };
    });
    return sendJsonPage(req, reply, page, rows);
  });

  app.get('/api/brand/my-articles/counts', async (req) => {
    const brand = requireApprovedBrand(req);
    return myArticleCounts(db, brand.id);
  });

  app.get<PaymentParams>('/api/brand/brief/:paymentId', async (req) => {
    const brand = requireApprovedBrand(req);
    return getBrief(db, brand.id, req.params.paymentId);
  });

  app.post<PaymentParams>('/api/brand/brief/:paymentId', async (req) => {
    const brand = requireApprovedBrand(req);
    return saveBriefDraft(db, brand.id, req.params.paymentId, parse(briefDraftSchema, req.body));
  });

  app.post<PaymentParams>('/api/brand/brief/:paymentId/submit', async (req) => {
    const brand = requireApprovedBrand(req);
    return submitBrief(db, brand.id, req.params.paymentId, parse(briefSubmitSchema, req.body));
  });

  // the earlier brief flow (/brand/brief?opportunityId=…): a bare boolean
  app.get<{ Querystring: { opportunityId?: string } }>('/api/brand/brief-access', async (req) => {
    const brand = requireApprovedBrand(req);
    const id = req.query.opportunityId;
    return briefAccess(db, brand.id, typeof id === 'string' ? id : undefined);
  });

  app.post('/api/briefs', async (req) => {
    const brand = requireApprovedBrand(req);
    return submitOlderBrief(db, brand.id, parse(olderBriefSubmitSchema, req.body));
  });

  app.post<PaymentParams>('/api/brand/projects/:paymentId/approve', async (req) => {
    const brand = requireApprovedBrand(req);
    return approveDraft(db, brand.id, req.params.paymentId);
  });

  app.post<PaymentParams>('/api/brand/projects/:paymentId/request-edits', async (req) => {
    const brand = requireApprovedBrand(req);
    const { feedback } = parse(editRequestSchema, req.body);
    return requestEdits(db, brand.id, req.params.paymentId, feedback);
  });
}
