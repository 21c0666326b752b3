/**
 * An editor per placement (issue 59): an admin assigns a placement to one admin of the team (or to
 * nobody), the first admin who acts on an unassigned placement takes it, and Admin Projects' "Mine"
 * (with its counts) lists an admin's own. Admins only; a brand never sees who edits it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placements } from '../../src/server/db/schema';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment, PART1, PART2 } from '../support/content';

let t: TestApp;
let ada: Agent;
let adaId: string;
let ben: Agent;
let benId: string;
let brand: Agent;
let brandId: string;
let opportunityId: string;

type Item = { payment: { id: string }; assignee: { id: string; name: string } | null };

beforeAll(async () => {
  t = await createTestApp();
  const a = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Ada Editor' });
  [ada, adaId] = [a.agent, a.user.id];
  const b = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Ben Editor' });
  [ben, benId] = [b.agent, b.user.id];
  const o = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Editor Test Co' });
  [brand, brandId] = [o.agent, o.user.id];
  opportunityId = (await createOpportunity(t.db, { title: 'Edited with care', maxSlots: 20 })).id;
});
afterAll(() => t.close());

const buy = async () => (await createPayment(t.db, { brandId, opportunityId })).id;
const project = async (agent: Agent, id: string) => {
  const res = await agent.get<Item>(`/api/admin/projects/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const mine = async (agent: Agent) => {
  const res = await agent.get<Item[]>('/api/admin/projects?mine=true&limit=100');
  expect(res.status, res.text).toBe(200);
  return res.body.map((i) => i.payment.id);
};

describe('a placement’s editor', () => {
  it('lists the editorial team to choose from', async () => {
    const res = await ada.get<{ id: string; name: string }[]>('/api/admin/team');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.arrayContaining([{ id: adaId, name: 'Ada Editor' }, { id: benId, name: 'Ben Editor' }]));
    // brands are no one's editor
    expect(res.body.map((a) => a.id)).not.toContain(brandId);
    expect((await brand.get('/api/admin/team')).status).toBe(403);
  });

  it('is assigned, changed and removed by an admin; Mine and its counts follow', async () => {
    const id = await buy();
    expect((await project(ada, id)).assignee).toBeNull();
    expect(await mine(ben)).not.toContain(id);

    const given = await ada.put<{ assignee: unknown }>(`/api/admin/placements/${id}/assignee`, { adminId: benId });
    expect(given.status, given.text).toBe(200);
    expect(given.body).toEqual({ assignee: { id: benId, name: 'Ben Editor' } });
    expect((await project(ada, id)).assignee).toEqual({ id: benId, name: 'Ben Editor' });
    expect(await mine(ben)).toContain(id);
    expect(await mine(ada)).not.toContain(id);
    // the awaiting tab's count of Ben's own counts it, Ada's does not
    const counts = async (agent: Agent) => (await agent.get<{ awaiting: number }>('/api/admin/projects/counts?mine=true')).body.awaiting;
    const [benBefore, adaBefore] = [await counts(ben), await counts(ada)];
    expect(benBefore).toBeGreaterThanOrEqual(1);
    await ada.put(`/api/admin/placements/${id}/assignee`, { adminId: adaId });
    expect(await counts(ben)).toBe(benBefore - 1);
    expect(await counts(ada)).toBe(adaBefore + 1);

    const removed = await ben.put(`/api/admin/placements/${id}/assignee`, { adminId: null });
    expect(removed.body).toEqual({ assignee: null });
    const [row] = await t.db.select({ assigneeId: placements.assigneeId }).from(placements).where(eq(placements.id, id));
    expect(row.assigneeId).toBeNull();
  });

  it('refuses what is not an admin or not a placement, changing nothing', async () => {
    const id = await buy();
    await ada.put(`/api/admin/placements/${id}/assignee`, { adminId: adaId });
    const brandAsEditor = await ada.put<{ message: string; code: string }>(`/api/admin/placements/${id}/assignee`, { adminId: brandId });
    expect(brandAsEditor.status).toBe(400);
    expect(brandAsEditor.body).toMatchObject({ code: 'not_an_admin', message: 'Choose an admin of the editorial team' });
    expect((await ada.put(`/api/admin/placements/${id}/assignee`, { adminId: 'nope' })).status).toBe(400);
    expect((await ada.put(`/api/admin/placements/${id}/assignee`, {})).status).toBe(400);
    expect((await ada.put(`/api/admin/placements/${crypto.randomUUID()}/assignee`, { adminId: adaId })).status).toBe(404);
    // a brand may not assign, not even its own placement
    expect((await brand.put(`/api/admin/placements/${id}/assignee`, { adminId: adaId })).status).toBe(403);
    expect((await project(ada, id)).assignee).toEqual({ id: adaId, name: 'Ada Editor' });
    expect(await mine(ada)).toContain(id);
  });

  it('goes to the first admin who acts on an unassigned placement, and stays with an assigned one', async () => {
    const id = await buy();
    const brief = await brand.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 });
    expect(brief.status, brief.text).toBeLessThan(300);
    // the brand's move takes no editor
    expect((await project(ada, id)).assignee).toBeNull();
    const started = await ben.post(`/api/admin/placements/${id}/writing-started`, {});
    expect(started.status, started.text).toBe(200);
    expect((await project(ada, id)).assignee).toEqual({ id: benId, name: 'Ben Editor' });
    // Ada's later move leaves Ben its editor
    const attached = await ada.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.test/d/1' });
    expect(attached.status, attached.text).toBeLessThan(300);
    expect((await project(ada, id)).assignee?.id).toBe(benId);
  });
});
