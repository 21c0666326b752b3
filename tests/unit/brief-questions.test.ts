import { describe, expect, it } from 'vitest';
import { briefIntro, part1Questions, part2Questions } from '../../src/client/features/placements/components/brief/brief-questions';
import { PART1_FIELDS } from '../../src/client/features/placements/components/brief/brief-fields';

const names = (fields: { name: string }[]) => fields.map((f) => f.name);

describe('the brief asks what the content bought needs (issue 57)', () => {
  it('a profile is the spec’s interview: every question, as the spec words it', () => {
    const fields = part1Questions(['profile_article'], {});
    expect(names(fields)).toEqual(names(PART1_FIELDS));
    expect(fields.find((f) => f.name === 'personalAnecdotes')?.label).toBe('Personal anecdotes');
    expect(briefIntro(['profile_article'])).toBe('Tell the journalist who you are and what makes your story worth telling.');
  });

  it('a listicle asks for the entry, not the founder’s story', () => {
    const fields = part1Questions(['listicle'], {});
    expect(names(fields)).toEqual(['personOrBrandName', 'backgroundExperience', 'uniquePerspective', 'additionalInfo']);
    const background = fields.find((f) => f.name === 'backgroundExperience')!;
    expect(background).toMatchObject({ label: 'What it is and who it is for', required: true, requiredMessage: 'Say what it is and who it is for' });
    expect(names(part2Questions(['listicle']))).toContain('specificPoints');
    expect(part2Questions(['listicle']).find((f) => f.name === 'specificPoints')?.label).toBe('Points the entry must mention');
  });

  it('an advertorial and an editorial feature ask about the brand and the company', () => {
    expect(names(part1Questions(['advertorial_brand_voice'], {}))).not.toContain('inspiration');
    expect(part1Questions(['advertorial_brand_voice'], {}).find((f) => f.name === 'backgroundExperience')?.label).toBe('About your brand');
    expect(part2Questions(['advertorial_brand_voice']).find((f) => f.name === 'toneStyleGuidelines')?.label).toBe('Your brand’s voice');
    expect(names(part1Questions(['editorial_feature'], {}))).not.toContain('personalAnecdotes');
  });

  it('an answer already given stays (a copied brief, a template); several types ask every question any asks; unknown types ask all', () => {
    expect(names(part1Questions(['listicle'], { personalAnecdotes: 'Founded in a garage' }))).toContain('personalAnecdotes');
    expect(names(part1Questions(['listicle'], { personalAnecdotes: '  ' }))).not.toContain('personalAnecdotes');
    const both = names(part1Questions(['listicle', 'editorial_feature'], {}));
    expect(both).toContain('careerHighlights');
    expect(both).toContain('futureVision');
    expect(names(part1Questions(['something_else'], {}))).toEqual(names(PART1_FIELDS));
  });
});
