import { useMutation } from '@tanstack/react-query';
import { apiUpload } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

export type ImagePurpose = 'logo' | 'example';

/** Shared by every image upload of the form, so it can wait for them (useIsMutating). */
export const uploadImageKey = ['upload-image'];

/** POST /api/upload/logo (multipart field `logo`); `?purpose=example` for example screenshots (no SVG). */
function uploadImage(file: File, purpose: ImagePurpose) {
  const url = purpose === 'example' ? apiUrl('/api/upload/logo', {}, { purpose: 'example' }) : apiUrl('/api/upload/logo');
  return apiUpload<{ url: string }>(url, 'logo', file);
}

export const useUploadImage = (purpose: ImagePurpose) =>
  useMutation({ mutationKey: uploadImageKey, mutationFn: (file: File) => uploadImage(file, purpose) });
