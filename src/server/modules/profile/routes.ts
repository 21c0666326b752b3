import type { FastifyInstance } from 'fastify';
import { avatarProfileSchema, completeProfileSchema, editProfileSchema, emailPreferenceSchema } from '../../../shared/schemas/profile';
import type { AppDeps } from '../../app';
import { parse } from '../../lib/validate';
import { requireUser } from '../auth/guards';
import { toPublicUser } from '../auth/users';
import { forbidden } from '../../lib/errors';
import { completeBrandProfile, editProfile, setAvatar, setEmailNotifications } from './service';

export function profileRoutes(app: FastifyInstance, { db }: AppDeps) {
  app.patch('/api/user/profile', async (req) => {
    const user = requireUser(req);
    const body = (req.body ?? {}) as Record<string, unknown>;

    if (body && typeof body === 'object' && 'avatarUrl' in body && !('name' in body)) {
      const { avatarUrl } = parse(avatarProfileSchema, body);
      return { ...toPublicUser(await setAvatar(db, user, avatarUrl)), autoApproved: false };
    }

    if (body && typeof body === 'object' && 'emailNotifications' in body && !('name' in body)) {
      if (user.role !== 'brand') throw forbidden('Only brands have e-mail preferences');
      const { emailNotifications } = parse(emailPreferenceSchema, body);
      return { ...toPublicUser(await setEmailNotifications(db, user, emailNotifications)), autoApproved: false };
    }

    // a brand with no name is completing its profile ("Almost there"); so is an unapproved
    // brand that comes back with an invite code
    if (user.role === 'brand' && (!user.name || (!user.approved && typeof body.inviteCode === 'string' && body.inviteCode.trim()))) {
      const input = parse(completeProfileSchema, body);
      const result = await completeBrandProfile(db, user, input);
      return { ...toPublicUser(result.user), autoApproved: result.autoApproved };
    }

    const input = parse(editProfileSchema, body);
    return { ...toPublicUser(await editProfile(db, user, input)), autoApproved: false };
  });
}
