import { describe, expect, it } from 'vitest';
import { mergeFields } from '../../src/client/features/placements/components/brief/three-way-merge';

const FIELDS = [
  'personOrBrandName',
  'preferredTitle',
  'backgroundExperience',
  'inspiration',
  'careerHighlights',
  'mainGoal',
  'seoKeywords',
];
const values = (v: Record<string, string>) => Object.fromEntries(FIELDS.map((f) => [f, v[f] ?? '']));
const mergeBrief = (base: Record<string, string>, mine: Record<string, string>, theirs: Record<string, string>) =>
  mergeFields(FIELDS, base, mine, theirs);

describe('mergeFields (the brief merge): field by field, nothing dropped without a choice', () => {
  it('takes what only the newer copy changed, keeps what only this window changed, asks where both did', () => {
    const base = values({ personOrBrandName: 'Old name', preferredTitle: 'Old title', mainGoal: 'Goal' });
    const mine = values({
      personOrBrandName: 'Old name',
      preferredTitle: 'My title',
      backgroundExperience: 'My background',
      mainGoal: 'Goal',
    });
    const theirs = values({ personOrBrandName: 'Their name', preferredTitle: 'Their title', mainGoal: 'Goal' });
    const merge = mergeBrief(base, mine, theirs);
    expect(merge.fromTheirs).toEqual(['personOrBrandName']);
    expect(merge.fromMine).toEqual(['backgroundExperience']);
    expect(merge.conflicts).toEqual([{ field: 'preferredTitle', mine: 'My title', theirs: 'Their title' }]);
    expect(merge.values).toMatchObject({
      personOrBrandName: 'Their name',
      backgroundExperience: 'My background',
      mainGoal: 'Goal',
      seoKeywords: '',
    });
  });

  it('the same change on both sides, or only spaces the server trimmed, is no conflict', () => {
    const base = values({ personOrBrandName: 'Acme' });
    const mine = values({ personOrBrandName: 'Acme ', inspiration: 'Same' });
    const theirs = values({ personOrBrandName: 'Acme', inspiration: 'Same' });
    const merge = mergeBrief(base, mine, theirs);
    expect(merge.conflicts).toEqual([]);
    expect(merge.fromTheirs).toEqual([]);
    expect(merge.fromMine).toEqual([]);
    expect(merge.values.inspiration).toBe('Same');
  });

  it('a field one side emptied counts as a change', () => {
    const base = values({ careerHighlights: 'Award' });
    const merge = mergeBrief(base, values({}), values({ careerHighlights: 'Award, and another' }));
    expect(merge.conflicts).toEqual([{ field: 'careerHighlights', mine: '', theirs: 'Award, and another' }]);
  });
});
