import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import type { PendingBrand } from '../../../shared/schemas/invite-code';
import type { Module } from '../../deps';
import { notFound } from '../../lib/errors';
import { pageOf, sendPage } from '../../lib/paging';
import { idParam } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { requireAdmin } from '../auth/guards';
import { toPublicUser } from '../auth/users';
import { approveBrand, pendingBrands } from './service';

/** Brand approvals: the brands waiting, and approving one. */
export const approvalsModule: Module = async (app, { db }) => {
  app.get('/api/admin/pending-brands', async (req, reply): Promise<PendingBrand[]> => {
    requireAdmin(req);
    const { q } = parse(adminSearchQuerySchema, req.query);
    const page = pageOf(req);
    const rows = await pendingBrands(db, page, q);
    return sendPage(req, reply, page, rows, ({ cursorAt: _c, ...r }) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  });

  app.post('/api/admin/approve-brand/:id', async (req) => {
    requireAdmin(req);
    const updated = await approveBrand(db, idParam(req, 'id', 'Brand not found'));
    if (!updated) throw notFound('Brand not found');
    return toPublicUser(updated);
  });
};
