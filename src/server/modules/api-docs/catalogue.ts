import { z } from 'zod';
import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import { loginSchema, registerSchema } from '../../../shared/schemas/auth';
import {
  adminProjectsQuerySchema,
  briefDraftSchema,
  briefSubmitSchema,
  draftAttachSchema,
  editRequestSchema,
  myArticlesQuerySchema,
  olderBriefSubmitSchema,
} from '../../../shared/schemas/brief';
import { billingDetailsSchema, paymentsExportQuerySchema } from '../../../shared/billing';
import { createInviteCodeSchema } from '../../../shared/schemas/invite-code';
import { baseVersionSchema } from '../../../shared/schemas/version';
import { messageTextSchema } from '../../../shared/schemas/message';
import { adminOpportunitiesQuerySchema, opportunityRequestSchema } from '../../../shared/schemas/opportunity';
import { opportunitySearchQuerySchema } from '../../../shared/schemas/opportunity-search';
import {
  FORGOT_PASSWORD_ANSWER,
  PASSWORD_RESET_DONE,
  forgotPasswordSchema,
  resetPasswordSchema,
} from '../../../shared/schemas/password';
import {
  adminPaymentPatchSchema,
  adminPaymentsQuerySchema,
  createCheckoutSchema,
} from '../../../shared/schemas/payment';
import {
  avatarProfileSchema,
  completeProfileSchema,
  editProfileSchema,
  emailPreferenceSchema,
} from '../../../shared/schemas/profile';
import {
  placementsQuerySchema,
  publicationCheckSchema,
  publicationUrlSchema,
  publishRequestSchema,
} from '../../../shared/schemas/publication';
import {
  inviteCodeSchema,
  pendingBrandSchema,
  profileAnswerSchema,
  userAnswerSchema,
  termsSchema,
} from '../../../shared/schemas/responses/account';
import { decimal, id, messageAnswerSchema, urlAnswerSchema } from '../../../shared/schemas/responses/common';
import {
  attentionListSchema,
  conversationAboutSchema,
  messageSchema,
  timelineEntrySchema,
  unreadSummarySchema,
} from '../../../shared/schemas/responses/conversation';
import {
  adminOpportunityItemSchema,
  brandOpportunityItemSchema,
  brandOpportunitySchema,
  opportunitySchema,
  versionedOpportunitySchema,
} from '../../../shared/schemas/responses/opportunity';
import {
  adminPaymentItemSchema,
  billingDetailsAnswerSchema,
  brandPaymentItemSchema,
  checkoutViewSchema,
  paymentAttentionItemSchema,
  paymentSchema,
  paymentTotalsSchema,
} from '../../../shared/schemas/responses/payment';
import {
  adminProjectItemSchema,
  articleTabCountsSchema,
  briefConflictSchema,
  briefResponseSchema,
  myArticleItemSchema,
  projectPaymentSchema,
  projectTabCountsSchema,
  savedBriefSchema,
  uploadedDocumentSchema,
} from '../../../shared/schemas/responses/placement';
import {
  adminPlacementItemSchema,
  placementCountsSchema,
  publicationCheckResultSchema,
  publicationSetSchema,
} from '../../../shared/schemas/responses/publication';
import { CHECKOUT_CANCEL_PATH, CHECKOUT_SUCCESS_PATH } from '../../../shared/payment';
import * as ex from './examples';
import { body, empty, file, json, upload, type RouteDoc } from './route-doc';

/**
 * Every route the server registers, as the API documentation shows it (GET /api/openapi.json and
 * GET /api/docs). tests/api/openapi.test.ts fails while a registered route has no entry here, or an
 * entry names a route that does not exist, or an example does not pass its schema.
 *
 * To document a new route, add one entry: method and path as registered, a tag, a summary, who may
 * call it, the shared schemas it parses (`query`, `body(schema, example)`) and what it answers
 * (`json(schema, example)`, `empty(…)` or `file(…)`). 400 for invalid input, 401/403 for the caller
 * and 404 for an id in the path are added from the entry; name only the refusals particular to it.
 * A response shape without a schema yet gets one in src/shared/schemas/responses/ (its TypeScript
 * type then `z.infer` of it). Last, call the route once in the journey of tests/api/openapi.test.ts:
 * its answers are checked against what is written here.
 */

const ok = z.object({ ok: z.literal(true) });
const PAYMENT_ID = 'the payment id (the placement’s)';

/** 409 of a brief save based on an older copy: the copy the server holds now, to merge. */
const BRIEF_CONFLICT = {
  description:
    'Changed in another window since it was read (the body carries the `current` brief), or published or refunded',
  schema: briefConflictSchema,
};
/** 409 of a live article whose check found problems: the check, to show them. */
const CHECK_PROBLEMS = (when: string) => ({
  description: `${when}, or the live article has problems (the body carries the \`check\`)`,
  schema: z.object({
    message: z.string(),
    check: publicationCheckResultSchema.optional(),
  }),
});

/** The conversation and the timeline: the brand's routes under /api/brand, the team's under /api/admin. */
const SIDES = [
  { prefix: '/api/brand', access: 'brand', who: 'the brand (its own placements; another brand’s is a 404)' },
  { prefix: '/api/admin', access: 'admin', who: 'the editorial team' },
] as const;

const conversationRoutes = SIDES.flatMap(({ prefix, access, who }): RouteDoc[] => {
  const base = `${prefix}/projects/:paymentId`;
  const params = { paymentId: PAYMENT_ID };
  return [
    {
      method: 'GET',
      path: `${prefix}/messages/unread`,
      tag: 'Conversation',
      access,
      summary: `Unread messages per placement, for ${who}`,
      answer: json(unreadSummarySchema, { total: 3, byPayment: { [ex.ids.payment]: 3 } }),
    },
    {
      method: 'GET',
      path: `${base}/conversation`,
      tag: 'Conversation',
      access,
      params,
      summary: 'What a placement’s conversation is about (the details page’s header)',
      answer: json(conversationAboutSchema, {
        paymentId: ex.ids.payment,
        title: ex.opportunity.title,
        outletName: ex.opportunity.outletName,
        brandName: 'Acme Soil',
        status: 'paid',
        unread: 1,
      }),
    },
    {
      method: 'GET',
      path: `${base}/messages`,
      tag: 'Conversation',
      access,
      params,
      paged: true,
      summary: 'A placement’s messages: the newest page first, each page newest first',
      description: 'The `Link: rel="next"` page holds older messages.',
      answer: json(z.array(messageSchema), [ex.message]),
    },
    {
      method: 'POST',
      path: `${base}/messages`,
      tag: 'Conversation',
      access,
      params,
      summary: 'Write a message, with or without an attachment',
      description:
        'JSON `{text}`, or multipart/form-data with a `text` field and a `file` (PDF, DOC, DOCX, PNG or JPEG by its bytes, at most 25 MB). The other side is told by e-mail, at most every 15 minutes.',
      body: body(messageTextSchema, { text: 'Could the intro mention our 2019 founding?' }),
      upload: {
        fields: {
          text: { description: 'the message (may be empty when a file is attached)' },
          file: { description: 'the attachment', file: true },
        },
        required: [],
      },
      answer: json(
        messageSchema,
        { ...ex.message, side: 'brand', authorName: 'Acme Soil', attachment: null },
        'Created',
        201,
      ),
      errors: { 413: 'The file is larger than 25 MB', 429: 'Too many messages this hour, or uploads today (brands)' },
    },
    {
      method: 'POST',
      path: `${base}/messages/read`,
      tag: 'Conversation',
      access,
      params,
      summary: 'Mark everything the other side wrote so far as read',
      answer: empty('Marked read'),
    },
    {
      method: 'GET',
      path: `${base}/messages/:messageId/attachment`,
      tag: 'Conversation',
      access,
      params,
      summary: 'Download a message’s attachment',
      answer: file(
        [
          'application/pdf',
          'application/msword',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'image/png',
          'image/jpeg',
        ],
        'The file, as an attachment under its original name',
      ),
    },
    {
      method: 'GET',
      path: `${base}/timeline`,
      tag: 'Conversation',
      access,
      params,
      paged: true,
      summary: 'A placement’s timeline, oldest first: every change, who made it and when',
      description: 'A page holds 100 entries unless `limit` says otherwise.',
      answer: json(z.array(timelineEntrySchema), ex.timeline),
    },
  ];
});

export const CATALOGUE: readonly RouteDoc[] = [
  // ---- Account
  {
    method: 'GET',
    path: '/api/user',
    tag: 'Account',
    access: 'user',
    spec: true,
    summary: 'The signed-in user',
    description: 'A 401 means nobody is signed in.',
    answer: json(userAnswerSchema, ex.brandUser),
  },
  {
    method: 'POST',
    path: '/api/login',
    tag: 'Account',
    access: 'public',
    spec: true,
    summary: 'Sign in',
    description: 'Sets the sign-in session cookie (a new one at every sign-in).',
    body: body(loginSchema, { email: 'jane@acme.example', password: 'correct-horse-battery' }),
    answer: json(userAnswerSchema, ex.brandUser),
    errors: { 401: 'Invalid email or password', 429: 'Too many attempts; `Retry-After` says when to try again' },
  },
  {
    method: 'POST',
    path: '/api/register',
    tag: 'Account',
    access: 'public',
    spec: true,
    summary: 'Sign up (always as a brand) and sign in',
    body: body(registerSchema, { email: 'jane@acme.example', password: 'correct-horse-battery' }),
    answer: json(
      userAnswerSchema,
      { ...ex.brandUser, name: null, brandName: null, website: null, avatarUrl: null, approved: false },
      'Created and signed in',
      201,
    ),
    errors: { 409: 'An account with this e-mail already exists', 429: 'Too many sign-ups from this address' },
  },
  {
    method: 'POST',
    path: '/api/logout',
    tag: 'Account',
    access: 'public',
    spec: true,
    summary: 'Sign out',
    description: 'Ends the session on the server and clears its cookie; harmless when nobody is signed in.',
    answer: json(ok, { ok: true }),
  },
  {
    method: 'POST',
    path: '/api/password/forgot',
    tag: 'Account',
    access: 'public',
    summary: 'E-mail a link to reset a forgotten password',
    description: 'The same answer whether or not the e-mail has an account.',
    body: body(forgotPasswordSchema, { email: 'jane@acme.example' }),
    answer: json(messageAnswerSchema, { message: FORGOT_PASSWORD_ANSWER }),
    errors: { 429: 'Too many requests' },
  },
  {
    method: 'POST',
    path: '/api/password/reset',
    tag: 'Account',
    access: 'public',
    summary: 'Set a new password with the e-mailed link’s token',
    description: 'Every session of the user ends.',
    body: body(resetPasswordSchema, {
      token: 'dGhpcyBpcyBub3QgYSByZWFsIHRva2VuIGF0IGFsbA',
      password: 'a-new-long-password',
    }),
    answer: json(messageAnswerSchema, { message: PASSWORD_RESET_DONE }),
    errors: { 429: 'Too many attempts' },
  },
  {
    method: 'PATCH',
    path: '/api/user/profile',
    tag: 'Account',
    access: 'user',
    spec: true,
    summary: 'Complete or edit the profile, set the avatar or the e-mail preference',
    description:
      'The body’s members name the change: `{avatarUrl}` alone sets the avatar, `{emailNotifications}` alone the brand’s e-mail preference; a brand without a name (or unapproved, with an invite code) completes its profile; anything else edits it (admins change only their name).',
    body: body(
      z.union([
        completeProfileSchema.describe('Completing the profile ("Almost there"), with an invite code or without'),
        editProfileSchema
          .extend(baseVersionSchema.shape)
          .describe('Editing the profile (with `baseVersion`, the `version` read)'),
        avatarProfileSchema.describe('The avatar: an image POST /api/upload/avatar stored'),
        emailPreferenceSchema.describe('The brand’s e-mail preference'),
      ]),
      { name: 'Jane Founder', brandName: 'Acme Soil', website: 'acme.example', inviteCode: 'SPRING26' },
      {
        edit: { name: 'Jane Founder', brandName: 'Acme Soil', website: 'https://acme.example' },
        avatar: { avatarUrl: '/uploads/Xq3v9JmT2kPz7bWc.png' },
        emailPreference: { emailNotifications: false },
      },
    ),
    answer: json(profileAnswerSchema, { ...ex.brandUser, autoApproved: true }),
    errors: {
      409: {
        description: 'An edit based on an older copy of the profile (the body carries the `current` user)',
        schema: z.object({ message: z.string(), current: userAnswerSchema }),
      },
      403: 'An admin setting the e-mail preference (only brands have one); or not sent from Byline’s own pages (the `Origin` check)',
      429: 'Too many invite code attempts',
    },
  },
  {
    method: 'POST',
    path: '/api/upload/avatar',
    tag: 'Files',
    access: 'user',
    spec: true,
    summary: 'Upload an avatar image',
    description: 'Set it with PATCH /api/user/profile `{avatarUrl}`.',
    upload: upload('avatar', 'a JPEG, PNG, GIF or WEBP image, at most 5 MB'),
    answer: json(urlAnswerSchema, { url: '/uploads/Xq3v9JmT2kPz7bWc.png' }),
    errors: {
      413: 'Please upload an image smaller than 5MB',
      415: 'Please upload an image file',
      429: 'Too many uploads today',
    },
  },
  {
    method: 'GET',
    path: '/api/terms',
    tag: 'Account',
    access: 'public',
    summary: 'The terms of service, as Markdown',
    answer: json(termsSchema, { markdown: '# Terms of service\n\nBy buying a placement you agree…' }),
  },

  // ---- Catalogue
  {
    method: 'GET',
    path: '/api/opportunities',
    tag: 'Catalogue',
    access: 'brand',
    spec: true,
    summary: 'The opportunities a brand can buy; with any parameter, the search',
    description:
      'Without parameters: every available opportunity whose deadline has not passed, newest first (`BrandOpportunity[]`, with an `ETag`; `If-None-Match` answers 304 while the catalogue is unchanged). With any parameter: one page of the search (`BrandOpportunityItem[]`), the next page in `Link: rel="next"` and the number found in `X-Total-Count`. Unknown parameters are refused.',
    query: opportunitySearchQuerySchema,
    // the search's items first: the plain list's would also read them, dropping `saved` and `soldOut`
    answer: json(z.union([z.array(brandOpportunityItemSchema), z.array(brandOpportunitySchema)]), [
      ex.brandOpportunity,
    ]),
    answerHeaders: {
      ETag: 'the catalogue’s version (without parameters)',
      Link: '`<…>; rel="next"`: the next page of the search',
      'X-Total-Count': 'how many opportunities the search found',
    },
    errors: { 304: 'Not modified (the `If-None-Match` tag is current)' },
  },
  {
    method: 'GET',
    path: '/api/brand/saved',
    tag: 'Catalogue',
    access: 'brand',
    summary: 'The brand’s shortlist',
    answer: json(z.array(brandOpportunityItemSchema), [{ ...ex.brandOpportunity, saved: true, soldOut: false }]),
  },
  {
    method: 'PUT',
    path: '/api/brand/saved/:id',
    tag: 'Catalogue',
    access: 'brand',
    params: { id: 'the opportunity id' },
    summary: 'Save an opportunity to the shortlist',
    answer: empty('Saved (also when it already was)'),
  },
  {
    method: 'DELETE',
    path: '/api/brand/saved/:id',
    tag: 'Catalogue',
    access: 'brand',
    params: { id: 'the opportunity id' },
    summary: 'Remove an opportunity from the shortlist',
    answer: empty('Removed (also when it was not saved)'),
  },
  {
    method: 'GET',
    path: '/api/admin/opportunities',
    tag: 'Catalogue',
    access: 'admin',
    spec: true,
    paged: true,
    summary: 'Every opportunity (the admins’ dashboard)',
    query: adminOpportunitiesQuerySchema,
    answer: json(z.array(adminOpportunityItemSchema), [{ ...ex.opportunity, hasPayments: true }]),
  },
  {
    method: 'GET',
    path: '/api/admin/opportunities/:id',
    tag: 'Catalogue',
    access: 'admin',
    spec: true,
    summary: 'One opportunity, with the version its edit form sends back',
    answer: json(versionedOpportunitySchema, ex.editedOpportunity),
  },
  {
    method: 'POST',
    path: '/api/admin/opportunities',
    tag: 'Catalogue',
    access: 'admin',
    spec: true,
    summary: 'Create an opportunity',
    description:
      'Prices and numbers as strings or numbers; an empty value means none. `status` and `filledSlots` are not set here.',
    body: body(opportunityRequestSchema, {
      outletName: 'The Daily Planet',
      outletUrl: 'dailyplanet.example',
      title: 'Founder profile',
      description: 'An in-depth profile of a founder, written by the Planet’s business desk.',
      type: ['profile_article'],
      tat: '2-3 weeks',
      priceUsd: '2500.00',
      maxSlots: 3,
      domainAuthority: 88,
      deadlineDate: '2099-06-30',
      logoUrl: '/uploads/Lg7pQ2sV9xKc4mNa.png',
      exampleUrls: ['https://dailyplanet.example/business/profile-of-a-founder'],
      tatDays: 21,
      linkType: 'dofollow',
      topics: ['business', 'startups'],
      country: 'US',
      language: 'en',
    }),
    answer: json(opportunitySchema, { ...ex.opportunity, filledSlots: 0 }, 'Created', 201),
  },
  {
    method: 'PATCH',
    path: '/api/admin/opportunities/:id',
    tag: 'Catalogue',
    access: 'admin',
    spec: true,
    summary: 'Edit an opportunity',
    description:
      'The same body as creating one, whole. A deadline already past may be kept. With `baseVersion` (the `version` read), a save based on an older copy is refused with 409 and the current one.',
    body: body(opportunityRequestSchema.extend(baseVersionSchema.shape), {
      outletName: 'The Daily Planet',
      title: 'Founder profile',
      description: 'An in-depth profile of a founder.',
      type: ['profile_article', 'editorial_feature'],
      priceUsd: 2750,
      maxSlots: 5,
      baseVersion: ex.editedOpportunity.version,
    }),
    answer: json(versionedOpportunitySchema, ex.editedOpportunity),
    errors: {
      409: {
        description:
          'Changed by someone else since it was read (the body carries the `current` opportunity), or max slots below the slots already filled',
        schema: z.object({ message: z.string(), current: versionedOpportunitySchema.optional() }),
      },
    },
  },
  {
    method: 'POST',
    path: '/api/upload/logo',
    tag: 'Files',
    access: 'admin',
    spec: true,
    summary: 'Upload an outlet logo or an example screenshot',
    description:
      'The type comes from the bytes; an SVG logo is rebuilt by the sanitiser before it is stored. `?purpose=example` for example screenshots (no SVG).',
    query: z.object({
      purpose: z.enum(['example']).optional().describe('`example`: an example screenshot rather than a logo'),
    }),
    upload: upload('logo', 'a JPEG, PNG, GIF, WEBP or (logos only) SVG image, at most 5 MB'),
    answer: json(urlAnswerSchema, { url: '/uploads/Lg7pQ2sV9xKc4mNa.png' }),
    errors: { 413: 'Logo must be smaller than 5MB', 415: 'Not one of the image types', 429: 'Too many uploads today' },
  },

  // ---- Checkout
  {
    method: 'POST',
    path: '/api/payments/checkout',
    tag: 'Checkout',
    access: 'brand',
    spec: true,
    summary: 'Hold a slot and open a checkout',
    description:
      'The browser then goes to `url`: the provider’s payment page (or the built-in test checkout, `/checkout/{sessionId}`). The slot is held for 31 minutes.',
    body: body(createCheckoutSchema, { opportunityId: ex.ids.opportunity }),
    answer: json(urlAnswerSchema, { url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4' }),
    errors: {
      404: 'Opportunity not found',
      409: 'Sold out, past its deadline, or already being bought in another window',
      429: 'Too many open checkouts',
      502: 'Failed to create checkout session',
    },
  },
  {
    method: 'GET',
    path: '/api/payments/checkout/:sessionId',
    tag: 'Checkout',
    access: 'brand',
    summary: 'A checkout of the brand (the built-in test checkout page reads it)',
    answer: json(checkoutViewSchema, {
      sessionId: 'cs_local_8f2b1c9d0e7a6b5c4d3e2f1a',
      paymentId: ex.ids.payment,
      status: 'open',
      amount: '2500.00',
      expiresAt: '2026-03-02T10:01:00.000Z',
      opportunityId: ex.ids.opportunity,
      title: ex.opportunity.title,
      outletName: ex.opportunity.outletName,
    }),
  },
  {
    method: 'POST',
    path: '/api/payments/checkout/:sessionId/pay',
    tag: 'Checkout',
    access: 'brand',
    summary: 'Pay a test checkout (the built-in provider only; no money moves)',
    description:
      'Runs the very same fulfilment a provider’s webhook runs. `refunded`: the last slot went meanwhile and the charge was given back.',
    answer: json(z.object({ url: z.string(), paymentId: id, status: z.enum(['paid', 'refunded']) }), {
      url: CHECKOUT_SUCCESS_PATH,
      paymentId: ex.ids.payment,
      status: 'paid',
    }),
    errors: {
      404: 'Checkout not found (or the provider is not the test checkout)',
      409: 'This checkout was cancelled or has expired',
    },
  },
  {
    method: 'POST',
    path: '/api/payments/checkout/:sessionId/cancel',
    tag: 'Checkout',
    access: 'brand',
    summary: 'Cancel a checkout: its slot is given back at once',
    answer: json(urlAnswerSchema, { url: CHECKOUT_CANCEL_PATH }),
    errors: { 409: 'This checkout has already been paid', 502: 'Could not cancel the checkout. Please try again.' },
  },
  {
    method: 'POST',
    path: '/api/webhooks/stripe',
    tag: 'Checkout',
    access: 'webhook',
    summary: 'Stripe’s events (checkout completed or expired, refunds)',
    description:
      'Checked by its signature over the exact bytes sent; the checkout is then read back from Stripe rather than trusted from the event. Duplicates and any order are harmless.',
    headers: { 'Stripe-Signature': 'Stripe’s signature of the body (`t=…,v1=…`)' },
    body: body(
      z
        .looseObject({
          id: z.string(),
          type: z.string(),
          data: z.looseObject({ object: z.looseObject({ id: z.string() }) }),
        })
        .describe('a Stripe event'),
      { id: 'evt_1PqLr2Eab12cd34E', type: 'checkout.session.completed', data: { object: { id: 'cs_test_a1B2c3D4' } } },
    ),
    answer: json(z.object({ received: z.literal(true) }), { received: true }),
    errors: { 400: 'Invalid webhook signature, or not an event' },
  },

  // ---- Payments
  {
    method: 'GET',
    path: '/api/brand/payments',
    tag: 'Payments',
    access: 'brand',
    paged: true,
    summary: 'The brand’s payments, newest first',
    answer: json(z.array(brandPaymentItemSchema), [ex.brandPayment]),
  },
  {
    method: 'GET',
    path: '/api/brand/wallet',
    tag: 'Payments',
    access: 'brand',
    spec: true,
    summary: 'The money the brand has held in escrow',
    answer: json(z.object({ balance: decimal }), { balance: '2500.00' }),
  },
  {
    method: 'GET',
    path: '/api/admin/payments',
    tag: 'Payments',
    access: 'admin',
    spec: true,
    paged: true,
    summary: 'Every payment, newest first',
    query: adminPaymentsQuerySchema,
    answer: json(z.array(adminPaymentItemSchema), [ex.adminPayment]),
  },
  {
    method: 'GET',
    path: '/api/admin/payments/totals',
    tag: 'Payments',
    access: 'admin',
    summary: 'What was charged for the payments held and released (of the brands `q` finds)',
    query: adminSearchQuerySchema,
    answer: json(paymentTotalsSchema, { held: '12500.00', released: '40250.00' }),
  },
  {
    method: 'GET',
    path: '/api/admin/payments/attention',
    tag: 'Payments',
    access: 'admin',
    summary: 'Paid checkouts that were not booked (the charge did not match), newest first',
    answer: json(z.array(paymentAttentionItemSchema), [
      {
        id: ex.ids.payment,
        reason: 'charged 25.00 USD, expected 2500.00 USD',
        providerSessionId: 'cs_test_a1B2c3D4',
        providerRef: 'pi_3PqLr2Eab12cd34EF56gh78',
        expectedAmount: '2500.00',
        opportunity: { id: ex.ids.opportunity, title: ex.opportunity.title, outletName: ex.opportunity.outletName },
        user: ex.brandContact,
        createdAt: ex.at.paid,
      },
    ]),
  },
  {
    method: 'GET',
    path: '/api/brand/billing',
    tag: 'Payments',
    access: 'any-brand',
    summary: 'The brand’s billing details (what its invoices are made out to)',
    answer: json(billingDetailsAnswerSchema, ex.billing),
  },
  {
    method: 'PUT',
    path: '/api/brand/billing',
    tag: 'Payments',
    access: 'any-brand',
    summary: 'Save the brand’s billing details',
    description: 'Invoices already issued keep the details they were issued with.',
    body: body(billingDetailsSchema, {
      legalName: 'Acme Soil GmbH',
      addressLine1: 'Ackerstraße 12',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      taxId: 'DE 123 456 789',
      email: 'billing@acme.example',
    }),
    answer: json(billingDetailsAnswerSchema, ex.billing),
  },
  ...(['brand', 'admin'] as const).flatMap((side) =>
    (['invoice', 'credit-note'] as const).map((document): RouteDoc => ({
      method: 'GET',
      path: `/api/${side}/payments/:paymentId/${document}`,
      tag: 'Payments',
      access: side === 'brand' ? 'brand' : 'admin',
      params: { paymentId: PAYMENT_ID },
      summary:
        document === 'invoice'
          ? `The payment’s invoice (PDF)${side === 'brand' ? '' : ', for an admin'}`
          : `The credit note of a refunded payment (PDF)${side === 'brand' ? '' : ', for an admin'}`,
      description: 'Issued once, with the details of that moment: every download is the same document.',
      answer: file(['application/pdf'], 'The document, as an attachment'),
      errors: {
        404:
          document === 'invoice'
            ? 'No invoice for this payment (or another brand’s)'
            : 'No credit note for this payment: it was not refunded (or another brand’s)',
      },
    })),
  ),
  {
    method: 'GET',
    path: '/api/admin/payments/export.csv',
    tag: 'Payments',
    access: 'admin',
    summary: 'The payments as CSV (the Payments screen’s filters and a date range)',
    query: paymentsExportQuerySchema,
    answer: file(['text/csv'], 'One row per payment, as an attachment'),
  },
  {
    method: 'POST',
    path: '/api/admin/payments/:id/refund',
    tag: 'Payments',
    access: 'admin',
    params: { id: PAYMENT_ID },
    summary: 'Refund a payment held in escrow or published',
    answer: json(paymentSchema, {
      ...ex.payment,
      status: 'refunded',
      refundReason: 'admin',
      refundedAt: '2026-03-05T12:00:00.000Z',
    }),
    errors: { 409: 'Only a payment held in escrow or published can be refunded' },
  },

  // ---- Placements
  {
    method: 'GET',
    path: '/api/brand/my-articles',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    paged: true,
    summary: 'My Articles: the brand’s placements, drafts to review first',
    query: myArticlesQuerySchema,
    answer: json(z.array(myArticleItemSchema), [ex.myArticle]),
  },
  {
    method: 'GET',
    path: '/api/brand/my-articles/counts',
    tag: 'Placements',
    access: 'brand',
    summary: 'My Articles: each tab’s count',
    answer: json(articleTabCountsSchema, {
      pending: 1,
      'needs-review': 1,
      approved: 1,
      completed: 4,
      refunded: 0,
      toReview: 1,
    }),
  },
  {
    method: 'GET',
    path: '/api/brand/brief/:paymentId',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    params: { paymentId: PAYMENT_ID },
    summary: 'The brief of a placement (or where a new one starts from)',
    answer: json(briefResponseSchema, ex.brief),
  },
  {
    method: 'POST',
    path: '/api/brand/brief/:paymentId',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    params: { paymentId: PAYMENT_ID },
    summary: 'Save the brief as a draft (autosave)',
    description:
      'A part left out keeps what is stored. With `baseVersion` (the version read), a save based on an older copy is refused with 409 and the current copy.',
    body: body(briefDraftSchema, { part1Json: ex.briefPart1, baseVersion: ex.savedBrief.version }),
    answer: json(savedBriefSchema, ex.savedBrief),
    errors: { 409: BRIEF_CONFLICT },
  },
  {
    method: 'POST',
    path: '/api/brand/brief/:paymentId/submit',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    params: { paymentId: PAYMENT_ID },
    summary: 'Submit the brief to the editorial team',
    body: body(briefSubmitSchema, {
      part1Json: ex.briefPart1,
      part2Json: ex.briefPart2,
      baseVersion: ex.savedBrief.version,
    }),
    answer: json(savedBriefSchema, {
      ...ex.savedBrief,
      submittedAt: ex.at.briefSubmitted,
      updatedAt: ex.at.briefSubmitted,
    }),
    errors: { 409: BRIEF_CONFLICT },
  },
  {
    method: 'GET',
    path: '/api/brand/brief-access',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    summary: 'Whether the brand bought this opportunity (the earlier brief form asks)',
    query: z.object({ opportunityId: z.string().optional().describe('the opportunity id') }),
    answer: json(z.boolean(), true),
  },
  {
    method: 'POST',
    path: '/api/briefs',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    summary: 'Submit a brief with the earlier form’s fields',
    description: 'The fields are mapped onto the current brief’s, so an admin sees one brief whichever form was used.',
    body: body(olderBriefSubmitSchema, {
      opportunityId: ex.ids.opportunity,
      part1: { nameForArticles: 'Jane Founder', background: 'Agronomist for 20 years' },
      part2: { goal: 'Raise awareness', audience: 'Policy makers', mainMessage: 'Soil is climate' },
    }),
    answer: json(savedBriefSchema, { ...ex.savedBrief, submittedAt: ex.at.briefSubmitted }),
    errors: { 404: 'No payment of this brand for the opportunity', 409: 'Published or refunded' },
  },
  {
    method: 'POST',
    path: '/api/brand/projects/:paymentId/approve',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    params: { paymentId: PAYMENT_ID },
    summary: 'Approve the draft',
    answer: json(projectPaymentSchema, { ...ex.projectPayment, draftReviewStatus: 'approved' }),
    errors: {
      409: 'There is no draft to review yet, it was approved already, or the placement is published or refunded',
    },
  },
  {
    method: 'POST',
    path: '/api/brand/projects/:paymentId/request-edits',
    tag: 'Placements',
    access: 'brand',
    spec: true,
    params: { paymentId: PAYMENT_ID },
    summary: 'Ask for edits of the draft',
    body: body(editRequestSchema, { feedback: 'Could the intro be shorter?' }),
    answer: json(projectPaymentSchema, {
      ...ex.projectPayment,
      draftReviewStatus: 'edits_requested',
      brandFeedback: 'Could the intro be shorter?',
    }),
    errors: {
      409: 'There is no draft to review yet, it was approved already, or the placement is published or refunded',
    },
  },
  {
    method: 'GET',
    path: '/api/admin/projects',
    tag: 'Placements',
    access: 'admin',
    spec: true,
    paged: true,
    summary: 'Projects: every placement with its payment and brief',
    query: adminProjectsQuerySchema,
    answer: json(z.array(adminProjectItemSchema), [ex.adminProject]),
  },
  {
    method: 'GET',
    path: '/api/admin/projects/counts',
    tag: 'Placements',
    access: 'admin',
    summary: 'Projects: each tab’s count (of the brands `q` finds)',
    query: adminSearchQuerySchema,
    answer: json(projectTabCountsSchema, { awaiting: 2, review: 3, approved: 1, published: 12, refunded: 1 }),
  },
  {
    method: 'POST',
    path: '/api/admin/projects/:id/mark-edits-complete',
    tag: 'Placements',
    access: 'admin',
    spec: true,
    params: { id: PAYMENT_ID },
    summary: 'Mark the requested edits done (the brand is asked to review again)',
    answer: json(projectPaymentSchema, { ...ex.projectPayment, draftReviewStatus: 'edits_complete' }),
    errors: { 409: 'Edits can only be marked complete after the brand has requested them' },
  },
  {
    method: 'PATCH',
    path: '/api/admin/payments/:id/status',
    tag: 'Placements',
    access: 'admin',
    spec: true,
    params: { id: PAYMENT_ID },
    summary: 'Attach the draft, or publish (`{status: "released"}`)',
    description:
      '`{draftDocumentUrl}` or `{draftDocumentFile}` (the path POST /api/upload/document answered) attaches the draft once the brief is in, or replaces it while the brand reviews: the answer is the `ProjectPayment`. `{status: "released"}` publishes, as POST …/release does: the answer is the `Payment`.',
    body: body(
      z.union([
        draftAttachSchema.describe('Attach the draft: a link or an uploaded file'),
        adminPaymentPatchSchema.describe('Publish'),
      ]),
      { draftDocumentFile: '/api/files/Dr4ftQ8wE2rT6yU1.pdf' },
      {
        link: { draftDocumentUrl: 'https://docs.example/acme-soil-draft' },
        publish: { status: 'released', liveUrl: 'https://dailyplanet.example/business/acme-soil-founder' },
      },
    ),
    answer: json(z.union([projectPaymentSchema, paymentSchema]), ex.projectPayment),
    errors: { 409: CHECK_PROBLEMS('No brief yet, approved or published already') },
  },
  {
    method: 'POST',
    path: '/api/upload/document',
    tag: 'Files',
    access: 'admin',
    spec: true,
    summary: 'Upload a draft document (private to the brand and admins)',
    upload: upload('file', 'a PDF, DOC or DOCX file (by its bytes), at most 25 MB'),
    answer: json(uploadedDocumentSchema, { path: '/api/files/Dr4ftQ8wE2rT6yU1.pdf' }),
    errors: {
      413: 'File must be smaller than 25MB',
      415: 'Please upload a .doc, .docx or .pdf file',
      429: 'Too many uploads today',
    },
  },
  {
    method: 'GET',
    path: '/api/files/:name',
    tag: 'Files',
    access: 'user',
    summary: 'Download a draft document (the brand of its payment and admins only)',
    answer: file(
      [
        'application/pdf',
        'application/msword',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      'The draft, as an attachment',
    ),
    errors: { 404: 'File not found (also another brand’s)' },
  },
  {
    method: 'GET',
    path: '/api/admin/attention',
    tag: 'Placements',
    access: 'admin',
    summary: 'Needs attention: the placements waiting on the editorial team, most urgent first',
    answer: json(attentionListSchema, ex.attention),
  },

  // ---- Publication
  {
    method: 'POST',
    path: '/api/admin/payments/:id/release',
    tag: 'Publication',
    access: 'admin',
    spec: true,
    params: { id: PAYMENT_ID },
    summary: 'Publish: the article is live and the money held in escrow is released',
    description:
      'The spec’s call has no body. With `{liveUrl}` the live page is checked first: problems refuse the release unless `overrideReason` accepts them (a draft the brand has not approved needs a reason too).',
    body: body(
      publishRequestSchema,
      {},
      { withLiveArticle: { liveUrl: 'https://dailyplanet.example/business/acme-soil-founder' } },
    ),
    answer: json(paymentSchema, ex.released),
    errors: {
      409: CHECK_PROBLEMS(
        'Not held in escrow, a refund is in progress, the brand has not approved the draft (give a reason)',
      ),
    },
  },
  {
    method: 'PUT',
    path: '/api/admin/payments/:id/publication',
    tag: 'Publication',
    access: 'admin',
    params: { id: PAYMENT_ID },
    summary: 'Give or change the live article’s address (checked first)',
    body: body(publicationUrlSchema, { liveUrl: 'https://dailyplanet.example/business/acme-soil-founder' }),
    answer: json(publicationSetSchema, { ok: true, check: ex.check }),
    errors: { 409: CHECK_PROBLEMS('Not published, or refunded') },
  },
  {
    method: 'POST',
    path: '/api/admin/payments/:id/publication/check',
    tag: 'Publication',
    access: 'admin',
    params: { id: PAYMENT_ID },
    summary: 'Check a live article now',
    description:
      'With `{liveUrl}`: try that address (nothing changes). Without: check the live article and apply the result.',
    body: body(
      publicationCheckSchema,
      { liveUrl: 'https://dailyplanet.example/business/acme-soil-founder' },
      { liveArticle: {} },
    ),
    answer: json(publicationCheckResultSchema, ex.check),
    errors: { 409: 'Published without a live link, or refunded' },
  },
  {
    method: 'GET',
    path: '/api/admin/placements',
    tag: 'Publication',
    access: 'admin',
    paged: true,
    summary: 'Published placements and their health',
    query: placementsQuerySchema,
    answer: json(z.array(adminPlacementItemSchema), [ex.placement]),
  },
  {
    method: 'GET',
    path: '/api/admin/placements/counts',
    tag: 'Publication',
    access: 'admin',
    summary: 'Published placements by health, and the open cases',
    answer: json(placementCountsSchema, {
      unverified: 1,
      ok: 10,
      warning: 1,
      issue: 0,
      refunded: 1,
      all: 13,
      issues: 0,
    }),
  },

  // ---- Conversation
  ...conversationRoutes,

  // ---- Brands
  {
    method: 'GET',
    path: '/api/admin/pending-brands',
    tag: 'Brands',
    access: 'admin',
    spec: true,
    paged: true,
    summary: 'Brands waiting for approval',
    query: adminSearchQuerySchema,
    answer: json(z.array(pendingBrandSchema), [ex.pendingBrand]),
  },
  {
    method: 'POST',
    path: '/api/admin/approve-brand/:id',
    tag: 'Brands',
    access: 'admin',
    spec: true,
    params: { id: 'the brand’s user id' },
    summary: 'Approve a brand',
    answer: json(userAnswerSchema, ex.brandUser),
  },
  {
    method: 'GET',
    path: '/api/admin/invite-codes',
    tag: 'Brands',
    access: 'admin',
    spec: true,
    paged: true,
    summary: 'Invite codes, newest first',
    answer: json(z.array(inviteCodeSchema), [ex.inviteCode]),
  },
  {
    method: 'POST',
    path: '/api/admin/invite-codes',
    tag: 'Brands',
    access: 'admin',
    spec: true,
    summary: 'Create an invite code (stored upper case)',
    body: body(createInviteCodeSchema, { code: 'spring26' }),
    answer: json(inviteCodeSchema, ex.inviteCode, 'Created', 201),
    errors: { 409: 'The invite code already exists' },
  },
  {
    method: 'POST',
    path: '/api/admin/invite-codes/:id/deactivate',
    tag: 'Brands',
    access: 'admin',
    spec: true,
    summary: 'Deactivate an invite code',
    answer: json(inviteCodeSchema, { ...ex.inviteCode, active: false }),
  },
  {
    method: 'POST',
    path: '/api/admin/invite-codes/:id/activate',
    tag: 'Brands',
    access: 'admin',
    summary: 'Activate an invite code again',
    answer: json(inviteCodeSchema, ex.inviteCode),
  },

  // ---- Files served
  {
    method: 'GET',
    path: '/uploads/:name',
    tag: 'Files',
    access: 'public',
    summary: 'A public image (logos, example screenshots, avatars)',
    description:
      'Served inert: `X-Content-Type-Options: nosniff`, a sandbox CSP, cached for a year (names never change).',
    answer: file(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'], 'The image'),
    errors: { 404: 'File not found' },
  },

  // ---- Operations
  {
    method: 'GET',
    path: '/healthz',
    tag: 'Operations',
    access: 'public',
    summary: 'Liveness: the process is up',
    answer: json(z.object({ status: z.literal('ok') }), { status: 'ok' }),
  },
  {
    method: 'GET',
    path: '/readyz',
    tag: 'Operations',
    access: 'public',
    summary: 'Readiness: the database answers, the migrations are applied and the job worker runs',
    answer: json(z.object({ status: z.literal('ok') }), { status: 'ok' }),
    errors: {
      503: {
        description: 'Not ready: `reason` says which part',
        schema: z.object({ status: z.literal('unavailable'), reason: z.enum(['database', 'migrations', 'jobs']) }),
      },
    },
  },
  {
    method: 'GET',
    path: '/metrics',
    tag: 'Operations',
    access: 'operator',
    summary: 'Metrics in the Prometheus text format',
    description:
      'Requests by route template and status, their durations, payments, releases, refunds, e-mails, the database pool and the job queues.',
    headers: { Authorization: '`Bearer <METRICS_TOKEN>`' },
    answer: file(['text/plain'], 'The metrics (Prometheus exposition format)'),
    errors: { 401: 'The bearer token is missing or wrong', 404: 'Metrics are off (no METRICS_TOKEN is set)' },
  },

  // ---- Documentation
  {
    method: 'GET',
    path: '/api/openapi.json',
    tag: 'Documentation',
    access: 'public',
    summary: 'This documentation as an OpenAPI 3.1 document',
    answer: json(
      z.looseObject({
        openapi: z.string(),
        info: z.looseObject({ title: z.string(), version: z.string() }),
        paths: z.record(z.string(), z.unknown()),
      }),
      { openapi: '3.1.0', info: { title: 'Byline API', version: '1' }, paths: {} },
    ),
  },
  {
    method: 'GET',
    path: '/api/docs',
    tag: 'Documentation',
    access: 'public',
    summary: 'This documentation as a page to read',
    answer: file(['text/html'], 'The reference page'),
  },
];
