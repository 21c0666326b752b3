import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DOCUMENT_MAX_BYTES } from '../../../shared/constants';
import { uploadedDocumentSchema } from '../../../shared/schemas/responses/placement';
import type { ModuleDeps } from '../../deps';
import { fileAnswer, route, userOf } from '../../lib/contract';
import { notFound, unsupportedMedia } from '../../lib/errors';
import { DOCUMENT_MIME, detectDocument, type DocumentExt } from '../../storage/document-type';
import { isSafeStoredName } from '../../storage/file-store';
import { readUpload } from '../../storage/read-upload';
import { storeUpload } from '../../storage/uploads';
import { mayDownloadDraft } from './review';

const DRAFT_FILES_PREFIX = '/api/files/';
const DRAFT_NAME = /^[A-Za-z0-9_-]+\.(pdf|doc|docx)$/;

/**
 * Draft documents are private: they are stored with generated names and served only here, to
 * admins and to the brand whose payment holds the draft, never by the public /uploads/ route.
 */
export function documentRoutes(app: FastifyInstance, { db, files, limits }: ModuleDeps) {
  route(
    app,
    'POST',
    '/api/upload/document',
    {
      access: 'admin',
      tags: ['Files'],
      spec: true,
      summary: 'Upload a draft document (private to the brand and admins)',
      upload: { file: { description: 'a PDF, DOC or DOCX file (by its bytes), at most 25 MB', file: true } },
      response: { 200: uploadedDocumentSchema },
      errors: {
        413: 'File must be smaller than 25MB',
        415: 'Please upload a .doc, .docx or .pdf file',
        429: 'Too many uploads today',
      },
    },
    async (req) => {
      const admin = userOf(req);
      const { file } = await readUpload(req, 'file', DOCUMENT_MAX_BYTES, 'File must be smaller than 25MB');
      try {
        const type = await detectDocument(file);
        if (!type.ok) throw unsupportedMedia('file_type_refused', type.message);
        const name = await storeUpload(db, files, limits, admin, { source: file, ext: type.ext, mime: type.mime, kind: 'document' });
        return { path: `${DRAFT_FILES_PREFIX}${name}` };
      } finally {
        await file.dispose();
      }
    },
  );

  route(
    app,
    'GET',
    '/api/files/:name',
    {
      access: 'user',
      tags: ['Files'],
      summary: 'Download a draft document (the brand of its payment and admins only)',
      // another brand's draft looks exactly like a missing one
      params: z.object({ name: z.string().regex(DRAFT_NAME, 'File not found').describe('the stored name, as the upload answered it') }),
      response: { 200: fileAnswer(Object.values(DOCUMENT_MIME), 'The draft, as an attachment') },
      errors: { 404: 'File not found (also another brand’s)' },
    },
    async (req, reply) => {
      const user = userOf(req);
      const { name } = req.params;
      if (!isSafeStoredName(name)) throw notFound('file_not_found', 'File not found');
      if (!(await mayDownloadDraft(db, user, `${DRAFT_FILES_PREFIX}${name}`))) throw notFound('file_not_found', 'File not found');
      const file = await files.get(name);
      if (!file) throw notFound('file_not_found', 'File not found');
      const ext = name.split('.').pop() as DocumentExt;
      return reply
        .header('Content-Type', DOCUMENT_MIME[ext])
        .header('Content-Length', file.size)
        .header('Content-Disposition', `attachment; filename="draft.${ext}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "sandbox; default-src 'none'")
        .header('Cache-Control', 'private, no-store')
        // the file's bytes, streamed as they are (its schema only says so: nothing is serialised)
        .send(file.stream as unknown as string);
    },
  );
}
