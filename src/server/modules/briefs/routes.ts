import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { parse } from '../../lib/validate';
import { briefDraftSchema, briefSubmitSchema, myArticlesQuerySchema, olderBriefSubmitSchema } from '../../../shared/schemas/brief';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { requireApprovedBrand } from '../auth/guards';
import { briefAccess, getBrief, myArticleCounts, myArticles, saveBriefDraft, submitBrief, submitOlderBrief } from './service';

type PaymentParams = { Params: { paymentId: string } };

export function briefRoutes(app: FastifyInstance, { db }: AppDeps) {
  app.get('/api/brand/my-articles', async (req, reply) => {
    const brand = requireApprovedBrand(req);
    const filter = parse(myArticlesQuerySchema, req.query);
    const page = pageOf(req);
    return sendJsonPage(req, reply, page, await myArticles(db, brand.id, filter, page));
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
}
