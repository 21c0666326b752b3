import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../lib/errors';
import { spool, type SpooledFile } from './spooled-file';

/** The most any multipart request may carry; each route reads its file with a lower size limit of its own. */
const MULTIPART_LIMITS = { limits: { files: 1, fileSize: 30 * 1024 * 1024 } };

/**
 * Registers the routes that take a multipart/form-data upload in a context of their own, where the
 * multipart parser is. @fastify/multipart adds an onRequest and an onResponse hook to every route
 * of its context: registered here, they run for the upload routes only, not for every request the
 * server answers. Elsewhere a multipart body is refused with 415 (Unsupported content type).
 */
export function uploadRoutes(app: FastifyInstance, routes: (uploads: FastifyInstance) => void): void {
  void app.register(async (uploads) => {
    await uploads.register(multipart, MULTIPART_LIMITS);
    routes(uploads);
  });
}

/**
 * Reads the one file of a multipart request from `field` into a temporary file (spooled-file.ts),
 * refusing it past `maxBytes`. The caller disposes of the file once it is stored or refused.
 */
export async function readUpload(
  req: FastifyRequest,
  field: string,
  maxBytes: number,
  tooLargeMessage: string,
): Promise<{ file: SpooledFile; filename: string }> {
  if (!req.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data');
  let file: SpooledFile | undefined;
  try {
    const part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 10 } });
    if (!part || part.fieldname !== field) {
      part?.file.resume();
      throw badRequest(`No file uploaded in field "${field}"`, { [field]: 'No file selected' });
    }
    file = await spool(part.file);
    if (part.file.truncated) throw new HttpError(413, tooLargeMessage);
    if (file.size === 0) throw badRequest('The file is empty', { [field]: 'The file is empty' });
    return { file, filename: part.filename };
  } catch (err) {
    await file?.dispose();
    const e = err as { code?: string; statusCode?: number };
    if (err instanceof HttpError) throw err;
    if (e?.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, tooLargeMessage);
    if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) throw err;
    // the parser's own errors (no boundary, body cut short) are a malformed request, not our fault
    throw badRequest('The upload could not be read. Please try again.', { [field]: 'The upload could not be read' });
  }
}
