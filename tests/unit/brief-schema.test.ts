import { describe, expect, it } from 'vitest';
import {
  briefDraftSchema,
  briefSubmitSchema,
  draftAttachSchema,
  editRequestSchema,
  mapOlderBrief,
  olderBriefPart1Schema,
  olderBriefPart2Schema,
  splitSocialLinks,
} from '../../src/shared/schemas/brief';

describe('brief schemas', () => {
  it('the older form mapped at its limits still fits the current brief', () => {
    const filled = (schema: typeof olderBriefPart1Schema | typeof olderBriefPart2Schema) =>
      Object.fromEntries(
        Object.entries(schema.shape).map(([k, v]) => {
          const max = (v as { maxLength?: number; unwrap?: () => { maxLength: number } }).maxLength ?? (v as { unwrap: () => { maxLength: number } }).unwrap().maxLength;
          return [k, 'x'.repeat(max)];
        }),
      );
    const p1 = olderBriefPart1Schema.parse(filled(olderBriefPart1Schema));
    const p2 = olderBriefPart2Schema.parse(filled(olderBriefPart2Schema));
    const mapped = mapOlderBrief(p1, p2);
    expect(briefSubmitSchema.safeParse(mapped).success).toBe(true);
    expect(mapped.part1Json.additionalInfo).toContain('Title ideas:\n');
    expect(mapped.part2Json.specificPoints).toContain('Information to leave out:\n');
  });

  it('leaves out what the older form did not fill in', () => {
    const mapped = mapOlderBrief({ nameForArticles: 'A', background: 'B' }, { goal: 'G', audience: 'Au', mainMessage: 'M' });
    expect(mapped).toEqual({
      part1Json: { personOrBrandName: 'A', backgroundExperience: 'B' },
      part2Json: { mainGoal: 'G', targetAudience: 'Au', mainMessage: 'M' },
    });
  });

  it('drafts accept partial parts; submissions need the required fields', () => {
    expect(briefDraftSchema.parse({})).toEqual({});
    expect(briefDraftSchema.parse({ part1Json: { futureVision: ' later ' } })).toEqual({ part1Json: { futureVision: 'later' } });
    expect(briefSubmitSchema.safeParse({ part1Json: {}, part2Json: {} }).success).toBe(false);
  });

  it('edit feedback: trimmed, empty is nothing, at most 1000 characters', () => {
    expect(editRequestSchema.parse({ feedback: '  ok ' })).toEqual({ feedback: 'ok' });
    expect(editRequestSchema.parse({ feedback: '   ' })).toEqual({ feedback: undefined });
    expect(editRequestSchema.parse({})).toEqual({ feedback: undefined });
    const long = editRequestSchema.safeParse({ feedback: 'x'.repeat(1001) });
    expect(long.error?.issues[0].message).toBe('Feedback must be at most 1000 characters');
  });

  it('draft attach: exactly one of a link or an uploaded file', () => {
    expect(draftAttachSchema.parse({ draftDocumentUrl: 'https://docs.google.com/d/1' })).toEqual({ draftDocumentUrl: 'https://docs.google.com/d/1' });
    expect(draftAttachSchema.parse({ draftDocumentFile: '/api/files/ab12.docx', draftDocumentUrl: '' })).toEqual({ draftDocumentFile: '/api/files/ab12.docx' });
    expect(draftAttachSchema.safeParse({}).error?.issues[0].message).toBe('Please provide either a URL or upload a file');
  });

  it('social links: one per line, blanks ignored', () => {
    expect(splitSocialLinks(' a.com \n\r\nhttps://b.com\n')).toEqual(['a.com', 'https://b.com']);
  });
});
