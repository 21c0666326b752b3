import { sniff } from './file-type';
import { FileBytes, fileIncludes, type SpooledFile } from './spooled-file';

/**
 * Draft documents (.pdf, .doc, .docx) recognised by their bytes (the file-type package), never by
 * the name or the Content-Type the client sends, read from the spooled file (never loaded whole).
 * A .docx is a zip: checkDocx reads only its central directory (nothing is unpacked) and refuses archives that would unpack to something huge,
 * since whoever downloads the draft opens it.
 */
export type DocumentExt = 'pdf' | 'doc' | 'docx';
export type DocumentCheck = { ok: true; ext: DocumentExt; mime: string } | { ok: false; message: string };

const DOCX_MAX_UNPACKED_BYTES = 100 * 1024 * 1024;
const DOCX_MAX_ENTRIES = 2000;

const DOCUMENT_TYPE_MESSAGE = 'Please upload a .doc, .docx or .pdf file';

export const DOCUMENT_MIME: Record<DocumentExt, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

// a Word 97-2003 file keeps its text in a stream of this name (directory entries are UTF-16LE)
const WORD_STREAM = Buffer.from('WordDocument', 'utf16le');

export async function detectDocument(file: SpooledFile): Promise<DocumentCheck> {
  const found = await sniff(file);
  switch (found?.ext) {
    case 'pdf':
      return { ok: true, ext: 'pdf', mime: DOCUMENT_MIME.pdf };
    case 'cfb':
      // Excel, PowerPoint and installers share the OLE2 container; only a Word document is a draft
      if (!(await fileIncludes(file, WORD_STREAM))) return { ok: false, message: 'This file is not a Word document' };
      return { ok: true, ext: 'doc', mime: DOCUMENT_MIME.doc };
    // file-type names a zip 'docx' only when its [Content_Types].xml says so, and 'zip' otherwise:
    // either may be a Word document, and checkDocx decides
    case 'docx':
    case 'zip': {
      const bytes = await FileBytes.open(file);
      const problem = await checkDocx(bytes).finally(() => bytes.close());
      return problem ? { ok: false, message: problem } : { ok: true, ext: 'docx', mime: DOCUMENT_MIME.docx };
    }
    default:
      return { ok: false, message: DOCUMENT_TYPE_MESSAGE };
  }
}

const EOCD_SIG = 0x06054b50;
const CDH_SIG = 0x02014b50;

/** Reads the zip's central directory; returns why it is not an acceptable .docx, or null. */
async function checkDocx(file: FileBytes): Promise<string | null> {
  const notDocx = 'This file is not a valid .docx document';
  // end of central directory: 22 bytes plus a comment of at most 65535, so within the last 65557
  const tailStart = Math.max(0, file.size - 22 - 0xffff);
  const tail = await file.at(tailStart, file.size - tailStart);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return notDocx;
  const entries = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  eocd += tailStart; // from here on a position in the file
  // Zip64 markers: a Word draft never needs them
  if (entries === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) return notDocx;
  if (entries > DOCX_MAX_ENTRIES) return 'This document has too many parts';
  if (cdOffset + cdSize > eocd) return notDocx;

  let pos = cdOffset;
  let unpacked = 0;
  let hasDocument = false;
  let hasContentTypes = false;
  for (let n = 0; n < entries; n++) {
    if (pos + 46 > eocd) return notDocx;
    const header = await file.at(pos, 46);
    if (header.readUInt32LE(0) !== CDH_SIG) return notDocx;
    const method = header.readUInt16LE(10);
    const packed = header.readUInt32LE(20);
    const size = header.readUInt32LE(24);
    const nameLen = header.readUInt16LE(28);
    const extraLen = header.readUInt16LE(30);
    const commentLen = header.readUInt16LE(32);
    if (pos + 46 + nameLen > eocd) return notDocx;
    const name = (await file.at(pos + 46, nameLen)).toString('utf8');
    if (method !== 0 && method !== 8) return notDocx; // stored or deflated only
    if (size === 0xffffffff || packed === 0xffffffff) return notDocx;
    unpacked += size;
    if (unpacked > DOCX_MAX_UNPACKED_BYTES) return 'This document is too large once unpacked (100 MB at most)';
    if (name === 'word/document.xml') hasDocument = true;
    if (name === '[Content_Types].xml') hasContentTypes = true;
    pos += 46 + nameLen + extraLen + commentLen;
  }
  if (!hasDocument || !hasContentTypes) return 'This file is not a Word document';
  return null;
}
