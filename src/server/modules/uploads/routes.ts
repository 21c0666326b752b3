import { z } from 'zod';
import type { Module } from '../../deps';
import { fileAnswer, noContent, route } from '../../lib/contract';
import { notFound } from '../../lib/errors';
import { MIME_BY_EXT } from '../../storage/file-type';
import { isSafeStoredName } from '../../storage/file-store';

const IMAGE_TYPES = Object.values(MIME_BY_EXT).filter((type) => type.startsWith('image/'));
const imageTypeOf = (name: string) => {
  const type = MIME_BY_EXT[name.split('.').pop()!];
  return type?.startsWith('image/') ? type : undefined;
};

/** A stored image's name: one the store generated, with an image's extension (anything else: 404). */
const imageParams = z.object({
  name: z
    .string({ error: 'File not found' })
    .refine((name) => isSafeStoredName(name) && imageTypeOf(name) !== undefined, 'File not found')
    .describe('the stored image’s name, as its URL gives it (`Xq3v9JmT2kPz7bWc.png`)'),
});

/**
 * GET /uploads/{name}: the public images (logos, example screenshots, avatars). Stored files are
 * served inert: the type comes from our own generated extension, browsers may not sniff another,
 * and a sandbox CSP keeps any script inside a file from running. Draft documents are private and
 * served by the placements module (GET /api/files/{name}) to their owners only. With S3_PUBLIC_URL
 * the bucket serves the images and this route only redirects there (decision 020).
 */
export const uploadsModule: Module = async (app, { files }) => {
  route(
    app,
    'GET',
    '/uploads/:name',
    {
      access: 'public',
      tags: ['Files'],
      summary: 'A public image (logos, example screenshots, avatars)',
      description: 'Served inert: `X-Content-Type-Options: nosniff`, a sandbox CSP, cached for a year (names never change).',
      params: imageParams,
      response: {
        200: fileAnswer(IMAGE_TYPES, 'The image'),
        302: noContent('With a bucket of public address (S3_PUBLIC_URL): `Location` is the image there'),
      },
      errors: { 404: 'File not found' },
    },
    async (req, reply) => {
      const { name } = req.params;
      // a bucket with a public address (S3_PUBLIC_URL) serves its public images itself
      const direct = files.publicUrl?.(name);
      if (direct) return reply.header('Cache-Control', 'public, max-age=3600').redirect(direct, 302);
      const file = await files.get(name);
      if (!file) throw notFound('file_not_found', 'File not found');
      return reply
        .header('Content-Type', imageTypeOf(name)!)
        .header('Content-Length', file.size)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        // the file's bytes, streamed as they are (its schema only says so: nothing is serialised)
        .send(file.stream as unknown as string);
    },
  );
};
