import type { AttentionList } from '../../../shared/attention';
import type { BillingDetails } from '../../../shared/billing';
import type { Message } from '../../../shared/messages';
import type { Opportunity } from '../../../shared/opportunity';
import type { AdminPaymentItem, BrandPaymentItem, PaymentDto } from '../../../shared/payment';
import type { AdminPlacementItem, Publication, PublicationCheck } from '../../../shared/publication';
import type {
  AdminProjectItem,
  BriefPart1,
  BriefPart2,
  BriefResponse,
  MyArticleItem,
  ProjectPayment,
  SavedBrief,
} from '../../../shared/schemas/brief';
import type { InviteCode, PendingBrand } from '../../../shared/schemas/invite-code';
import type { TimelineEntry } from '../../../shared/timeline';
import type { PublicUser } from '../../../shared/user';

/**
 * The values the API documentation shows (GET /api/docs): one brand, one admin, one opportunity
 * and one placement, so the examples of every route tell one story. Each example is checked
 * against its route's schema by tests/api/openapi.test.ts.
 */

export const ids = {
  brand: '3f6b2c1e-8a4d-4c7e-9b21-5d0e6f7a8b9c',
  admin: '7c1d9e2f-3a4b-4c5d-8e6f-0a1b2c3d4e5f',
  opportunity: '0c5e7f1a-2b3d-4e5f-9a6b-7c8d9e0f1a2b',
  payment: '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f',
  message: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  inviteCode: 'e2d4f6a8-b0c2-4d4e-a6f8-0b2c4d6e8f0a',
} as const;

export const at = {
  signedUp: '2026-02-10T08:15:00.000Z',
  created: '2026-02-12T10:00:00.000Z',
  paid: '2026-03-02T09:30:00.000Z',
  briefSubmitted: '2026-03-03T14:05:00.000Z',
  published: '2026-03-20T11:00:00.000Z',
  guaranteeEnds: '2026-05-31T09:30:00.000Z',
  deadline: '2026-06-30T00:00:00.000Z',
} as const;

export const brandUser: PublicUser & { version: string } = {
  id: ids.brand,
  name: 'Jane Founder',
  email: 'jane@acme.example',
  role: 'brand',
  brandName: 'Acme Soil',
  website: 'https://acme.example',
  avatarUrl: '/uploads/Xq3v9JmT2kPz7bWc.png',
  approved: true,
  emailNotifications: true,
  createdAt: at.signedUp,
  version: 'p8Jw2LrQ5nVt0xKc7sYb3E',
};

export const brandContact = {
  id: ids.brand,
  name: brandUser.name,
  brandName: brandUser.brandName,
  email: brandUser.email,
};

export const opportunity: Opportunity = {
  id: ids.opportunity,
  title: 'Founder profile',
  outletName: 'The Daily Planet',
  outletUrl: 'https://dailyplanet.example',
  description: 'An in-depth profile of a founder, written by the Planet’s business desk.',
  type: ['profile_article'],
  tat: '2-3 weeks',
  priceUsd: '2500.00',
  logoUrl: '/uploads/Lg7pQ2sV9xKc4mNa.png',
  exampleUrls: ['https://dailyplanet.example/business/profile-of-a-founder'],
  maxSlots: 3,
  filledSlots: 1,
  domainAuthority: 88,
  deadlineDate: at.deadline,
  status: 'available',
  createdAt: at.created,
  tatDays: 21,
  linkType: 'dofollow',
  topics: ['business', 'startups'],
  country: 'US',
  language: 'en',
};

/** The opportunity as its edit form reads it. */
export const editedOpportunity = { ...opportunity, version: 'Qm4tZ9wX1cVb6nRk2pLs8A' };

const { status: _status, ...withoutStatus } = opportunity;
/** The opportunity as a brand sees it (no status). */
export const brandOpportunity = withoutStatus;

export const payment: PaymentDto = {
  id: ids.payment,
  brandId: ids.brand,
  opportunityId: ids.opportunity,
  stripePaymentId: 'pi_3PqLr2Eab12cd34EF56gh78',
  amount: '2500.00',
  status: 'paid',
  draftReviewStatus: 'pending_brand_review',
  draftDocumentUrl: null,
  draftDocumentFile: '/api/files/Dr4ftQ8wE2rT6yU1.pdf',
  brandFeedback: null,
  refundReason: null,
  paidAt: at.paid,
  releasedAt: null,
  refundedAt: null,
  createdAt: at.paid,
};

export const projectPayment: ProjectPayment = {
  id: payment.id,
  status: payment.status,
  draftReviewStatus: payment.draftReviewStatus,
  draftDocumentUrl: payment.draftDocumentUrl,
  draftDocumentFile: payment.draftDocumentFile,
  brandFeedback: payment.brandFeedback,
  stripePaymentId: payment.stripePaymentId,
  amount: payment.amount,
  createdAt: payment.createdAt,
};

export const briefPart1 = {
  personOrBrandName: 'Jane Founder',
  preferredTitle: 'Founder and CEO, Acme Soil',
  backgroundExperience: 'Agronomist for 20 years; founded Acme Soil in 2019.',
  inspiration: 'Watching family farms lose their topsoil.',
} satisfies BriefPart1;

export const briefPart2 = {
  mainGoal: 'Raise awareness of regenerative farming',
  targetAudience: 'Policy makers and investors',
  mainMessage: 'Healthy soil is climate action',
  seoKeywords: 'regenerative farming, soil health',
  socialMediaLinks: 'https://www.linkedin.com/company/acme-soil',
} satisfies BriefPart2;

export const check: PublicationCheck = {
  result: 'pass',
  checkedAt: at.published,
  httpStatus: 200,
  finalUrl: 'https://dailyplanet.example/business/acme-soil-founder',
  indexable: true,
  link: { found: true, rel: 'dofollow' },
  title: 'The founder who wants to save our soil',
  problems: [],
};

const publication: Publication = {
  url: 'https://dailyplanet.example/business/acme-soil-founder',
  health: 'ok',
  verifiedAt: at.published,
  guaranteeEndsAt: at.guaranteeEnds,
  overrideReason: null,
  lastCheck: check,
  issue: null,
  restoredAt: null,
};

export const myArticle: MyArticleItem = {
  id: opportunity.id,
  title: opportunity.title,
  type: opportunity.type,
  outletName: opportunity.outletName,
  priceUsd: opportunity.priceUsd,
  payment: projectPayment,
  brief: { submittedAt: at.briefSubmitted },
  publication: null,
  unreadMessages: 1,
};

export const adminProject: AdminProjectItem = {
  ...myArticle,
  brief: { part1Json: briefPart1, part2Json: briefPart2, submittedAt: at.briefSubmitted },
  user: brandContact,
  overdue: false,
  unreadMessages: 0,
};

export const savedBrief: SavedBrief = {
  paymentId: ids.payment,
  opportunityId: ids.opportunity,
  part1Json: briefPart1,
  part2Json: briefPart2,
  submittedAt: null,
  updatedAt: at.paid,
  version: 'k3VxQm9TzL2pR8sWc4Yb0A',
};

export const brief: BriefResponse = {
  part1Json: briefPart1,
  part2Json: briefPart2,
  source: 'saved',
  submittedAt: at.briefSubmitted,
  version: savedBrief.version,
};

export const brandPayment: BrandPaymentItem = {
  ...payment,
  opportunity: {
    id: opportunity.id,
    title: opportunity.title,
    outletName: opportunity.outletName,
    type: opportunity.type,
    priceUsd: opportunity.priceUsd,
  },
};

export const adminPayment: AdminPaymentItem = {
  ...payment,
  opportunity: {
    id: opportunity.id,
    title: opportunity.title,
    outletName: opportunity.outletName,
    priceUsd: opportunity.priceUsd,
  },
  user: brandContact,
  briefSubmittedAt: at.briefSubmitted,
};

export const released: PaymentDto = {
  ...payment,
  status: 'released',
  draftReviewStatus: 'approved',
  releasedAt: at.published,
};

export const placement: AdminPlacementItem = {
  paymentId: ids.payment,
  title: opportunity.title,
  outletName: opportunity.outletName,
  brand: brandContact,
  brandWebsite: brandUser.website,
  amount: payment.amount,
  publishedAt: at.published,
  nextCheckAt: '2026-03-21T11:00:00.000Z',
  failingSince: null,
  publication,
};

export const message: Message = {
  id: ids.message,
  side: 'admin',
  authorName: 'Ada Editor',
  text: 'The first draft is attached. Tell us what you think!',
  attachment: { name: 'draft-v1.pdf', contentType: 'application/pdf', size: 184_320 },
  createdAt: '2026-03-10T16:45:00.000Z',
};

export const timeline: TimelineEntry[] = [
  { id: '41', kind: 'paid', actor: { type: 'brand', name: 'Acme Soil' }, at: at.paid, details: { amount: '2500.00' } },
  {
    id: '42',
    kind: 'brief_submitted',
    actor: { type: 'brand', name: 'Acme Soil' },
    at: at.briefSubmitted,
    details: {},
  },
  {
    id: '57',
    kind: 'draft_attached',
    actor: { type: 'admin', name: 'Ada Editor' },
    at: '2026-03-10T16:40:00.000Z',
    details: { round: 1 },
  },
];

export const attention: AttentionList = {
  total: 1,
  items: [
    {
      paymentId: ids.payment,
      title: opportunity.title,
      outletName: opportunity.outletName,
      brand: brandContact,
      amount: payment.amount,
      paidAt: at.paid,
      reasons: [{ kind: 'unread_messages', count: 2 }, { kind: 'edits_requested' }],
      since: '2026-03-11T09:00:00.000Z',
    },
  ],
};

export const inviteCode: InviteCode = {
  id: ids.inviteCode,
  code: 'SPRING26',
  active: true,
  createdBy: ids.admin,
  createdAt: at.created,
};

export const pendingBrand: PendingBrand = {
  id: ids.brand,
  name: brandUser.name,
  email: brandUser.email,
  brandName: brandUser.brandName,
  website: brandUser.website,
  createdAt: at.signedUp,
};

export const billing: BillingDetails = {
  legalName: 'Acme Soil GmbH',
  addressLine1: 'Ackerstraße 12',
  addressLine2: null,
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  taxId: 'DE123456789',
  email: 'billing@acme.example',
};
