import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../lib/errors';

/** Reads the one file of a multipart request from `field`, refusing it past `maxBytes`. */
export async function readUpload(
  req: FastifyRequest,
  field: string,
  maxBytes: number,
  tooLargeMessage: string,
): Promise<{ buffer: Buffer; filename: string }> {
  if (!req.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data');
  try {
    const part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 10 } });
    if (!part || part.fieldname !== field) {
      part?.file.resume();
      throw badRequest(`No file uploaded in field "${field}"`, { [field]: 'No file selected' });
    }
    const buffer = await part.toBuffer();
    if (part.file.truncated) throw new HttpError(413, tooLargeMessage);
    if (buffer.length === 0) throw badRequest('The file is empty', { [field]: 'The file is empty' });
    return { buffer, filename: part.filename };
  } catch (err) {
    const e = err as { code?: string; statusCode?: number };
    if (err instanceof HttpError) throw err;
    if (e?.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, tooLargeMessage);
    if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) throw err;
    // the parser's own errors (no boundary, body cut short) are a malformed request, not our fault
    throw badRequest('The upload could not be read. Please try again.', { [field]: 'The upload could not be read' });
  }
}
