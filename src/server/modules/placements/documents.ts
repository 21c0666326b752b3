import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../deps';
import { HttpError, notFound } from '../../lib/errors';
import { DOCUMENT_MAX_BYTES } from '../../../shared/constants';
import type { UploadedDocument } from '../../../shared/schemas/brief';
import { DOCUMENT_MIME, detectDocument, type DocumentExt } from '../../storage/document-type';
import { isSafeStoredName } from '../../storage/file-store';
import { readUpload } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';
import { requireAdmin, requireUser } from '../auth/guards';
import { mayDownloadDraft } from './review';

const DRAFT_FILES_PREFIX = '/api/files/';
const DRAFT_NAME = /^[A-Za-z0-9_-]+\.(pdf|doc|docx)$/;

/**
 * Draft documents are private: they are stored with generated names and served only here, to
 * admins and to the brand whose payment holds the draft, never by the public /uploads/ route.
 */
export function documentRoutes(app: FastifyInstance, { db, files, limits }: ModuleDeps) {
  app.post('/api/upload/document', async (req): Promise<UploadedDocument> => {
    const admin = requireAdmin(req);
    const { file } = await readUpload(req, 'file', DOCUMENT_MAX_BYTES, 'File must be smaller than 25MB');
    try {
      const type = await detectDocument(file);
      if (!type.ok) throw new HttpError(415, type.message);
      const name = await storeUpload(db, files, limits, admin, { source: file, ext: type.ext, mime: type.mime, kind: 'document' });
      return { path: `${DRAFT_FILES_PREFIX}${name}` };
    } finally {
      await file.dispose();
    }
  });

  app.get<{ Params: { name: string } }>('/api/files/:name', async (req, reply) => {
    const user = requireUser(req);
    const { name } = req.params;
    // another brand's draft looks exactly like a missing one
    if (!DRAFT_NAME.test(name) || !isSafeStoredName(name)) throw notFound('File not found');
    if (!(await mayDownloadDraft(db, user, `${DRAFT_FILES_PREFIX}${name}`))) throw notFound('File not found');
    const file = await files.get(name);
    if (!file) throw notFound('File not found');
    const ext = name.split('.').pop() as DocumentExt;
    return reply
      .header('Content-Type', DOCUMENT_MIME[ext])
      .header('Content-Length', file.size)
      .header('Content-Disposition', `attachment; filename="draft.${ext}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "sandbox; default-src 'none'")
      .header('Cache-Control', 'private, no-store')
      .send(file.stream);
  });
}
