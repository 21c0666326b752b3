import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LOGO_MAX_BYTES } from '../../../shared/constants';
import { urlAnswerSchema } from '../../../shared/schemas/responses/common';
import type { ModuleDeps } from '../../deps';
import { route, userOf } from '../../lib/contract';
import { unsupportedMedia } from '../../lib/errors';
import { detectImage, looksLikeSvg } from '../../storage/file-type';
import type { SpooledFile } from '../../storage/spooled-file';
import { SvgRejectedError, sanitizeSvg } from '../../storage/svg-sanitize';
import { readUpload } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';

/**
 * POST /api/upload/logo: logos and example screenshots (`?purpose=example`). The type comes from
 * the bytes; SVG (logos only) is rebuilt by the sanitiser before it is stored.
 */
export function logoUploadRoutes(app: FastifyInstance, { db, files, limits }: ModuleDeps) {
  route(
    app,
    'POST',
    '/api/upload/logo',
    {
      access: 'admin',
      tags: ['Files'],
      spec: true,
      summary: 'Upload an outlet logo or an example screenshot',
      description:
        'The type comes from the bytes; an SVG logo is rebuilt by the sanitiser before it is stored. `?purpose=example` for example screenshots (no SVG).',
      // any other purpose is a logo, as it always was
      querystring: z.object({
        purpose: z.string().optional().describe('`example`: an example screenshot rather than a logo'),
      }),
      upload: { logo: { description: 'a JPEG, PNG, GIF, WEBP or (logos only) SVG image, at most 5 MB', file: true } },
      response: { 200: urlAnswerSchema },
      errors: { 429: 'Too many uploads today' },
    },
    async (req) => {
      const admin = userOf(req);
      const forExample = req.query.purpose === 'example';
      const { file, filename } = await readUpload(
        req,
        'logo',
        LOGO_MAX_BYTES,
        forExample ? 'Image must be smaller than 5MB' : 'Logo must be smaller than 5MB',
      );
      try {
        return { url: `/uploads/${await storeImage(admin, file, filename, forExample)}` };
      } finally {
        await file.dispose();
      }
    },
  );

  async function storeImage(
    admin: { id: string; role: string },
    file: SpooledFile,
    filename: string | undefined,
    forExample: boolean,
  ) {
    const image = await detectImage(file);
    const svg = !image && (await looksLikeSvg(file));
    // the bytes decide the type; a file whose name claims another image type is refused rather
    // than silently stored as something the admin did not pick (a PNG named logo.svg)
    const claimed = /\.(png|jpe?g|gif|webp|svg)$/i
      .exec(filename ?? '')?.[1]
      .toLowerCase()
      .replace('jpeg', 'jpg');
    const actual = image?.ext ?? (svg ? 'svg' : undefined);
    if (claimed && actual && claimed !== actual) {
      throw unsupportedMedia('invalid_image', `This file is not a valid .${claimed} image`);
    }
    if (image) {
      return storeUpload(db, files, limits, admin, { source: file, ext: image.ext, mime: image.mime, kind: 'image' });
    }
    if (forExample || !svg) {
      throw unsupportedMedia('image_type_refused', forExample
          ? 'Please upload a JPEG, PNG, GIF or WEBP image'
          : 'Please upload a JPEG, PNG, GIF, WEBP or SVG image',
      );
    }
    let clean: Buffer;
    try {
      // an SVG logo (5 MB at most) is read whole: the sanitiser rebuilds it from its parsed tree
      clean = Buffer.from(sanitizeSvg(await readFile(file.path)), 'utf8');
    } catch (err) {
      if (err instanceof SvgRejectedError) throw unsupportedMedia('invalid_svg', 'The SVG file could not be read as an image');
      throw err;
    }
    const source = { size: clean.length, open: () => Readable.from([clean]) };
    return storeUpload(db, files, limits, admin, { source, ext: 'svg', mime: 'image/svg+xml', kind: 'image' });
  }
}
