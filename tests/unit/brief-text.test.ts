import { describe, expect, it } from 'vitest';
import type { AdminPlacementItem, PlacementPayment } from '../../src/shared/schemas/brief';
import { briefRows, briefToText, linkHref, splitLinks, PART1_FIELDS, PART2_FIELDS } from '../../src/client/features/placements/components/projects/brief-text';
import { BRIEF_PART1_FIELDS, BRIEF_PART2_FIELDS } from '../../src/shared/schemas/brief';

const payment = (over: Partial<PlacementPayment> = {}): PlacementPayment => ({
  id: '00000000-0000-4000-8000-000000000001',
  status: 'paid',
  draftReviewStatus: 'awaiting_brand_brief',
  draftDocumentUrl: null,
  draftDocumentFile: null,
  brandFeedback: null,
  stripePaymentId: 'pi_test_123',
  amount: '1250.00',
  refundedAmount: '0.00',
  createdAt: '2026-11-20T10:00:00.000Z',
  ...over,
});


// a whole Admin Projects card; each test sets the fields it reads
const adminProject: AdminPlacementItem = {
  id: '0c5e7f1a-2b3d-4e5f-9a6b-7c8d9e0f1a2b',
  title: 'Founder profile',
  type: ['profile_article'],
  outletName: 'The Daily Planet',
  priceUsd: '2500.00',
  payment: payment({ id: '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f', draftReviewStatus: 'pending_brand_review', amount: '2500.00' }),
  organisation: { id: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d', name: 'Acme Soil' },
  client: null,
  brief: {
    part1Json: { personOrBrandName: 'Jane Founder', preferredTitle: 'Founder and CEO, Acme Soil' },
    part2Json: { mainGoal: 'Raise awareness of regenerative farming' },
    submittedAt: '2026-03-03T14:05:00.000Z',
  },
  user: { id: '3f6b2c1e-8a4d-4c7e-9b21-5d0e6f7a8b9c', name: 'Jane Founder', brandName: 'Acme Soil', email: 'jane@acme.example' },
  publication: null,
  overdue: false,
  unreadMessages: 0,
  orderId: null,
  declined: null,
  writingStartedAt: null,
  revisions: { used: 0, included: 2, request: null },
  cancellation: null,
  dispute: null,
  assignee: null,
  promisedBy: null,
  usuallyBy: null,
  life: {
    state: 'awaiting_review',
    label: 'Awaiting brand review',
    waitingOn: 'brand',
    since: '2026-03-04T09:00:00.000Z',
    request: null,
    actions: ['attach_draft'],
    clock: {
      stage: 'review',
      owner: 'brand',
      startedAt: '2026-03-04T09:00:00.000Z',
      dueAt: '2026-03-09T09:00:00.000Z',
      pausedAt: null,
      state: 'on_track',
      liveBy: null,
      promiseMovedDays: 0,
      promiseMoves: [],
      promiseMoved: null,
    },
  },
};

// the API docs' example card gives the fields these tests do not read
const item = (over: Partial<AdminPlacementItem> = {}): AdminPlacementItem => ({
  ...adminProject,
  publication: null,
  overdue: false,
  unreadMessages: 0,
  orderId: null,
  declined: null,
  id: 'opp-1',
  title: 'How Jordan Goods rebuilt retail',
  type: ['advertorial_brand_voice', 'listicle'],
  outletName: 'The Daily Ledger',
  priceUsd: '1250.50',
  payment: payment(),
  user: { id: 'u1', name: 'Riley Jordan', brandName: 'Jordan Goods', email: 'riley@example.com' },
  brief: {
    part1Json: { personOrBrandName: 'Riley Jordan', preferredTitle: 'Founder', inspiration: '  ' },
    part2Json: {
      mainGoal: 'Awareness',
      targetAudience: 'Retail buyers',
      seoKeywords: 'retail, goods',
      socialMediaLinks: 'twitter.com/x\nhttps://linkedin.com/in/y, HTTP://old.example.com  instagram.com/z',
    },
    submittedAt: '2026-11-21T09:30:00.000Z',
  },
  ...over,
});

describe('brief fields', () => {
  it('lists every field of the shared brief schema, once', () => {
    expect(PART1_FIELDS.map((f) => f.key).sort()).toEqual([...BRIEF_PART1_FIELDS].sort());
    expect(PART2_FIELDS.map((f) => f.key).sort()).toEqual([...BRIEF_PART2_FIELDS].sort());
  });

  it('shows optional fields only when filled and N/A for missing required ones', () => {
    const rows = briefRows(PART1_FIELDS, { personOrBrandName: 'Riley', preferredTitle: 'CEO', inspiration: '   ' });
    expect(rows.map((r) => [r.label, r.value, r.missing])).toEqual([
      ['Name', 'Riley', false],
      ['Preferred Title', 'CEO', false],
      ['Background & Experience', 'N/A', true],
    ]);
    expect(briefRows(PART2_FIELDS, undefined).map((r) => r.value)).toEqual(['N/A', 'N/A', 'N/A']);
  });
});

describe('social links', () => {
  it('splits on spaces, commas and line breaks', () => {
    expect(splitLinks(' a.com,b.com\n\nc.com  d.com ,\r\ne.com ')).toEqual(['a.com', 'b.com', 'c.com', 'd.com', 'e.com']);
    expect(splitLinks(undefined)).toEqual([]);
    expect(splitLinks('  ')).toEqual([]);
  });

  it('adds https:// unless the link already starts with http:// or https://', () => {
    expect(linkHref('twitter.com/x')).toBe('https://twitter.com/x');
    expect(linkHref('https://linkedin.com/in/y')).toBe('https://linkedin.com/in/y');
    expect(linkHref('HTTP://old.example.com')).toBe('HTTP://old.example.com');
    // never another scheme: a "javascript:" link becomes a harmless web address
    expect(linkHref('javascript:alert(1)')).toBe('https://javascript:alert(1)');
    expect(linkHref('httpbin.org')).toBe('https://httpbin.org');
  });
});

describe('briefToText', () => {
  it('has a header, both parts under "=" underlined headings, "-" rules between them', () => {
    const text = briefToText(item());
    expect(text).toBe(
      [
        'CONTENT BRIEF',
        '=============',
        'Opportunity: How Jordan Goods rebuilt retail',
        'Outlet: The Daily Ledger',
        'Type: Advertorial (Brand Voice)',
        'Brand: Jordan Goods <riley@example.com>',
        'Price: $1,250.50',
        'Submitted: 2026-11-21',
        '',
        '-'.repeat(60),
        '',
        'PART 1: ABOUT YOU / YOUR BRAND',
        '==============================',
        '',
        'Name:',
        'Riley Jordan',
        '',
        'Preferred Title:',
        'Founder',
        '',
        'Background & Experience:',
        'N/A',
        '',
        '-'.repeat(60),
        '',
        'PART 2: ARTICLE GUIDELINES',
        '==========================',
        '',
        'Main Goal:',
        'Awareness',
        '',
        'Target Audience:',
        'Retail buyers',
        '',
        'Main Message:',
        'N/A',
        '',
        'SEO Keywords:',
        'retail, goods',
        '',
        'Social Media Links:',
        '- https://twitter.com/x',
        '- https://linkedin.com/in/y',
        '- HTTP://old.example.com',
        '- https://instagram.com/z',
        '',
      ].join('\n'),
    );
  });

  it('keeps multi-line answers as written and falls back to the name for the brand', () => {
    const base = item();
    const text = briefToText({
      ...base,
      user: { ...base.user, brandName: null },
      brief: { ...base.brief!, part1Json: { ...base.brief!.part1Json, backgroundExperience: 'Line one\nLine two' } },
    });
    expect(text).toContain('Brand: Riley Jordan <riley@example.com>');
    expect(text).toContain('Background & Experience:\nLine one\nLine two\n');
    expect(briefToText({ ...base, user: { ...base.user, brandName: '', name: '' } })).toContain('Brand: — <riley@example.com>');
  });

  it('says so when the brief is not submitted yet', () => {
    const text = briefToText(item({ brief: null }));
    expect(text).toContain('CONTENT BRIEF');
    expect(text).toContain('The brand has not submitted the brief yet.');
    expect(text).not.toContain('PART 1');
  });
});
