import { readdirSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { paymentRow, purchase, submittedBrief } from '../support/content';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let brandA: Awaited<ReturnType<typeof signedIn>>;
let brandB: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createTestApp();
  [admin, brandA, brandB] = await Promise.all([
    signedIn(t.app, t.db, kinds.admin),
    signedIn(t.app, t.db, kinds.approvedBrand),
    signedIn(t.app, t.db, kinds.approvedBrand),
  ]);
});
afterAll(() => t.close());

const stored = () => {
  try {
    return readdirSync(t.uploadsDir).filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
};

/** A zip of stored (uncompressed) entries; `declaredSize` lies about an entry's unpacked size. */
function zip(entries: { name: string; data: string; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = Buffer.from(e.data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(e.declaredSize ?? data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(e.declaredSize ?? data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const CONTENT_TYPES = { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types/>' };
const DOCX = zip([CONTENT_TYPES, { name: '_rels/.rels', data: '<Relationships/>' }, { name: 'word/document.xml', data: '<w:document/>' }]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
function ole2(stream: string) {
  const buf = Buffer.alloc(2048);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(buf, 0);
  Buffer.from(stream, 'utf16le').copy(buf, 1024);
  return buf;
}
const DOC = ole2('WordDocument');

const upload = (agent = admin.agent, file: Buffer = PDF, filename = 'draft.pdf', type = 'application/pdf') =>
  agent.upload('/api/upload/document', 'file', file, filename, type);

describe('POST /api/upload/document', () => {
  it('stores .pdf, .doc and .docx under generated names and returns a private path', async () => {
    for (const [file, ext] of [
      [PDF, 'pdf'],
      [DOC, 'doc'],
      [DOCX, 'docx'],
    ] as const) {
      const res = await upload(admin.agent, file, `My Draft.${ext}`);
      expect(res.status).toBe(200);
      expect(res.body.path).toMatch(new RegExp(`^/api/files/[0-9a-f]{32}\\.${ext}$`));
      expect(stored()).toContain(res.body.path.split('/').pop());
    }
  });

  it('decides the type by the bytes: a .docx sent as .pdf is stored as .docx', async () => {
    const res = await upload(admin.agent, DOCX, 'draft.pdf', 'application/pdf');
    expect(res.body.path).toMatch(/\.docx$/);
  });

  describe('refusals store nothing', () => {
    let before: string[];
    beforeEach(() => {
      before = stored();
    });
    const refused: [string, Buffer, string, number, string | RegExp][] = [
      ['an .exe renamed .pdf', Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(200)]), 'draft.pdf', 415, 'Please upload a .doc, .docx or .pdf file'],
      ['HTML renamed .docx', Buffer.from('<!doctype html><script>alert(1)</script>'), 'draft.docx', 415, 'Please upload a .doc, .docx or .pdf file'],
      ['a zip without word/document.xml', zip([CONTENT_TYPES, { name: 'xl/workbook.xml', data: '<workbook/>' }]), 'draft.docx', 415, 'This file is not a Word document'],
      [
        'a docx declaring a huge unpacked size',
        zip([CONTENT_TYPES, { name: 'word/document.xml', data: '<w:document/>', declaredSize: 0xfffffff0 }]),
        'draft.docx',
        415,
        /too large once unpacked/,
      ],
      [
        'a docx whose parts add up past 100 MB',
        zip([
          CONTENT_TYPES,
          { name: 'word/document.xml', data: '<w:document/>', declaredSize: 60 * 1024 * 1024 },
          { name: 'word/media/image1.png', data: 'x', declaredSize: 60 * 1024 * 1024 },
        ]),
        'draft.docx',
        415,
        /too large once unpacked/,
      ],
      [
        'a docx with thousands of entries',
        zip([CONTENT_TYPES, { name: 'word/document.xml', data: '' }, ...Array.from({ length: 2001 }, (_, i) => ({ name: `p${i}`, data: '' }))]),
        'draft.docx',
        415,
        'This document has too many parts',
      ],
      ['a zip cut short', DOCX.subarray(0, DOCX.length - 30), 'draft.docx', 415, 'This file is not a valid .docx document'],
      ['an Excel 97 file', ole2('Workbook'), 'draft.doc', 415, 'This file is not a Word document'],
      ['an image', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), 'draft.pdf', 415, 'Please upload a .doc, .docx or .pdf file'],
    ];
    for (const [label, file, filename, status, message] of refused) {
      it(`${label} → ${status}`, async () => {
        const res = await upload(admin.agent, file, filename);
        expect(res.status).toBe(status);
        if (typeof message === 'string') expect(res.body.message).toBe(message);
        else expect(res.body.message).toMatch(message);
        expect(stored()).toEqual(before);
      });
    }

    it('25 MB + 1 byte → 413', async () => {
      const big = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
      PDF.copy(big);
      const res = await upload(admin.agent, big);
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('File must be smaller than 25MB');
      expect(stored()).toEqual(before);
    });

    it('exactly 25 MB is accepted', async () => {
      const max = Buffer.alloc(25 * 1024 * 1024, 0x20);
      PDF.copy(max);
      expect((await upload(admin.agent, max)).status).toBe(200);
      before = stored();
    });

    it('an empty file or the wrong field → 400', async () => {
      expect((await upload(admin.agent, Buffer.alloc(0))).status).toBe(400);
      expect((await admin.agent.upload('/api/upload/document', 'document', PDF, 'draft.pdf')).status).toBe(400);
      expect(stored()).toEqual(before);
    });

    it('only admins upload drafts', async () => {
      expect((await upload(brandA.agent)).status).toBe(403);
      const visitor = new (await import('../support/app')).Agent(t.app);
      expect((await upload(visitor)).status).toBe(401);
      expect(stored()).toEqual(before);
    });
  });
});

describe('GET /api/files/{name}: private draft downloads', () => {
  it('serves the draft to the owning brand and admins as an inert attachment; 404 to other brands, 401 to visitors', async () => {
    const p = await purchase(t.db, brandA.user.id);
    await submittedBrief(t.db, p);
    const { path } = (await upload(admin.agent, DOCX, 'draft.docx')).body;
    const attach = await admin.agent.patch(`/api/admin/payments/${p.id}/status`, { draftDocumentFile: path });
    expect(attach.status).toBe(200);
    expect(await paymentRow(t.db, p.id)).toMatchObject({ draftDocumentFile: path, draftDocumentUrl: null, draftReviewStatus: 'pending_brand_review' });

    for (const agent of [brandA.agent, admin.agent]) {
      const res = await agent.get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(res.headers['content-disposition']).toBe('attachment; filename="draft.docx"');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(Number(res.headers['content-length'])).toBe(DOCX.length);
    }
    const other = await brandB.agent.get(path);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: 'File not found', code: 'file_not_found' });
    const { Agent } = await import('../support/app');
    expect((await new Agent(t.app).get(path)).status).toBe(401);
    // never through the public uploads route
    expect((await brandA.agent.get(path.replace('/api/files/', '/uploads/'))).status).toBe(404);
    expect((await new Agent(t.app).get(path.replace('/api/files/', '/uploads/'))).status).toBe(404);
  });

  it('a file not (or no longer) attached to the brand’s payment is 404 for the brand; odd names are 404', async () => {
    const p = await purchase(t.db, brandA.user.id);
    await submittedBrief(t.db, p);
    const first = (await upload(admin.agent, PDF)).body.path;
    const unattached = (await upload(admin.agent, PDF)).body.path;
    await admin.agent.patch(`/api/admin/payments/${p.id}/status`, { draftDocumentFile: first });
    expect((await brandA.agent.get(first)).status).toBe(200);
    expect((await brandA.agent.get(unattached)).status).toBe(404);
    expect((await admin.agent.get(unattached)).status).toBe(200);
    // the draft becomes a link: the old file is no longer the brand's to download
    await admin.agent.patch(`/api/admin/payments/${p.id}/status`, { draftDocumentUrl: 'https://docs.google.com/document/d/x' });
    expect(await paymentRow(t.db, p.id)).toMatchObject({ draftDocumentFile: null, draftReviewStatus: 'pending_brand_review' });
    expect((await brandA.agent.get(first)).status).toBe(404);
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'x.exe', 'missing.pdf', 'a.b.pdf']) {
      expect((await admin.agent.get(`/api/files/${name}`)).status).toBe(404);
    }
  });
});
