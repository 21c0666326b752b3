import type { Module } from '../../deps';
import { HttpError } from '../../lib/errors';
import { MIME_BY_EXT } from '../../storage/file-type';
import { isSafeStoredName } from '../../storage/file-store';

/**
 * GET /uploads/{name}: the public images (logos, example screenshots, avatars). Stored files are
 * served inert: the type comes from our own generated extension, browsers may not sniff another,
 * and a sandbox CSP keeps any script inside a file from running. Draft documents are private and
 * served by the placements module (GET /api/files/{name}) to their owners only. With S3_PUBLIC_URL
 * the bucket serves the images and this route only redirects there (decision 020).
 */
export const uploadsModule: Module = async (app, { files }) => {
  app.get<{ Params: { name: string } }>('/uploads/:name', async (req, reply) => {
    const { name } = req.params;
    const ext = name.split('.').pop()!;
    if (!isSafeStoredName(name) || !MIME_BY_EXT[ext]?.startsWith('image/')) throw new HttpError(404, 'File not found');
    // a bucket with a public address (S3_PUBLIC_URL) serves its public images itself
    const direct = files.publicUrl?.(name);
    if (direct) return reply.header('Cache-Control', 'public, max-age=3600').redirect(direct, 302);
    const file = await files.get(name);
    if (!file) throw new HttpError(404, 'File not found');
    return reply
      .header('Content-Type', MIME_BY_EXT[ext])
      .header('Content-Length', file.size)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .send(file.stream);
  });
};
