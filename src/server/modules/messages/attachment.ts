import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { DOCUMENT_MAX_BYTES } from '../../../shared/constants';
import { DomainError, badRequest, tooLarge } from '../../lib/errors';
import { detectDocument } from '../../storage/document-type';
import { detectImage } from '../../storage/file-type';
import { isParserRefusal } from '../../storage/read-upload';
import { spool, type SpooledFile } from '../../storage/spooled-file';

const TOO_LARGE = 'File must be smaller than 25MB';
const ATTACHMENT_TYPES = 'Please upload a PDF, DOC, DOCX, PNG or JPEG file';
/** a 5,000-character text is at most 20,000 bytes of UTF-8; anything longer is refused as too long */
const TEXT_FIELD_MAX_BYTES = 64 * 1024;

export interface AttachmentUpload {
  /** the spooled upload (read-upload.ts): disposed of by whoever read the form */
  file: SpooledFile;
  /** our extension and type, from the bytes */
  ext: 'pdf' | 'doc' | 'docx' | 'png' | 'jpg';
  mime: string;
  kind: 'document' | 'image';
  /** the name shown and downloaded: the client's, cleaned, with our extension */
  name: string;
}

/**
 * A multipart message: the `text` field and at most one `file`, in either order. The same limits
 * and messages as the other uploads (storage/read-upload.ts); the file is spooled to a temporary
 * file, which the caller disposes of.
 */
export async function readMessageForm(
  req: FastifyRequest,
): Promise<{ text: unknown; fields: Record<string, string>; file: { spooled: SpooledFile; filename: string } | null }> {
  let text: unknown = undefined;
  // the other fields of a form that carries more than a message (a dispute's reason, outcome, amount)
  const fields: Record<string, string> = {};
  let file: { spooled: SpooledFile; filename: string } | null = null;
  try {
    const parts = req.parts({
      limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 8, fieldSize: TEXT_FIELD_MAX_BYTES },
    });
    for await (const part of parts as AsyncIterableIterator<Multipart>) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest('file_missing', 'Attach the file in the field "file"', { file: 'No file selected' });
        }
        file = { spooled: await spool(part.file), filename: part.filename };
        if (part.file.truncated) throw tooLarge('file_too_large', TOO_LARGE);
        if (file.spooled.size === 0) throw badRequest('file_empty', 'The file is empty', { file: 'The file is empty' });
      } else if (part.fieldname === 'text') {
        // a value past fieldSize is cut short by the parser: it was longer than any message may be
        text = part.valueTruncated ? 'x'.repeat(TEXT_FIELD_MAX_BYTES) : part.value;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    await file?.spooled.dispose();
    if (err instanceof DomainError) throw err;
    if ((err as { code?: string })?.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge('file_too_large', TOO_LARGE);
    if (isParserRefusal(err))
      throw badRequest('upload_invalid', (err as Error).message);
    throw badRequest('upload_unreadable', 'The upload could not be read. Please try again.', { file: 'The upload could not be read' });
  }
  return { text, fields, file };
}

/** Strips a client's file name to something safe to show and to offer as a download name. */
function cleanName(filename: string, ext: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? '')
    // control characters, quotes and the like have no place in a header or on screen
    .replace(/[\p{Cc}\p{Cf}"<>:|?*]/gu, '')
    .replace(/\.[^.]*$/, '')
    .trim()
    .slice(0, 120);
  // the extension is ours: a PDF named "invoice.html" downloads as invoice.pdf
  return `${base || 'attachment'}.${ext}`;
}

/** What the bytes are: a PDF, a Word document, a PNG or a JPEG; anything else is refused (400). */
export async function checkAttachment(file: { spooled: SpooledFile; filename: string }): Promise<AttachmentUpload> {
  const image = await detectImage(file.spooled);
  if (image && (image.ext === 'png' || image.ext === 'jpg')) {
    return {
      file: file.spooled,
      ext: image.ext,
      mime: image.mime,
      kind: 'image',
      name: cleanName(file.filename, image.ext),
    };
  }
  if (image) throw badRequest('attachment_type_refused', ATTACHMENT_TYPES, { file: ATTACHMENT_TYPES });
  const doc = await detectDocument(file.spooled);
  if (!doc.ok) {
    // a file that is no document at all is told what may be attached; a broken one what is wrong with it
    const message = doc.message === 'Please upload a .doc, .docx or .pdf file' ? ATTACHMENT_TYPES : doc.message;
    throw badRequest('attachment_type_refused', message, { file: message });
  }
  return { file: file.spooled, ext: doc.ext, mime: doc.mime, kind: 'document', name: cleanName(file.filename, doc.ext) };
}

/** A download name in Content-Disposition: ASCII for old clients, the real name as RFC 5987 UTF-8. */
function dispositionOf(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * An attachment's bytes, as a download that never runs in the page (sandboxed, not sniffed, not
 * cached). On the plain reply: the route's contract types its reply for JSON.
 */
export function sendAttachment(
  reply: FastifyReply,
  attachment: { name: string; type: string },
  file: { stream: Readable; size: number },
) {
  return reply
    .header('Content-Type', attachment.type)
    .header('Content-Length', file.size)
    .header('Content-Disposition', dispositionOf(attachment.name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "sandbox; default-src 'none'")
    .header('Cache-Control', 'private, no-store')
    .send(file.stream);
}
