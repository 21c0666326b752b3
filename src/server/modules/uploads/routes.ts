import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES } from '../../../shared/constants';
import type { AppDeps } from '../../app';
import { HttpError, badRequest } from '../../lib/errors';
import { MIME_BY_EXT, detectImage } from '../../storage/file-type';
import { isSafeStoredName } from '../../storage/file-store';
import { requireUser } from '../auth/guards';

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

export const generatedName = (ext: string) => `${randomBytes(16).toString('hex')}.${ext}`;

export function uploadRoutes(app: FastifyInstance, { files }: AppDeps) {
  app.post('/api/upload/avatar', async (req) => {
    requireUser(req);
    const { buffer } = await readUpload(req, 'avatar', AVATAR_MAX_BYTES, 'Please upload an image smaller than 5MB');
    const type = detectImage(buffer);
    if (!type) throw new HttpError(415, 'Please upload an image file');
    const name = generatedName(type.ext);
    await files.put(name, buffer, type.mime);
    return { url: `/uploads/${name}` };
  });

  // Stored files are served inert: the type comes from our own generated extension, browsers may
  // not sniff another, and a sandbox CSP keeps any script inside a file from running.
  app.get<{ Params: { name: string } }>('/uploads/:name', async (req, reply) => {
    const { name } = req.params;
    // only images are public; draft documents (.pdf/.doc/.docx) are served by GET /api/files/:name to their owners
    if (!isSafeStoredName(name) || !MIME_BY_EXT[name.split('.').pop()!]?.startsWith('image/')) throw new HttpError(404, 'File not found');
    const file = await files.get(name);
    if (!file) throw new HttpError(404, 'File not found');
    const ext = name.split('.').pop()!;
    reply
      .header('Content-Type', MIME_BY_EXT[ext] ?? 'application/octet-stream')
      .header('Content-Length', file.size)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
      .header('Cache-Control', 'public, max-age=31536000, immutable');
    if (!MIME_BY_EXT[ext]?.startsWith('image/')) reply.header('Content-Disposition', 'attachment');
    return reply.send(file.stream);
  });
}
