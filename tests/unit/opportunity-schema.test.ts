import { describe, expect, it } from 'vitest';
import {
  emptyOpportunityForm,
  localToday,
  opportunityFormSchema,
  opportunityRequestSchema,
  opportunityToFormValues,
  serverMinDeadlineDay,
  type OpportunityFormValues,
} from '../../src/shared/schemas/opportunity';
import {
  OPPORTUNITY_STATUSES,
  OPPORTUNITY_TYPES,
  OPPORTUNITY_TYPE_DESCRIPTIONS,
  OPPORTUNITY_TYPE_LABELS,
  OPPORTUNITY_TYPE_SHORT_LABELS,
  filledPercent,
  formatDeadlineLong,
  formatDeadlineShort,
  type Opportunity,
} from '../../src/shared/opportunity';

const form = (over: Partial<OpportunityFormValues> = {}): OpportunityFormValues => ({
  ...emptyOpportunityForm,
  outletName: 'Outlet',
  title: 'Title',
  description: 'Description',
  type: ['listicle'],
  priceUsd: '899.9',
  maxSlots: '10',
  ...over,
});

const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('opportunity labels', () => {
  it('match the spec (the database takes its lists from src/shared)', () => {
    expect(OPPORTUNITY_TYPES).toEqual(['profile_article', 'editorial_feature', 'advertorial_brand_voice', 'listicle']);
    expect(OPPORTUNITY_TYPE_LABELS).toEqual({
      profile_article: 'Profile Article',
      editorial_feature: 'Editorial Feature',
      advertorial_brand_voice: 'Advertorial (Brand Voice)',
      listicle: 'Listicle',
    });
    expect(Object.values(OPPORTUNITY_TYPE_SHORT_LABELS)).toEqual(['Profile', 'Editorial', 'Advertorial', 'Listicle']);
    for (const type of OPPORTUNITY_TYPES) expect(OPPORTUNITY_TYPE_DESCRIPTIONS[type]).toMatch(/^[A-Z].+\.$/);
    expect(OPPORTUNITY_STATUSES).toEqual(['available', 'claimed', 'in_progress', 'published', 'full']);
  });

  it('format a deadline by its UTC day, whatever the local time zone', () => {
    expect(formatDeadlineShort('2027-03-05T00:00:00.000Z')).toBe('Mar 5');
    expect(formatDeadlineLong('2027-03-05T00:00:00.000Z')).toBe('Mar 5, 2027');
  });

  it('clamp the availability bar to 0-100', () => {
    expect(filledPercent({ maxSlots: 10, filledSlots: 3 })).toBe(30);
    expect(filledPercent({ maxSlots: 2, filledSlots: 5 })).toBe(100);
    expect(filledPercent({ maxSlots: 2, filledSlots: -1 })).toBe(0);
  });
});

describe('opportunityFormSchema', () => {
  it('turns the form strings into the request JSON', () => {
    const result = opportunityFormSchema.safeParse(
      form({
        domainAuthority: '95',
        deadlineDate: localToday(),
        exampleUrls: ['https://a.example.com/x', ''],
        tat: ' 10 days ',
        tatDays: ' 10 ',
        linkType: 'sponsored',
        topics: ['fintech', 'ai', 'fintech'],
        country: 'de',
        language: 'DE',
      }),
    );
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      outletName: 'Outlet',
      outletUrl: null,
      title: 'Title',
      description: 'Description',
      type: ['listicle'],
      tat: '10 days',
      priceUsd: '899.90',
      maxSlots: 10,
      domainAuthority: 95,
      deadlineDate: localToday(),
      logoUrl: null,
      exampleUrls: ['https://a.example.com/x'],
      tatDays: 10,
      linkType: 'sponsored',
      topics: ['fintech', 'ai'],
      country: 'DE',
      language: 'de',
    });
    // and the server accepts exactly that
    expect(opportunityRequestSchema.parse(result.data)).toEqual(result.data);
  });

  it('gives the same messages as the server', () => {
    const bad = form({
      type: [],
      outletName: ' ',
      priceUsd: 'abc',
      maxSlots: '0',
      outletUrl: 'nope',
      logoUrl: 'x.png',
      domainAuthority: '101',
      deadlineDate: '2001-01-01',
      exampleUrls: ['ftp://x.example.com', '/x'],
    });
    const fromForm = errorsOf(opportunityFormSchema.safeParse(bad));
    expect(fromForm).toEqual({
      type: 'At least one type is required',
      outletName: 'Outlet name is required',
      priceUsd: 'Price must be a valid amount',
      maxSlots: 'Max slots must be at least 1',
      outletUrl: 'Outlet URL must be a valid URL',
      logoUrl: 'Logo must be a URL or path starting with /',
      domainAuthority: 'Domain Authority must be at most 100',
      deadlineDate: 'Deadline cannot be in the past',
      'exampleUrls.0': 'Must be a valid URL',
      'exampleUrls.1': 'Must be a URL or upload path',
    });
    expect(errorsOf(opportunityRequestSchema.safeParse(bad))).toEqual(fromForm);
  });

  it('refuses a deadline before the local today in the form; the server allows UTC yesterday', () => {
    const now = new Date(2030, 5, 15, 12, 0, 0);
    expect(localToday(now)).toBe('2030-06-15');
    expect(serverMinDeadlineDay(new Date('2030-06-15T03:00:00Z'))).toBe('2030-06-14');
  });

  it('fills the edit form from an opportunity and round-trips', () => {
    const o: Opportunity = {
      id: 'x',
      title: 'T',
      outletName: 'O',
      outletUrl: null,
      description: 'D',
      type: ['profile_article'],
      tat: null,
      priceUsd: '1200.50',
      logoUrl: '/uploads/abc.svg',
      exampleUrls: ['/uploads/abc.png'],
      maxSlots: 2,
      filledSlots: 1,
      domainAuthority: null,
      deadlineDate: '2999-01-31T00:00:00.000Z',
      status: 'available',
      createdAt: '2026-01-01T00:00:00.000Z',
      tatDays: 14,
      linkType: 'sponsored',
      topics: ['fintech'],
      country: 'DE',
      language: 'de',
      outletId: null,
    };
    const values = opportunityToFormValues(o);
    expect(values).toMatchObject({
      priceUsd: '1200.50',
      maxSlots: '2',
      domainAuthority: '',
      deadlineDate: '2999-01-31',
      outletUrl: '',
    });
    expect(opportunityFormSchema.parse(values)).toMatchObject({
      priceUsd: '1200.50',
      maxSlots: 2,
      deadlineDate: '2999-01-31',
      logoUrl: '/uploads/abc.svg',
    });
  });
});
