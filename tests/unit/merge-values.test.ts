import { describe, expect, it } from 'vitest';
import { mergeValues } from '../../src/client/lib/merge-values';

/** The opportunity and profile forms' merge after a 409 (decision 019). */
describe('mergeValues: a form combined with the newer copy it was refused for', () => {
  const base = { title: 'Old title', price: '900.00', topics: ['travel'], tat: '2 weeks' };

  it('takes what only the newer copy changed, keeps what only this form changed', () => {
    const mine = { ...base, price: '1100.00' };
    const theirs = { ...base, title: 'Renamed', topics: ['travel', 'food'] };
    expect(mergeValues(base, mine, theirs)).toEqual({
      values: { title: 'Renamed', price: '1100.00', topics: ['travel', 'food'], tat: '2 weeks' },
      fromTheirs: ['title', 'topics'],
      fromMine: ['price'],
      both: [],
    });
  });

  it('a field both changed differently keeps this form’s value and is listed; the same change is no conflict', () => {
    const mine = { ...base, tat: '10 days', title: 'Same new title' };
    const theirs = { ...base, tat: '3 weeks', title: 'Same new title ' };
    const merge = mergeValues(base, mine, theirs);
    expect(merge.values).toEqual(mine);
    expect(merge.both).toEqual(['tat']);
    // trailing spaces are not a difference (the server trims what it stores)
    expect(merge.fromMine).toEqual(['title']);
    expect(merge.fromTheirs).toEqual([]);
  });

  it('nothing changed anywhere: nothing listed', () => {
    expect(mergeValues(base, { ...base }, { ...base })).toEqual({ values: base, fromTheirs: [], fromMine: [], both: [] });
  });
});
