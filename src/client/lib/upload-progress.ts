import { ApiError } from './api';

/**
 * POST one file as multipart form data, reporting how much of it has gone up (0 to 1). fetch()
 * cannot tell upload progress, XMLHttpRequest can: a 25 MB draft takes a while on a slow line, and
 * "Uploading..." alone for that long reads as stuck. Answers and errors are read as lib/api reads them.
 */
export function uploadWithProgress<T>(
  url: string,
  field: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<T> {
  const form = new FormData();
  form.append(field, file);
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const text = xhr.responseText;
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve((text ? JSON.parse(text) : undefined) as T);
        return;
      }
      reject(toError(xhr.status, xhr.statusText, text));
    };
    // no answer at all (offline, a dropped connection), as lib/api words it
    xhr.onerror = () => reject(new ApiError(0, "You're offline. Check your connection and try again."));
    xhr.send(form);
  });
}

function toError(status: number, statusText: string, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { message?: string; errors?: Record<string, string> };
    if (body && typeof body.message === 'string') return new ApiError(status, body.message, body.errors, body);
  } catch {
    // not JSON: the spec's "status: body" form
  }
  return new ApiError(status, `${status}: ${text || statusText}`);
}
