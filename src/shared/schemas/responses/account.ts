import { z } from 'zod';
import { INVITABLE_ROLES } from '../../org';
import { id, timestamp, version } from './common';

/** The user as the API returns it: never the password hash (the type `PublicUser`). */
export const publicUserSchema = z.object({
  id,
  name: z.string().nullable().describe('null until a brand completes its profile'),
  email: z.string(),
  role: z.enum(['admin', 'brand']),
  brandName: z.string().nullable(),
  website: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  approved: z.boolean().describe('a brand reaches the portal once approved (by an admin or an invite code)'),
  emailNotifications: z
    .boolean()
    .describe('brands: progress e-mails on (receipts, refunds and password mail always go)'),
  createdAt: timestamp,
});

/** Every answer that is the user: with the version of what the profile form edits. */
export const userAnswerSchema = publicUserSchema.extend({ version }).meta({ id: 'User' });

/** PATCH /api/user/profile: the user, and whether an invite code approved the brand just now. */
export const profileAnswerSchema = userAnswerSchema
  .extend({ autoApproved: z.boolean().describe('true when the completion’s invite code approved the brand') })
  .meta({ id: 'ProfileAnswer' });

/**
 * GET /api/user/onboarding: what a signed-in account in no organisation hears before the company
 * form (issue 57): an organisation's open invitation to its address (joined by the e-mail's link),
 * and the organisation that removed it.
 */
export const onboardingSchema = z
  .object({
    invitation: z
      .object({ organisationName: z.string(), role: z.enum(INVITABLE_ROLES) })
      .nullable()
      .describe('an open invitation to this address: profile completion is refused while it is open'),
    removedFrom: z
      .object({ organisationName: z.string(), at: timestamp })
      .nullable()
      .describe('the organisation an owner or admin removed this account from, and when'),
  })
  .meta({ id: 'Onboarding' });
export type Onboarding = z.infer<typeof onboardingSchema>;

/** GET /api/admin/pending-brands item. */
export const pendingBrandSchema = z
  .object({
    id,
    name: z.string().nullable(),
    email: z.string(),
    brandName: z.string().nullable(),
    website: z.string().nullable(),
    createdAt: timestamp,
    sameDomain: z
      .array(z.object({ id, name: z.string() }))
      .describe(
        'other organisations with a member at this e-mail’s domain (public mail domains aside), at most 5: a second organisation of the same company, whose person should rather be invited to it (issue 57)',
      ),
  })
  .meta({ id: 'PendingBrand' });

export const inviteCodeSchema = z
  .object({
    id,
    code: z.string().describe('stored and matched in upper case'),
    active: z.boolean(),
    createdBy: id.nullable().describe('the admin who created it'),
    createdAt: timestamp,
  })
  .meta({ id: 'InviteCode' });

/** GET /api/terms: the terms brands agree to, as Markdown (the client renders it without any HTML). */
export const termsSchema = z
  .object({
    markdown: z.string().describe('the terms of service (TERMS_FILE)'),
    rules: z
      .object({
        revisionsIncluded: z.number().int(),
        responseDays: z.number().int(),
        disputeDays: z.number().int(),
        escalateDays: z.number().int(),
        decideDays: z.number().int(),
        swapDays: z.number().int(),
        restoreDays: z.number().int(),
        publicationGuaranteeDays: z.number().int(),
        guaranteeDays: z.number().int(),
        reminderHours: z.number().int().describe('hours before an automatic step that the side who can still act is reminded'),
        promiseMinDeliveries: z.number().int().describe('PROMISE_MIN_DELIVERIES: deliveries before an outlet’s record makes its promise'),
        briefDays: z.number().int().describe('BRIEF_DAYS: business days the brand has to send its brief, counted in every promise'),
        lateCreditPercent: z.number().int().describe('LATE_CREDIT_PERCENT: percent of the price credited for each business day late past "Live by"'),
        lateCreditMaxPercent: z.number().int().describe('LATE_CREDIT_MAX_PERCENT: the most all late credits of a placement add up to, in percent of its price'),
        lateCancelDays: z.number().int().describe('LATE_CANCEL_DAYS: business days late after which the brand may cancel for all that is left'),
        reviewDays: z.number().int().describe('REVIEW_DAYS: business days the brand has to review a draft (its stage clock)'),
        editDays: z.number().int().describe('EDIT_DAYS: business days the editorial team has for each round of edits (its stage clock)'),
      })
      .describe('the numbers the server enforces (issue 47): the settings REVISIONS_INCLUDED, RESPONSE_DAYS, DISPUTE_DAYS, the escalation’s 3 and 10 days, SWAP_DAYS, RESTORE_DAYS, PUBLICATION_GUARANTEE_DAYS, and the spec’s guarantee'),
    rulesMarkdown: z.string().describe('the revision, cancellation and refund rules, written from `rules`'),
  })
  .meta({ id: 'Terms' });
