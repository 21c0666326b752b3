import type { FastifyInstance } from 'fastify';
import { LOGO_MAX_BYTES } from '../../../shared/constants';
import type { ModuleDeps } from '../../deps';
import { HttpError } from '../../lib/errors';
import { detectImage, looksLikeSvg } from '../../storage/file-type';
import { SvgRejectedError, sanitizeSvg } from '../../storage/svg-sanitize';
import { requireAdmin } from '../auth/guards';
import { readUpload } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';

/**
 * POST /api/upload/logo: logos and example screenshots (`?purpose=example`). The type comes from
 * the bytes; SVG (logos only) is rebuilt by the sanitiser before it is stored.
 */
export function logoUploadRoutes(app: FastifyInstance, { db, files, limits }: ModuleDeps) {
  app.post<{ Querystring: { purpose?: string } }>('/api/upload/logo', async (req) => {
    const admin = requireAdmin(req);
    const forExample = req.query.purpose === 'example';
    const { buffer, filename } = await readUpload(
      req,
      'logo',
      LOGO_MAX_BYTES,
      forExample ? 'Image must be smaller than 5MB' : 'Logo must be smaller than 5MB',
    );

    const image = await detectImage(buffer);
    // the bytes decide the type; a file whose name claims another image type is refused rather
    // than silently stored as something the admin did not pick (a PNG named logo.svg)
    const claimed = /\.(png|jpe?g|gif|webp|svg)$/i.exec(filename ?? '')?.[1].toLowerCase().replace('jpeg', 'jpg');
    const actual = image?.ext ?? (looksLikeSvg(buffer) ? 'svg' : undefined);
    if (claimed && actual && claimed !== actual) {
      throw new HttpError(415, `This file is not a valid .${claimed} image`);
    }
    if (image) {
      const name = await storeUpload(db, files, limits, admin, { data: buffer, ext: image.ext, mime: image.mime, kind: 'image' });
      return { url: `/uploads/${name}` };
    }
    if (forExample || !looksLikeSvg(buffer)) {
      throw new HttpError(
        415,
        forExample
          ? 'Please upload a JPEG, PNG, GIF or WEBP image'
          : 'Please upload a JPEG, PNG, GIF, WEBP or SVG image',
      );
    }
    let svg: string;
    try {
      svg = sanitizeSvg(buffer);
    } catch (err) {
      if (err instanceof SvgRejectedError) throw new HttpError(415, 'The SVG file could not be read as an image');
      throw err;
    }
    const name = await storeUpload(db, files, limits, admin, { data: Buffer.from(svg, 'utf8'), ext: 'svg', mime: 'image/svg+xml', kind: 'image' });
    return { url: `/uploads/${name}` };
  });
}
