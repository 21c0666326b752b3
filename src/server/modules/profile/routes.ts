import { z } from 'zod';
import { AVATAR_MAX_BYTES } from '../../../shared/constants';
import { avatarProfileSchema, completeProfileSchema, editProfileSchema, emailPreferenceSchema } from '../../../shared/schemas/profile';
import { onboardingSchema, profileAnswerSchema, userAnswerSchema } from '../../../shared/schemas/responses/account';
import { errorCodeSchema, urlAnswerSchema } from '../../../shared/schemas/responses/common';
import { baseVersionSchema } from '../../../shared/schemas/version';
import type { Module, ModuleDeps } from '../../deps';
import { route, userOf } from '../../lib/contract';
import { forbidden, unsupportedMedia } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { detectImage } from '../../storage/file-type';
import { readUpload, uploadRoutes } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';
import { toPublicUser, type SessionUser } from '../auth/users';
import { completeBrandProfile, editProfile, onboardingOf, setAvatar, setEmailNotifications } from './service';

type Body = Record<string, unknown>;
type Answer = ReturnType<typeof toPublicUser> & { autoApproved: boolean };

/** The four bodies of PATCH /api/user/profile, as documented (which applies: `changeOf`). */
const profileChangeSchema = z.union([
  completeProfileSchema.describe('Completing the profile ("Almost there"), with an invite code or without'),
  editProfileSchema.extend(baseVersionSchema.shape).describe('Editing the profile (with `baseVersion`, the `version` read)'),
  avatarProfileSchema.describe('The avatar: an image POST /api/upload/avatar stored'),
  emailPreferenceSchema.describe('The brand’s e-mail preference'),
]);

/**
 * The spec's one PATCH /api/user/profile carries four different changes; which one is named by the
 * body's members and by who sends it, decided here once, each handled by its own function.
 */
function changeOf(user: SessionUser, body: Body): 'avatar' | 'emailNotifications' | 'completion' | 'edit' {
  if ('avatarUrl' in body && !('name' in body)) return 'avatar';
  if ('emailNotifications' in body && !('name' in body)) return 'emailNotifications';
  // a brand with no name is completing its profile ("Almost there"); so is an unapproved brand
  // that comes back with an invite code
  const withCode = typeof body.inviteCode === 'string' && body.inviteCode.trim() !== '';
  if (user.role === 'brand' && (!user.name || (!user.approved && withCode))) return 'completion';
  return 'edit';
}

const handlers: Record<ReturnType<typeof changeOf>, (deps: ModuleDeps, user: SessionUser, body: unknown) => Promise<Answer>> = {
  async avatar({ db }, user, body) {
    const { avatarUrl } = parse(avatarProfileSchema, body);
    return { ...toPublicUser(await setAvatar(db, user, avatarUrl)), autoApproved: false };
  },
  async emailNotifications({ db }, user, body) {
    if (user.role !== 'brand') throw forbidden('brands_only', 'Only brands have e-mail preferences');
    const { emailNotifications } = parse(emailPreferenceSchema, body);
    return { ...toPublicUser(await setEmailNotifications(db, user, emailNotifications)), autoApproved: false };
  },
  async completion({ db, limits }, user, body) {
    const result = await completeBrandProfile(db, user, parse(completeProfileSchema, body), limits);
    return { ...toPublicUser(result.user), autoApproved: result.autoApproved };
  },
  async edit({ db }, user, body) {
    const input = parse(editProfileSchema, body);
    // the version the form started from (the user's `version`): an older one is refused with 409
    const { baseVersion } = parse(baseVersionSchema, body);
    return { ...toPublicUser(await editProfile(db, user, input, baseVersion)), autoApproved: false };
  },
};

const membersOf = (body: unknown): Body => (typeof body === 'object' && body !== null ? (body as Body) : {});

/** The user's own profile: completing it (onboarding), editing it, the avatar, e-mail preferences. */
export const profileModule: Module = async (app, deps) => {
  route(
    app,
    'PATCH',
    '/api/user/profile',
    {
      access: 'user',
      tags: ['Account'],
      spec: true,
      summary: 'Complete or edit the profile, set the avatar or the e-mail preference',
      description:
        'The body’s members name the change: `{avatarUrl}` alone sets the avatar, `{emailNotifications}` alone the brand’s e-mail preference; a brand without a name (or unapproved, with an invite code) completes its profile; anything else edits it (admins change only their name).',
      body: profileChangeSchema,
      // which of the four bodies applies depends on who sends it, so the change's own schema reads it
      bodyParsedByHandler: true,
      response: { 200: profileAnswerSchema },
      errors: {
        409: z
          .union([
            z.object({ message: z.string(), code: errorCodeSchema, current: userAnswerSchema }).describe('An edit based on an older copy of the profile (the body carries the `current` user)'),
            z.object({ message: z.string(), code: errorCodeSchema }).describe('A completion while an organisation’s invitation to this address is open: join by its link'),
          ])
          .describe('An edit based on an older copy of the profile; or a completion while an organisation’s invitation to this address is open'),
        403: 'An admin setting the e-mail preference (only brands have one); or not sent from Byline’s own pages (the `Origin` check)',
        429: 'Too many invite code attempts',
      },
    },
    async (req) => {
      const user = userOf(req);
      const body: unknown = req.body;
      return handlers[changeOf(user, membersOf(body))](deps, user, body);
    },
  );

  route(
    app,
    'GET',
    '/api/user/onboarding',
    {
      access: 'user',
      tags: ['Account'],
      summary: 'What an account in no organisation hears before the company form',
      description:
        'An organisation’s open invitation to the account’s address (profile completion is refused while it is open: the invitation’s link joins it), and the organisation an owner or admin removed the account from. Both null for an account in an organisation, and for admins.',
      response: { 200: onboardingSchema },
    },
    async (req) => onboardingOf(deps.db, userOf(req)),
  );

  uploadRoutes(app, (uploads) =>
    route(
      uploads,
      'POST',
      '/api/upload/avatar',
      {
        access: 'user',
        tags: ['Files'],
        spec: true,
        summary: 'Upload an avatar image',
        description: 'Set it with PATCH /api/user/profile `{avatarUrl}`.',
        upload: { avatar: { description: 'a JPEG, PNG, GIF or WEBP image, at most 5 MB', file: true } },
        response: { 200: urlAnswerSchema },
        errors: {
          413: 'Please upload an image smaller than 5MB',
          415: 'Please upload an image file',
          429: 'Too many uploads today',
        },
      },
      async (req) => {
        const user = userOf(req);
        const { file } = await readUpload(req, 'avatar', AVATAR_MAX_BYTES, 'Please upload an image smaller than 5MB');
        try {
          const type = await detectImage(file);
          if (!type) throw unsupportedMedia('image_type_refused', 'Please upload an image file');
          const name = await storeUpload(deps.db, deps.files, deps.limits, user, { source: file, ext: type.ext, mime: type.mime, kind: 'avatar' });
          return { url: `/uploads/${name}` };
        } finally {
          await file.dispose();
        }
      },
    ),
  );
};
