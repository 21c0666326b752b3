import { z } from 'zod';
import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import { pendingBrandSchema, userAnswerSchema } from '../../../shared/schemas/responses/account';
import type { Module } from '../../deps';
import { idIn, route } from '../../lib/contract';
import { notFound } from '../../lib/errors';
import { pageFrom, sendPage } from '../../lib/paging';
import { toPublicUser } from '../auth/users';
import { approveBrand, pendingBrands } from './service';

const brandParams = z.object({ id: idIn('Brand not found').describe('the brand’s user id') });

/** Brand approvals: the brands waiting, and approving one. */
export const approvalsModule: Module = async (app, { db }) => {
  route(
    app,
    'GET',
    '/api/admin/pending-brands',
    {
      access: 'admin',
      tags: ['Brands'],
      spec: true,
      paged: true,
      summary: 'Brands waiting for approval, the longest waiting first',
      querystring: adminSearchQuerySchema,
      response: { 200: z.array(pendingBrandSchema) },
    },
    async (req, reply) => {
      const page = pageFrom(req.query);
      const rows = await pendingBrands(db, page, req.query.q);
      return sendPage(req, reply, page, rows, ({ cursorAt: _c, ...r }) => ({ ...r, createdAt: r.createdAt.toISOString() }));
    },
  );

  route(
    app,
    'POST',
    '/api/admin/approve-brand/:id',
    {
      access: 'admin',
      tags: ['Brands'],
      spec: true,
      summary: 'Approve a brand',
      params: brandParams,
      response: { 200: userAnswerSchema },
    },
    async (req) => {
      const updated = await approveBrand(db, req.params.id);
      if (!updated) throw notFound('brand_not_found', 'Brand not found');
      return toPublicUser(updated);
    },
  );
};
