import { useMutation } from '@tanstack/react-query';
import type { PlacementPayment, UploadedDocument } from '@shared/schemas/brief';
import { ApiError, apiRequest } from '@/lib/api';
import { uploadWithProgress } from '@/lib/upload-progress';
import { invalidateProjects } from './admin-projects';
import { apiUrl } from '@shared/api-paths';

const UPLOAD_FAILED = 'Failed to upload file';

/** POST /api/upload/document (multipart field `file`) → the private path to attach; progress 0 to 1. */
async function uploadDocument(file: File, onProgress: (fraction: number) => void): Promise<string> {
  try {
    const { path } = await uploadWithProgress<UploadedDocument>(apiUrl('/api/upload/document'), 'file', file, onProgress);
    return path;
  } catch (err) {
    // the server's own refusal (too large, not a .doc/.docx/.pdf: it has a code) says why; anything
    // else (a proxy's page, no answer) is generic
    const told = err instanceof ApiError && err.status < 500 && err.code !== undefined;
    throw new Error(told ? err.message : UPLOAD_FAILED);
  }
}

export type DraftInput =
  | { kind: 'url'; url: string }
  | { kind: 'file'; file: File | null; existing: string | null; onProgress: (fraction: number) => void };

/**
 * Uploads the file when one was chosen, then PATCH /api/admin/payments/{id}/status with
 * {draftDocumentUrl} or {draftDocumentFile}. Attaching moves the project to Pending Review.
 */
export function useAttachDraft(paymentId: string) {
  return useMutation({
    mutationFn: async (input: DraftInput) => {
      const body =
        input.kind === 'url'
          ? { draftDocumentUrl: input.url.trim() }
          : { draftDocumentFile: input.file ? await uploadDocument(input.file, input.onProgress) : input.existing };
      return apiRequest<PlacementPayment>('PATCH', apiUrl('/api/admin/payments/:id/status', { id: paymentId }), body);
    },
    onSettled: invalidateProjects,
  });
}
