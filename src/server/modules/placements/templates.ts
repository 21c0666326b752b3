import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefTemplates } from '../../db/schema';
import { badRequest, notFound, conflict } from '../../lib/errors';
import type { Member } from '../../lib/contract';
import { isUuid } from '../../lib/route-params';
import { PAYMENT_NOT_FOUND, reachableClientOf } from '../../db/payment-access';
import { BRIEF_TEMPLATES_MAX, compact, type BriefTemplate } from '../../../shared/schemas/brief';
import type { BriefPart1, BriefPart2 } from '../../../shared/schemas/brief-parts';

/**
 * Brief templates (issue 46), kept apart per client (issue 57): a template belongs to the client of
 * the placement it was saved from, or to the organisation for a placement bought for no client. A
 * placement starts only from its own client's (or the organisation's own); a member limited to
 * clients sees only its clients' templates, and any other is as missing as one that never was.
 */

export const TEMPLATE_NOT_FOUND = 'Brief template not found';

/** The templates a member may see: every one of its organisation's, or only its clients' when it is limited. */
const visible = (member: Member) =>
  and(
    eq(briefTemplates.organisationId, member.organisationId),
    member.clientIds === null ? undefined : member.clientIds.length ? inArray(briefTemplates.clientId, member.clientIds) : sql`false`,
  );

/** The templates of one owner: a client's, or (null) the organisation's own. */
const ownedBy = (clientId: string | null) => (clientId === null ? isNull(briefTemplates.clientId) : eq(briefTemplates.clientId, clientId));

/** The client of a placement the member may reach, whose templates it uses; 404 for any other. */
async function clientOfPlacement(db: Db, member: Member, paymentId: string): Promise<string | null> {
  const found = isUuid(paymentId) ? await reachableClientOf(db, paymentId, member) : undefined;
  if (!found) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  return found.clientId;
}

const templateAnswer = (t: typeof briefTemplates.$inferSelect): BriefTemplate => ({
  id: t.id,
  name: t.name,
  clientId: t.clientId,
  part1Json: t.part1Json,
  part2Json: t.part2Json,
  createdAt: t.createdAt.toISOString(),
});

/**
 * GET /api/brand/brief-templates: with `paymentId`, those a brief of that placement may start from
 * (its client's, or the organisation's own); without, every one the member may see. By name.
 */
export async function listBriefTemplates(db: Db, member: Member, paymentId?: string) {
  const owner = paymentId === undefined ? undefined : ownedBy(await clientOfPlacement(db, member, paymentId));
  const rows = await db
    .select()
    .from(briefTemplates)
    .where(and(visible(member), owner))
    .orderBy(sql`lower(${briefTemplates.name})`, asc(briefTemplates.id));
  return rows.map(templateAnswer);
}

/** GET /api/brand/brief-templates/{id} */
export async function getBriefTemplate(db: Db, member: Member, id: string) {
  const [row] = await db
    .select()
    .from(briefTemplates)
    .where(and(eq(briefTemplates.id, id), visible(member)));
  if (!row) throw notFound('brief_template_not_found', TEMPLATE_NOT_FOUND);
  return templateAnswer(row);
}

/**
 * POST /api/brand/brief-templates: the client's of the placement named (or the organisation's,
 * without one: a member limited to clients must name one of its clients' placements). 409 for a
 * name its owner has, or beyond BRIEF_TEMPLATES_MAX of that owner's.
 */
export async function saveBriefTemplate(
  db: Db,
  member: Member,
  input: { name: string; paymentId?: string; part1Json: BriefPart1; part2Json: BriefPart2 },
) {
  if (input.paymentId === undefined && member.clientIds !== null) {
    throw badRequest('template_source_not_client', 'Save the template from one of your client’s placements', { paymentId: 'Save the template from one of your client’s placements' });
  }
  const clientId = input.paymentId === undefined ? null : await clientOfPlacement(db, member, input.paymentId);
  const count = await db.$count(briefTemplates, and(eq(briefTemplates.organisationId, member.organisationId), ownedBy(clientId)));
  if (count >= BRIEF_TEMPLATES_MAX) {
    throw conflict('too_many_templates', `${clientId === null ? 'Your organisation' : 'This client'} has ${BRIEF_TEMPLATES_MAX} brief templates: delete one first`);
  }
  const [row] = await db
    .insert(briefTemplates)
    .values({
      organisationId: member.organisationId,
      clientId,
      createdBy: member.userId,
      name: input.name,
      part1Json: compact(input.part1Json),
      part2Json: compact(input.part2Json),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict('template_name_taken', 'A brief template of that name exists already');
  return templateAnswer(row);
}

/** DELETE /api/brand/brief-templates/{id} */
export async function deleteBriefTemplate(db: Db, member: Member, id: string) {
  const [gone] = await db
    .delete(briefTemplates)
    .where(and(eq(briefTemplates.id, id), visible(member)))
    .returning({ id: briefTemplates.id });
  if (!gone) throw notFound('brief_template_not_found', TEMPLATE_NOT_FOUND);
}
