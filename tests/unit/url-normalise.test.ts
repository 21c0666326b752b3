/**
 * Issue 20: a bare domain ("acme.com") is read as https in every URL field, by the one shared
 * helper the forms and the routes use; truly invalid input keeps the spec's messages.
 */
import { describe, expect, it } from 'vitest';
import { draftAttachSchema } from '../../src/shared/schemas/brief';
import {
  emptyOpportunityForm,
  opportunityFormSchema,
  opportunityRequestSchema,
} from '../../src/shared/schemas/opportunity';
import { completeProfileSchema, editProfileSchema, withHttps } from '../../src/shared/schemas/profile';

const future = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const opportunity = {
  outletName: 'Outlet',
  title: 'Title',
  description: 'Description',
  type: ['listicle'],
  priceUsd: '899.90',
  maxSlots: 1,
  deadlineDate: future,
};

describe('withHttps', () => {
  it.each([
    ['acme.com', 'https://acme.com'],
    ['www.acme.co.uk', 'https://www.acme.co.uk'],
    ['acme.com/about?x=1#top', 'https://acme.com/about?x=1#top'],
    ['shop.acme.com:8443/path', 'https://shop.acme.com:8443/path'],
    ['xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
  ])('adds https:// to the bare domain %s', (typed, stored) => {
    expect(withHttps(typed)).toBe(stored);
  });

  it.each([
    'https://acme.com',
    'http://acme.com',
    'javascript:alert(1)',
    'ftp://acme.com',
    'acme',
    'not a url.com',
    '/uploads/a.png',
    '//acme.com',
    'acme.com space',
    '1.2',
    '-acme.com',
    'mailto:a@acme.com',
    'a@acme.com',
  ])('leaves %s as typed (for the URL check to judge)', (typed) => {
    expect(withHttps(typed)).toBe(typed);
  });
});

describe('URL fields accept a bare domain', () => {
  it('profile website (completion and edit)', () => {
    expect(completeProfileSchema.parse({ name: 'Jo', brandName: 'Acme', website: '  acme.com ' }).website).toBe(
      'https://acme.com',
    );
    expect(editProfileSchema.parse({ name: 'Jo', website: 'acme.com/team' }).website).toBe('https://acme.com/team');
    // truly invalid input keeps the spec's message
    for (const website of ['acme', 'javascript:alert(1)', 'ftp://acme.com', 'not a url']) {
      expect(completeProfileSchema.safeParse({ name: 'Jo', brandName: 'Acme', website }).error?.issues[0].message).toBe(
        'Must be a valid URL',
      );
    }
    expect(
      completeProfileSchema.safeParse({ name: 'Jo', brandName: 'Acme', website: '' }).error?.issues[0].message,
    ).toBe('Website is required');
  });

  it('outlet URL and examples, the same in the form and the request', () => {
    const req = opportunityRequestSchema.parse({
      ...opportunity,
      outletUrl: 'techcrunch.com',
      exampleUrls: ['techcrunch.com/2025/story', '/uploads/ab12.png'],
    });
    expect(req.outletUrl).toBe('https://techcrunch.com');
    expect(req.exampleUrls).toEqual(['https://techcrunch.com/2025/story', '/uploads/ab12.png']);
    const viaForm = opportunityFormSchema.parse({
      ...emptyOpportunityForm,
      ...opportunity,
      maxSlots: '1',
      outletUrl: 'techcrunch.com',
      exampleUrls: ['techcrunch.com/2025/story'],
    });
    expect(viaForm.outletUrl).toBe('https://techcrunch.com');
    expect(viaForm.exampleUrls).toEqual(['https://techcrunch.com/2025/story']);
    const bad = opportunityRequestSchema.safeParse({
      ...opportunity,
      outletUrl: 'techcrunch',
      exampleUrls: ['javascript:alert(1)'],
    });
    expect(Object.fromEntries(bad.error!.issues.map((i) => [i.path.join('.'), i.message]))).toEqual({
      outletUrl: 'Outlet URL must be a valid URL',
      'exampleUrls.0': 'Must be a valid URL',
    });
  });

  it('draft document link', () => {
    expect(draftAttachSchema.parse({ draftDocumentUrl: 'docs.google.com/document/d/abc/edit' })).toEqual({
      draftDocumentUrl: 'https://docs.google.com/document/d/abc/edit',
    });
    expect(draftAttachSchema.safeParse({ draftDocumentUrl: 'docs' }).error?.issues[0].message).toBe(
      'Please enter a valid URL',
    );
  });
});
