import { createInviteCodeSchema } from '../../../shared/schemas/invite-code';
import type { Module } from '../../deps';
import { notFound } from '../../lib/errors';
import { pageOf, sendPage } from '../../lib/paging';
import { idParam } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { requireAdmin } from '../auth/guards';
import { createInviteCode, listInviteCodes, setInviteCodeActive, toInviteCode } from './service';

/** Invite codes: a valid one approves a brand at profile completion. */
export const inviteCodesModule: Module = async (app, { db }) => {
  app.get('/api/admin/invite-codes', async (req, reply) => {
    requireAdmin(req);
    const page = pageOf(req);
    return sendPage(req, reply, page, await listInviteCodes(db, page), (r) => toInviteCode(r.row));
  });

  app.post('/api/admin/invite-codes', async (req, reply) => {
    const admin = requireAdmin(req);
    const { code } = parse(createInviteCodeSchema, req.body);
    return reply.code(201).send(await createInviteCode(db, code, admin.id));
  });

  app.post('/api/admin/invite-codes/:id/deactivate', async (req) => {
    requireAdmin(req);
    const code = await setInviteCodeActive(db, idParam(req, 'id', 'Invite code not found'), false);
    if (!code) throw notFound('Invite code not found');
    return code;
  });

  // not in the spec (codes there are never reactivated): issue 20 asks for a way back from a
  // mistaken Deactivate
  app.post('/api/admin/invite-codes/:id/activate', async (req) => {
    requireAdmin(req);
    const code = await setInviteCodeActive(db, idParam(req, 'id', 'Invite code not found'), true);
    if (!code) throw notFound('Invite code not found');
    return code;
  });
};
