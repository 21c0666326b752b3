import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, badRequest, tooLarge, unsupportedMedia } from '../lib/errors';
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
  if (!req.isMultipart()) throw unsupportedMedia('multipart_required', 'Send the file as multipart/form-data');
  let file: SpooledFile | undefined;
  try {
    const part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 10 } });
    if (!part || part.fieldname !== field) {
      part?.file.resume();
      throw badRequest('file_missing', `No file uploaded in field "${field}"`, { [field]: 'No file selected' });
    }
    file = await spool(part.file);
    if (part.file.truncated) throw tooLarge('file_too_large', tooLargeMessage);
    if (file.size === 0) throw badRequest('file_empty', 'The file is empty', { [field]: 'The file is empty' });
    return { file, filename: part.filename };
  } catch (err) {
    await file?.dispose();
    if (err instanceof DomainError) throw err;
    if ((err as { code?: string })?.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge('file_too_large', tooLargeMessage);
    if (isParserRefusal(err)) throw err;
    // the parser's own errors (no boundary, body cut short) are a malformed request, not our fault
    throw badRequest('upload_unreadable', 'The upload could not be read. Please try again.', { [field]: 'The upload could not be read' });
  }
}

/**
 * The multipart parser's own refusal of the request (too many parts, a field too long): an error
 * of fastify's with a 4xx status of its own, passed on as it is rather than called a broken upload.
 */
export function isParserRefusal(err: unknown): err is Error & { statusCode: number } {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
