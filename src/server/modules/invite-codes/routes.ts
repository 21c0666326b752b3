import { z } from 'zod';
import { createInviteCodeSchema } from '../../../shared/schemas/invite-code';
import { inviteCodeSchema } from '../../../shared/schemas/responses/account';
import type { Module } from '../../deps';
import { idIn, route, userOf } from '../../lib/contract';
import { notFound } from '../../lib/errors';
import { pageFrom, sendPage } from '../../lib/paging';
import { createInviteCode, listInviteCodes, setInviteCodeActive, toInviteCode } from './service';

const codeParams = z.object({ id: idIn('Invite code not found').describe('the invite code’s id') });

/** Invite codes: a valid one approves a brand at profile completion. */
export const inviteCodesModule: Module = async (app, { db }) => {
  route(
    app,
    'GET',
    '/api/admin/invite-codes',
    {
      access: 'admin',
      tags: ['Brands'],
      spec: true,
      paged: true,
      summary: 'Invite codes, newest first',
      response: { 200: z.array(inviteCodeSchema) },
    },
    async (req, reply) => {
      const page = pageFrom(req.query);
      return sendPage(req, reply, page, await listInviteCodes(db, page), (r) => toInviteCode(r.row));
    },
  );

  route(
    app,
    'POST',
    '/api/admin/invite-codes',
    {
      access: 'admin',
      tags: ['Brands'],
      spec: true,
      summary: 'Create an invite code (stored upper case)',
      body: createInviteCodeSchema,
      response: { 201: inviteCodeSchema },
      errors: { 409: 'The invite code already exists' },
    },
    async (req, reply) => reply.code(201).send(await createInviteCode(db, req.body.code, userOf(req).id)),
  );

  route(
    app,
    'POST',
    '/api/admin/invite-codes/:id/deactivate',
    {
      access: 'admin',
      tags: ['Brands'],
      spec: true,
      summary: 'Deactivate an invite code',
      params: codeParams,
      response: { 200: inviteCodeSchema },
    },
    async (req) => {
      const code = await setInviteCodeActive(db, req.params.id, false);
      if (!code) throw notFound('invite_code_not_found', 'Invite code not found');
      return code;
    },
  );

  // not in the spec (codes there are never reactivated): issue 20 asks for a way back from a
  // mistaken Deactivate
  route(
    app,
    'POST',
    '/api/admin/invite-codes/:id/activate',
    {
      access: 'admin',
      tags: ['Brands'],
      summary: 'Activate an invite code again',
      params: codeParams,
      response: { 200: inviteCodeSchema },
    },
    async (req) => {
      const code = await setInviteCodeActive(db, req.params.id, true);
      if (!code) throw notFound('invite_code_not_found', 'Invite code not found');
      return code;
    },
  );
};
