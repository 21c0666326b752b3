import { useMutation } from '@tanstack/react-query';
import type { EditProfileInput } from '@shared/schemas/profile';
import type { PublicUser } from '@shared/user';
import { apiRequest, apiUpload } from '@/lib/api';
import { refreshUser } from '@/lib/auth';

export function useUpdateProfile() {
  return useMutation({
    mutationFn: (input: EditProfileInput | { avatarUrl: string } | { emailNotifications: boolean }) => apiRequest<PublicUser>('PATCH', '/api/user/profile', input),
    onSuccess: () => refreshUser(),
  });
}

/** Uploads the picture, then saves its URL on the profile. */
export function useUploadAvatar() {
  const update = useUpdateProfile();
  return useMutation({
    mutationFn: async (file: File) => {
      const { url } = await apiUpload<{ url: string }>('/api/upload/avatar', 'avatar', file);
      return update.mutateAsync({ avatarUrl: url });
    },
  });
}
