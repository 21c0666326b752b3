/**
 * Issue 57, "Security (medium and low)" and "Where the API departs from the earlier issue texts":
 * each item's refusal or record, as an outside caller meets it.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, users } from '../../src/server/db/schema';
import { ORG_ROLES, type OrgRole } from '../../src/shared/org';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Signed = Awaited<ReturnType<typeof signedIn>>;

/** An owner's organisation with one signed-in member of every other role (and a second admin). */
async function team() {
  const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
  const orgId = owner.user.organisationId!;
  const members = { owner } as Record<OrgRole, Signed>;
  for (const role of ORG_ROLES.filter((r) => r !== 'owner')) {
    members[role] = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `The ${role}`, organisationId: orgId, orgRole: role });
  }
  const admin2 = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Second admin', organisationId: orgId, orgRole: 'admin' });
  return { orgId, members, admin2 };
}

const limitsOf = async (userId: string) => {
  const [row] = await t.db
    .select({ cap: users.monthlyCapUsd, threshold: users.approvalThresholdUsd })
    .from(users)
    .where(eq(users.id, userId));
  return row;
};

const setLimits = (agent: Agent, userId: string, cap: string | null, threshold: string | null) =>
  agent.put(`/api/org/members/${userId}/limits`, { monthlyCapUsd: cap, approvalThresholdUsd: threshold });

describe('member limits: set by someone above the member (issue 57)', () => {
  it('nobody changes their own limits or the owner’s, and only the owner changes an admin’s: 403, nothing changes', async () => {
    const { orgId, members, admin2 } = await team();
    const { owner, admin, buyer } = members;
    // the owner caps the admin and the buyer
    expect((await setLimits(owner.agent, admin.user.id, '500', '100')).status).toBe(204);
    expect((await setLimits(owner.agent, buyer.user.id, '300', null)).status).toBe(204);
    const auditBefore = await t.db.$count(auditEntries, and(eq(auditEntries.organisationId, orgId), eq(auditEntries.action, 'limits_changed')));

    const refusals: [Agent, string, string][] = [
      // an admin clears its own cap and threshold
      [admin.agent, admin.user.id, 'You cannot change your own limits'],
      // the owner's own, too
      [owner.agent, owner.user.id, 'You cannot change your own limits'],
      // an admin limits the owner
      [admin.agent, owner.user.id, 'The owner’s limits cannot be changed'],
      // an admin lifts another admin's
      [admin2.agent, admin.user.id, 'Only the owner can change an admin’s limits'],
    ];
    for (const [agent, target, message] of refusals) {
      const before = await limitsOf(target);
      const res = await setLimits(agent, target, null, '1');
      expect(res.status, res.text).toBe(403);
      expect(res.body.message).toBe(message);
      expect(await limitsOf(target)).toEqual(before);
    }
    expect(await limitsOf(admin.user.id)).toEqual({ cap: '500.00', threshold: '100.00' });
    expect(await limitsOf(owner.user.id)).toEqual({ cap: null, threshold: null });
    expect(await t.db.$count(auditEntries, and(eq(auditEntries.organisationId, orgId), eq(auditEntries.action, 'limits_changed')))).toBe(auditBefore);

    // what stays allowed: an admin sets a buyer's; the owner lifts an admin's
    expect((await setLimits(admin.agent, buyer.user.id, null, '50')).status).toBe(204);
    expect(await limitsOf(buyer.user.id)).toEqual({ cap: null, threshold: '50.00' });
    expect((await setLimits(owner.agent, admin.user.id, null, null)).status).toBe(204);
    expect(await limitsOf(admin.user.id)).toEqual({ cap: null, threshold: null });
  });
});
