import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { PART1, PART2, briefRow, purchase } from '../support/content';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const brand = () => signedIn(t.app, t.db, kinds.approvedBrand);

describe('brief versions: a save based on an older copy is refused, never silently overwrites', () => {
  it('GET answers a version; a save on the current version stores and answers the next one', async () => {
    const a = await brand();
    const p = await purchase(t.db, a.user.id);
    const url = `/api/brand/brief/${p.id}`;

    const empty = await a.agent.get(url);
    expect(empty.body).toMatchObject({ source: 'empty', version: expect.any(String) });

    const first = await a.agent.post(url, {
      part1Json: { personOrBrandName: 'Tab one' },
      baseVersion: empty.body.version,
    });
    expect(first.status).toBe(200);
    expect(first.body.version).toEqual(expect.any(String));
    expect(first.body.version).not.toBe(empty.body.version);
    // GET answers the version the save made
    expect((await a.agent.get(url)).body).toMatchObject({
      source: 'saved',
      version: first.body.version,
      part1Json: { personOrBrandName: 'Tab one' },
    });

    const second = await a.agent.post(url, {
      part1Json: { personOrBrandName: 'Tab one', inspiration: 'More' },
      baseVersion: first.body.version,
    });
    expect(second.status).toBe(200);
    expect(second.body.version).not.toBe(first.body.version);
    expect((await briefRow(t.db, p.id)).part1Json).toEqual({ personOrBrandName: 'Tab one', inspiration: 'More' });
  });

  it('a save on a stale version is 409 with the stored brief and changes nothing', async () => {
    const a = await brand();
    const p = await purchase(t.db, a.user.id);
    const url = `/api/brand/brief/${p.id}`;
    const opened = (await a.agent.get(url)).body.version; // tab 2 opens the empty brief

    // tab 1 saves the name
    const tab1 = await a.agent.post(url, { part1Json: { personOrBrandName: 'From tab one' }, baseVersion: opened });
    expect(tab1.status).toBe(200);
    const before = await briefRow(t.db, p.id);

    // tab 2, still on the version it opened, saves the background
    const tab2 = await a.agent.post(url, { part1Json: { backgroundExperience: 'From tab two' }, baseVersion: opened });
    expect(tab2.status).toBe(409);
    expect(tab2.body).toEqual({
      message: 'This brief was changed in another window since you opened it',
      code: 'stale_copy',
      current: {
        part1Json: { personOrBrandName: 'From tab one' },
        part2Json: {},
        source: 'saved',
        submittedAt: null,
        version: tab1.body.version,
      },
    });
    expect(await briefRow(t.db, p.id)).toEqual(before);

    // a submit on the stale version is refused the same way
    const submit = await a.agent.post(`${url}/submit`, { part1Json: PART1, part2Json: PART2, baseVersion: opened });
    expect(submit.status).toBe(409);
    expect(submit.body.current.version).toBe(tab1.body.version);
    expect(await briefRow(t.db, p.id)).toEqual(before);

    // merged on the current version, it is stored
    const merged = await a.agent.post(url, {
      part1Json: { personOrBrandName: 'From tab one', backgroundExperience: 'From tab two' },
      baseVersion: tab2.body.current.version,
    });
    expect(merged.status).toBe(200);
    expect((await briefRow(t.db, p.id)).part1Json).toEqual({
      personOrBrandName: 'From tab one',
      backgroundExperience: 'From tab two',
    });
    const done = await a.agent.post(`${url}/submit`, {
      part1Json: PART1,
      part2Json: PART2,
      baseVersion: merged.body.version,
    });
    expect(done.status).toBe(200);
    expect((await briefRow(t.db, p.id)).submittedAt).not.toBeNull();
  });

  it('a save without baseVersion (the spec’s body) works as before, and a stale version of a pre-filled brief is refused', async () => {
    const a = await brand();
    const first = await purchase(t.db, a.user.id);
    await a.agent.post(`/api/brand/brief/${first.id}/submit`, { part1Json: PART1, part2Json: PART2 });
    const p = await purchase(t.db, a.user.id);
    const url = `/api/brand/brief/${p.id}`;
    const fallback = (await a.agent.get(url)).body;
    expect(fallback).toMatchObject({ source: 'fallback', version: expect.any(String) });

    const plain = await a.agent.post(url, { part1Json: { personOrBrandName: 'No version' } });
    expect(plain.status).toBe(200);
    const again = await a.agent.post(url, { part2Json: { mainGoal: 'Still no version' } });
    expect(again.status).toBe(200);
    expect(await briefRow(t.db, p.id)).toMatchObject({
      part1Json: { personOrBrandName: 'No version' },
      part2Json: { mainGoal: 'Still no version' },
    });

    // the version the pre-filled form was opened on is stale once a brief is stored
    const stale = await a.agent.post(url, { part1Json: PART1, baseVersion: fallback.version });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ source: 'saved', part1Json: { personOrBrandName: 'No version' } });
  });

  it('a bad baseVersion is a 400 naming the field; another brand’s brief is still a 404', async () => {
    const a = await brand();
    const p = await purchase(t.db, a.user.id);
    const bad = await a.agent.post(`/api/brand/brief/${p.id}`, { part1Json: {}, baseVersion: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ baseVersion: 'baseVersion must be text' });

    const b = await brand();
    const theirs = await b.agent.post(`/api/brand/brief/${p.id}`, {
      part1Json: { personOrBrandName: 'x' },
      baseVersion: 'new',
    });
    expect(theirs.status).toBe(404);
    expect(await briefRow(t.db, p.id)).toBeUndefined();
  });
});
