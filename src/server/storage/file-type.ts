import { fileTypeFromFile, type FileTypeResult } from 'file-type';
import { fileIncludes, type SpooledFile } from './spooled-file';

/**
 * File types decided by their bytes, never by the name or the Content-Type a client sends. The
 * file-type package reads the signatures; this module only says which of its answers we take.
 */
export type DetectedType = { ext: 'png' | 'jpg' | 'gif' | 'webp' | 'svg' | 'pdf' | 'doc' | 'docx'; mime: string };

/** What the bytes are, by file-type (reading the file, not loading it); a file it cannot parse is not one we take. */
export async function sniff(file: SpooledFile): Promise<FileTypeResult | undefined> {
  return fileTypeFromFile(file.path).catch(() => undefined);
}

/** The images we take, by file-type's name for them; an animated PNG is a PNG to every browser. */
const IMAGE_EXT = new Map<string, 'png' | 'jpg' | 'gif' | 'webp'>([['png', 'png'], ['apng', 'png'], ['jpg', 'jpg'], ['gif', 'gif'], ['webp', 'webp']]);
// file-type takes anything starting "GIF" for a GIF; only these two versions exist
const GIF_HEADER = /^GIF8[79]a$/;

export async function detectImage(file: SpooledFile): Promise<DetectedType | null> {
  const found = await sniff(file);
  const ext = found && IMAGE_EXT.get(found.ext);
  if (!ext) return null;
  if (ext === 'gif' && !GIF_HEADER.test(file.head.toString('latin1', 0, 6))) return null;
  return { ext, mime: MIME_BY_EXT[ext] };
}

const NUL = Buffer.from([0]);

/** True when the bytes are an SVG document (text, with an <svg> root element). */
export async function looksLikeSvg(file: SpooledFile): Promise<boolean> {
  if (file.head.includes(0) || (file.size > file.head.length && (await fileIncludes(file, NUL)))) return false;
  const head = file.head.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  const withoutProlog = head.replace(/<\?xml[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '').replace(/<!DOCTYPE[^>]*>/gi, '').trimStart();
  return /^<svg[\s>]/i.test(withoutProlog);
}

export const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
