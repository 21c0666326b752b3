import { useMutation } from '@tanstack/react-query';
import type { EditProfileInput } from '@shared/schemas/profile';
import type { PublicUser } from '@shared/user';
import { apiRequest, apiUpload } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

export function useUpdateProfile() {
  return useMutation({
    // the form's save carries the version it started from (a save on an older copy is a 409, decision 019)
    mutationFn: (input: (EditProfileInput & { baseVersion?: string }) | { avatarUrl: string } | { emailNotifications: boolean }) =>
      apiRequest<PublicUser>('PATCH', apiUrl('/api/user/profile'), input),
    // the owner's company name is its organisation's name (the user menu shows it)
    onSuccess: () => Promise.all([refreshUser(), queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org')] })]),
  });
}

/** Uploads the picture, then saves its URL on the profile. */
export function useUploadAvatar() {
  const update = useUpdateProfile();
  return useMutation({
    mutationFn: async (file: File) => {
      const { url } = await apiUpload<{ url: string }>(apiUrl('/api/upload/avatar'), 'avatar', file);
      return update.mutateAsync({ avatarUrl: url });
    },
  });
}
