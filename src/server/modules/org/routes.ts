import { z } from 'zod';
import {
  acceptInvitationSchema,
  auditActorSchema,
  auditEntrySchema,
  auditQuerySchema,
  invitationInputSchema,
  invitationPreviewSchema,
  invitationSchema,
  memberChangeSchema,
  memberSchema,
  orgSchema,
  transferOwnershipSchema,
  budgetInputSchema,
  memberLimitsSchema,
  spendSchema,
  purchaseRequestSchema,
  purchaseRequestsQuerySchema,
  declineSchema,
  clientSchema,
  adminOrganisationSchema,
  adminOrganisationItemSchema,
  clientInputSchema,
  clientChangeSchema,
} from '../../../shared/schemas/org';
import { billingDetailsSchema } from '../../../shared/billing';
import { billingDetailsAnswerSchema } from '../../../shared/schemas/responses/payment';
import { addClient, changeClient, clientBilling, CLIENT_NOT_FOUND, listClients, saveClientBilling } from './clients';
import { decidePurchase, listPurchaseRequests, PURCHASE_REQUEST_NOT_FOUND, setBudget, setMemberLimits, spendOf } from './budget';
import { auditActors } from './audit-words';
import { ORG_ROLES } from '../../../shared/org';
import type { Module } from '../../deps';
import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import { pageFrom, sendPage } from '../../lib/paging';
import { forbidden } from '../../lib/errors';
import { fileAnswer, idIn, memberOf, noContent, orgOf, route, userOf } from '../../lib/contract';
import {
  acceptInvitation,
  adminOrganisation,
  adminOrganisations,
  ORGANISATION_NOT_FOUND,
  auditCsv,
  auditPage,
  changeMember,
  decodeAuditCursor,
  invite,
  INVITATION_NOT_FOUND,
  listInvitations,
  listMembers,
  MEMBER_NOT_FOUND,
  orgOfMember,
  previewInvitation,
  removeMember,
  resendInvitation,
  revokeInvitation,
  transferOwnership,
} from './service';

const clientParams = z.object({ id: idIn(CLIENT_NOT_FOUND).describe('the client’s id') });
const memberParams = z.object({ userId: idIn(MEMBER_NOT_FOUND).describe('the member’s user id') });
const invitationParams = z.object({ id: idIn(INVITATION_NOT_FOUND).describe('the invitation’s id') });
// a token is 43 base64url characters; anything else is simply not an invitation (410)
const tokenParams = z.object({ token: z.string().max(200).describe('the token of the invitation’s link') });
const GONE = { 410: 'The invitation has expired, was used or was revoked' };
const NO_ORGANISATION = 'Please complete your profile first';

/** The buyer's organisation (decision 033): the member's own view, the team, invitations, the audit log. */
export const orgModule: Module = async (app, { db, limits }) => {
  route(
    app,
    'GET',
    '/api/org',
    {
      // also before the organisation is approved: its owner sees where it stands (`approved`); every
      // other organisation route waits for the approval (issue 57)
      access: 'any-brand',
      tags: ['Organisation'],
      summary: 'The signed-in member’s organisation and role, approved or not',
      description: '`approved: false` while the editorial team has not approved the organisation; its other routes answer 403 until then.',
      response: { 200: orgSchema },
      errors: { 403: 'A brand that has not completed its profile (no organisation yet)' },
    },
    async (req) => {
      if (!userOf(req).organisationId) throw forbidden('no_organisation', NO_ORGANISATION);
      return orgOfMember(db, memberOf(req));
    },
  );

  route(
    app,
    'GET',
    '/api/org/members',
    { access: 'brand', tags: ['Organisation'], summary: 'The members, the owner first', response: { 200: z.array(memberSchema) } },
    async (req) => listMembers(db, orgOf(req)),
  );

  route(
    app,
    'PATCH',
    '/api/org/members/:userId',
    {
      access: 'brand',
      actsOn: { own: 'a member of the organisation: its service finds it in the caller’s organisation' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Change a member’s role or the clients they are limited to (takes effect on their next request)',
      params: memberParams,
      body: memberChangeSchema,
      response: { 200: memberSchema },
      errors: { 403: 'The owner’s role changes only by a transfer', 422: 'Owners and admins cannot be limited to clients' },
    },
    async (req) => changeMember(db, memberOf(req), req.params.userId, req.body),
  );

  route(
    app,
    'DELETE',
    '/api/org/members/:userId',
    {
      access: 'brand',
      actsOn: { own: 'a member of the organisation: its service finds it in the caller’s organisation' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Remove a member: their sessions end at once; what they bought stays',
      params: memberParams,
      response: { 204: noContent('Removed') },
      errors: { 403: 'The owner cannot be removed' },
    },
    async (req, reply) => {
      await removeMember(db, memberOf(req), req.params.userId);
      return reply.code(204).send();
    },
  );

  route(
    app,
    'POST',
    '/api/org/transfer-ownership',
    {
      access: 'brand',
      can: 'own',
      tags: ['Organisation'],
      summary: 'Make another member the owner (the owner becomes an admin)',
      body: transferOwnershipSchema,
      response: { 200: z.array(memberSchema) },
      errors: { 404: MEMBER_NOT_FOUND, 409: 'You are already the owner' },
    },
    async (req) => transferOwnership(db, memberOf(req), req.body.userId),
  );

  route(
    app,
    'GET',
    '/api/org/invitations',
    {
      access: 'brand',
      can: 'manage',
      tags: ['Organisation'],
      summary: 'The open invitations, newest first',
      response: { 200: z.array(invitationSchema) },
    },
    async (req) => listInvitations(db, orgOf(req)),
  );

  route(
    app,
    'POST',
    '/api/org/invitations',
    {
      access: 'brand',
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Invite someone by e-mail with a role',
      description: `A single-use link to /invite/{token}, valid 7 days. Inviting an address again replaces its open invitation. Roles: ${ORG_ROLES.filter((r) => r !== 'owner').join(', ')}.`,
      body: invitationInputSchema,
      response: { 201: invitationSchema },
      errors: {
        409: 'Already a member here, or of another organisation',
        422: 'Owners and admins cannot be limited to clients',
        429: 'Too many invitation mails from the organisation this hour (LIMIT_INVITATION_MAILS; resends count too); `Retry-After` says when to try again',
      },
    },
    async (req, reply) => reply.code(201).send(await invite(db, limits, memberOf(req), req.body)),
  );

  route(
    app,
    'DELETE',
    '/api/org/invitations/:id',
    {
      access: 'brand',
      actsOn: { own: 'an invitation of the organisation: its service finds it there' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Revoke an invitation: its link answers 410 from now on',
      params: invitationParams,
      response: { 204: noContent('Revoked') },
    },
    async (req, reply) => {
      await revokeInvitation(db, memberOf(req), req.params.id);
      return reply.code(204).send();
    },
  );

  route(
    app,
    'POST',
    '/api/org/invitations/:id/resend',
    {
      access: 'brand',
      actsOn: { own: 'an invitation of the organisation: its service finds it there' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Send a new link (the old one stops working), valid 7 more days',
      params: invitationParams,
      response: { 200: invitationSchema },
      errors: { 429: 'Too many invitation mails from the organisation this hour (LIMIT_INVITATION_MAILS; resends count too); `Retry-After` says when to try again' },
    },
    async (req) => resendInvitation(db, limits, memberOf(req), req.params.id),
  );

  route(
    app,
    'GET',
    '/api/invitations/:token',
    {
      access: 'public',
      tags: ['Organisation'],
      summary: 'What an invitation link offers (before signing in)',
      params: tokenParams,
      response: { 200: invitationPreviewSchema },
      errors: GONE,
    },
    async (req) => previewInvitation(db, req.params.token),
  );

  route(
    app,
    'POST',
    '/api/invitations/:token/accept',
    {
      access: 'user',
      tags: ['Organisation'],
      summary: 'Join the organisation (signed in with the invited e-mail)',
      description: 'An account that has not completed its profile gives its `name` here, and needs no approval when the organisation is approved.',
      params: tokenParams,
      body: acceptInvitationSchema,
      response: { 200: z.object({ organisationId: z.guid(), role: z.enum(ORG_ROLES) }) },
      errors: { ...GONE, 403: 'Signed in with another e-mail, or as an admin', 409: 'Already in an organisation' },
    },
    async (req) => acceptInvitation(db, userOf(req), req.params.token, req.body, req.ip),
  );

  // the editorial team's view of the organisations
  route(
    app,
    'GET',
    '/api/admin/organisations',
    {
      access: 'admin',
      tags: ['Organisation'],
      paged: true,
      summary: 'Every organisation, newest first: its owner, members, clients and placements',
      description: '`q`: a piece of the organisation’s name, or of a member’s name, brand name or e-mail.',
      querystring: adminSearchQuerySchema,
      response: { 200: z.array(adminOrganisationItemSchema) },
    },
    async (req, reply) => {
      const page = pageFrom(req.query);
      const rows = await adminOrganisations(db, page, req.query.q);
      return sendPage(req, reply, page, rows, ({ cursorAt: _c, ownerName, ownerEmail, createdAt, ...r }) => ({
        ...r,
        createdAt: createdAt.toISOString(),
        owner: ownerEmail ? { name: ownerName, email: ownerEmail } : null,
      }));
    },
  );

  route(
    app,
    'GET',
    '/api/admin/organisations/:id',
    {
      access: 'admin',
      tags: ['Organisation'],
      summary: 'An organisation: its members, clients and spend',
      params: z.object({ id: idIn(ORGANISATION_NOT_FOUND).describe('the organisation’s id') }),
      response: { 200: adminOrganisationSchema },
    },
    async (req) => adminOrganisation(db, req.params.id),
  );

  // clients (decision 035)
  route(
    app,
    'GET',
    '/api/org/clients/names',
    {
      access: 'brand',
      clientReview: true,
      tags: ['Organisation'],
      summary: 'The clients’ names only (a member limited to clients: theirs), for pickers such as a report’s',
      description: 'What a client reviewer, who sees no amount, may read of the clients: `GET /api/org/clients` adds their spend.',
      response: { 200: z.array(z.object({ id: z.guid(), name: z.string() })) },
    },
    async (req) => (await listClients(db, memberOf(req))).map(({ id, name }) => ({ id, name })),
  );

  route(
    app,
    'GET',
    '/api/org/clients',
    {
      access: 'brand',
      tags: ['Organisation'],
      summary: 'The organisation’s clients by name (a member limited to clients: theirs), with this month’s spend',
      response: { 200: z.array(clientSchema) },
    },
    async (req) => listClients(db, memberOf(req)),
  );

  route(
    app,
    'POST',
    '/api/org/clients',
    {
      access: 'brand',
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Add a client',
      body: clientInputSchema,
      response: { 201: clientSchema },
      errors: { 409: 'A client of that name exists already' },
    },
    async (req, reply) => reply.code(201).send(await addClient(db, memberOf(req), req.body)),
  );

  route(
    app,
    'PATCH',
    '/api/org/clients/:id',
    {
      access: 'brand',
      actsOn: { own: 'a client of the organisation: its service finds it among the member’s clients' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Rename a client, set its monthly cap (null: none) or its websites (what its placements must link to)',
      params: clientParams,
      body: clientChangeSchema,
      response: { 200: clientSchema },
      errors: { 409: 'A client of that name exists already' },
    },
    async (req) => changeClient(db, memberOf(req), req.params.id, req.body),
  );

  route(
    app,
    'GET',
    '/api/org/clients/:id/billing',
    {
      access: 'brand',
      actsOn: { own: 'a client of the organisation: its service finds it among the member’s clients' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'A client’s billing details (what its invoices are addressed to)',
      params: clientParams,
      response: { 200: billingDetailsAnswerSchema },
    },
    async (req) => clientBilling(db, memberOf(req), req.params.id),
  );

  route(
    app,
    'PUT',
    '/api/org/clients/:id/billing',
    {
      access: 'brand',
      actsOn: { own: 'a client of the organisation: its service finds it among the member’s clients' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Save a client’s billing details',
      description: 'Invoices already issued keep the details they were issued with.',
      params: clientParams,
      body: billingDetailsSchema,
      response: { 200: billingDetailsAnswerSchema },
    },
    async (req) => saveClientBilling(db, memberOf(req), req.params.id, req.body),
  );

  // budgets and purchase approval (decision 034)
  route(
    app,
    'GET',
    '/api/org/spend',
    {
      access: 'brand',
      tags: ['Organisation'],
      summary: 'This month’s spend (UTC) against the caps: the organisation’s and the member’s own',
      response: { 200: spendSchema },
    },
    async (req) => spendOf(db, memberOf(req)),
  );

  route(
    app,
    'PUT',
    '/api/org/budget',
    {
      access: 'brand',
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Set the organisation’s monthly cap (null: none)',
      body: budgetInputSchema,
      response: { 200: spendSchema },
    },
    async (req) => setBudget(db, memberOf(req), req.body.monthlyCapUsd),
  );

  route(
    app,
    'PUT',
    '/api/org/members/:userId/limits',
    {
      access: 'brand',
      actsOn: { own: 'a member of the organisation: its service finds it in the caller’s organisation' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Set a member’s monthly cap and approval threshold (null: none)',
      description: 'Never one’s own nor the owner’s; an admin’s only by the owner.',
      params: memberParams,
      body: memberLimitsSchema,
      response: { 204: noContent('Saved') },
      errors: { 403: 'One’s own limits, the owner’s, or an admin’s set by another admin' },
    },
    async (req, reply) => {
      await setMemberLimits(db, memberOf(req), req.params.userId, req.body);
      return reply.code(204).send();
    },
  );

  route(
    app,
    'GET',
    '/api/org/purchase-requests',
    {
      access: 'brand',
      tags: ['Organisation'],
      summary: 'Purchase requests, newest first: every one for owners and admins, one’s own for the others',
      querystring: purchaseRequestsQuerySchema,
      response: { 200: z.array(purchaseRequestSchema) },
    },
    async (req) => listPurchaseRequests(db, memberOf(req), req.query.status),
  );

  const requestParams = z.object({ id: idIn(PURCHASE_REQUEST_NOT_FOUND).describe('the request’s id') });
  route(
    app,
    'POST',
    '/api/org/purchase-requests/:id/approve',
    {
      access: 'brand',
      actsOn: { own: 'a purchase request: its service finds it in the organisation and the approver’s limits' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Approve a purchase request (not one’s own): the requester can then pay it',
      params: requestParams,
      response: { 200: purchaseRequestSchema },
      errors: { 403: 'One’s own request', 409: 'Already decided, or expired' },
    },
    async (req) => decidePurchase(db, memberOf(req), req.params.id, { approve: true }),
  );

  route(
    app,
    'POST',
    '/api/org/purchase-requests/:id/decline',
    {
      access: 'brand',
      actsOn: { own: 'a purchase request: its service finds it in the organisation and the approver’s limits' },
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Decline a purchase request with a reason (not one’s own)',
      params: requestParams,
      body: declineSchema,
      response: { 200: purchaseRequestSchema },
      errors: { 403: 'One’s own request', 409: 'Already decided, or expired' },
    },
    async (req) => decidePurchase(db, memberOf(req), req.params.id, { approve: false, reason: req.body.reason }),
  );

  route(
    app,
    'GET',
    '/api/org/audit',
    {
      access: 'brand',
      can: 'manage',
      tags: ['Organisation'],
      paged: true,
      summary: 'The audit log, newest first: who changed what, when, from which address',
      querystring: auditQuerySchema,
      response: { 200: z.array(auditEntrySchema) },
    },
    async (req, reply) => {
      const { limit, cursor, ...filters } = req.query;
      const rows = await auditPage(db, orgOf(req), filters, limit, decodeAuditCursor(cursor));
      const items = rows.slice(0, limit);
      if (rows.length > limit) {
        const url = new URL(req.url, 'http://x');
        url.searchParams.set('limit', String(limit));
        url.searchParams.set('cursor', items[items.length - 1].id);
        void reply.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
      }
      return items;
    },
  );

  route(
    app,
    'GET',
    '/api/org/audit/actors',
    {
      access: 'brand',
      can: 'manage',
      tags: ['Organisation'],
      summary: 'Everyone with entries in the audit log, members first, then those no longer members (the log’s Member filter)',
      response: { 200: z.array(auditActorSchema) },
    },
    async (req) => auditActors(db, orgOf(req)),
  );

  route(
    app,
    'GET',
    '/api/org/audit.csv',
    {
      access: 'brand',
      can: 'manage',
      tags: ['Organisation'],
      summary: 'The audit log as CSV (the same filters)',
      querystring: auditQuerySchema,
      response: { 200: fileAnswer(['text/csv'], 'One row per entry, as an attachment') },
    },
    async (req, reply) => {
      const csv = await auditCsv(db, orgOf(req), req.query);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('Cache-Control', 'private, no-store')
        .send(csv);
    },
  );
};
