import type { FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES } from '../../../shared/constants';
import { avatarProfileSchema, completeProfileSchema, editProfileSchema, emailPreferenceSchema } from '../../../shared/schemas/profile';
import { baseVersionSchema } from '../../../shared/schemas/version';
import type { Module, ModuleDeps } from '../../deps';
import { HttpError, forbidden } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { detectImage } from '../../storage/file-type';
import { readUpload, uploadRoutes } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';
import { requireUser } from '../auth/guards';
import { toPublicUser, type SessionUser } from '../auth/users';
import { completeBrandProfile, editProfile, setAvatar, setEmailNotifications } from './service';

type Body = Record<string, unknown>;
type Answer = ReturnType<typeof toPublicUser> & { autoApproved: boolean };

/**
 * The spec's one PATCH /api/user/profile carries four different changes; which one is named by the
 * body's members, decided here once, each handled by its own function.
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
    if (user.role !== 'brand') throw forbidden('Only brands have e-mail preferences');
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

const membersOf = (req: FastifyRequest): Body => (typeof req.body === 'object' && req.body !== null ? (req.body as Body) : {});

/** The user's own profile: completing it (onboarding), editing it, the avatar, e-mail preferences. */
export const profileModule: Module = async (app, deps) => {
  app.patch('/api/user/profile', async (req) => {
    const user = requireUser(req);
    // decided on the body's members; each handler parses the body as it came
    return handlers[changeOf(user, membersOf(req))](deps, user, req.body);
  });

  uploadRoutes(app, (uploads) =>
    uploads.post('/api/upload/avatar', async (req) => {
      const user = requireUser(req);
      const { file } = await readUpload(req, 'avatar', AVATAR_MAX_BYTES, 'Please upload an image smaller than 5MB');
      try {
        const type = await detectImage(file);
        if (!type) throw new HttpError(415, 'Please upload an image file');
        const name = await storeUpload(deps.db, deps.files, deps.limits, user, { source: file, ext: type.ext, mime: type.mime, kind: 'avatar' });
        return { url: `/uploads/${name}` };
      } finally {
        await file.dispose();
      }
    }),
  );
};
