/**
 * The conversation of a placement (issue 19): the brand that owns the payment and the editorial
 * team (every admin is one side) write messages with an optional private attachment, each side
 * has its own unread count and read mark, and the other side is e-mailed at most once per
 * conversation every 15 minutes with everything it has not read.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages';
import { MESSAGE_TEXT_MAX } from '../../src/shared/messages';
import {
  conversationNotices,
  conversationReads,
  mailOutbox,
  placementMessages,
  rateLimitHits,
  uploads,
} from '../../src/server/db/schema';
import { startJobs, type Jobs } from '../../src/server/jobs/boss';
import { MESSAGE_NOTICE_JOB } from '../../src/server/jobs/message-notices';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import {
  NOTICE_GATHER_MS,
  NOTICE_INTERVAL_MS,
  noticeDueAt,
  sendMessageNotice,
  setNoticeQueue,
  unreadByPayment,
} from '../../src/server/modules/messages/service';
import { sweepUnreferencedUploads } from '../../src/server/storage/uploads';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { purchase } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { linksIn, runMailWorker, startSmtp, TEST_BASE_URL, type TestSmtp } from '../support/mail';

let t: TestApp;
let smtp: TestSmtp;
type SignedIn = Awaited<ReturnType<typeof signedIn>>;
let admin: SignedIn;
let admin2: SignedIn;
let brandA: SignedIn;
let brandB: SignedIn;
let pending: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtp();
  [admin, admin2, brandA, brandB, pending] = await Promise.all([
    signedIn(t.app, t.db, { ...kinds.admin, name: 'Ada Admin' }),
    signedIn(t.app, t.db, { ...kinds.admin, name: 'Grace Editor' }),
    signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Acme Robotics' }),
    signedIn(t.app, t.db, kinds.approvedBrand),
    signedIn(t.app, t.db, kinds.pendingBrand),
  ]);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

const brandUrl = (paymentId: string, rest = '') => `/api/brand/projects/${paymentId}/messages${rest}`;
const adminUrl = (paymentId: string, rest = '') => `/api/admin/projects/${paymentId}/messages${rest}`;
const newPayment = () => purchase(t.db, brandA.user.id);
/** Lets PGlite's millisecond clock move on: messages ordered by time would otherwise tie and fall to their random ids. */
const tick = () => new Promise((r) => setTimeout(r, 2));

// ---------------------------------------------------------------------------------------------
// files

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11,
  0x01, 0xff, 0xd9,
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
function ole2(stream: string) {
  const buf = Buffer.alloc(2048);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(buf, 0);
  Buffer.from(stream, 'utf16le').copy(buf, 1024);
  return buf;
}
/** A zip of stored entries, written by hand so its directory can lie about the unpacked size. */
function zip(entries: { name: string; data: string; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = Buffer.from(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(e.declaredSize ?? data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
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
const DOCX = zip([
  CONTENT_TYPES,
  { name: '_rels/.rels', data: '<Relationships/>' },
  { name: 'word/document.xml', data: '<w:document/>' },
]);

/** A multipart message: `text` and `file` fields, in that order unless `fileFirst`. */
function multipart(fields: {
  text?: string;
  file?: { data: Buffer; name: string; type?: string };
  fileField?: string;
  fileFirst?: boolean;
}) {
  const boundary = '----bylinemsg' + Math.random().toString(16).slice(2);
  const textPart =
    fields.text === undefined
      ? []
      : [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n${fields.text}\r\n`)];
  const filePart = fields.file
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${fields.fileField ?? 'file'}"; filename="${fields.file.name}"\r\nContent-Type: ${fields.file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        fields.file.data,
        Buffer.from('\r\n'),
      ]
    : [];
  const parts = fields.fileFirst ? [...filePart, ...textPart] : [...textPart, ...filePart];
  return {
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
const postForm = (agent: Agent, url: string, fields: Parameters<typeof multipart>[0]) => {
  const { body, contentType } = multipart(fields);
  return agent.request('POST', url, body, { 'content-type': contentType });
};

// ---------------------------------------------------------------------------------------------

describe('writing and reading a conversation', () => {
  it('[BRAND][ADMIN] both sides post; each sees the same conversation, newest first, with author names', async () => {
    const p = await newPayment();
    const first = await brandA.agent.post(brandUrl(p.id), { text: 'Hello, when will the draft be ready?' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      side: 'brand',
      authorName: 'Acme Robotics',
      text: 'Hello, when will the draft be ready?',
      attachment: null,
    });
    await tick();
    const reply = await admin.agent.post(adminUrl(p.id), { text: '  By Friday.  ' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ side: 'admin', authorName: 'Ada Admin', text: 'By Friday.' });

    for (const res of [await brandA.agent.get(brandUrl(p.id)), await admin.agent.get(adminUrl(p.id))]) {
      expect(res.status).toBe(200);
      expect(res.body.map((m: Message) => m.text)).toEqual(['By Friday.', 'Hello, when will the draft be ready?']);
      expect(res.headers.link).toBeUndefined();
    }
    const rows = await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, p.id));
    expect(rows.map((r) => [r.side, r.authorId]).sort()).toEqual(
      [
        ['admin', admin.user.id],
        ['brand', brandA.user.id],
      ].sort(),
    );
  });

  it('pages with ?limit and Link rel="next" towards older messages, nothing skipped or repeated', async () => {
    const p = await newPayment();
    for (let i = 1; i <= 7; i++) {
      await tick();
      expect((await brandA.agent.post(brandUrl(p.id), { text: `message ${i}` })).status).toBe(201);
    }
    const seen: string[] = [];
    let url: string | undefined = brandUrl(p.id, '?limit=3');
    let pages = 0;
    while (url) {
      const res = await brandA.agent.get(url);
      expect(res.status).toBe(200);
      seen.push(...res.body.map((m: Message) => m.text));
      const link = res.headers.link as string | undefined;
      url = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : undefined;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['message 7', 'message 6', 'message 5', 'message 4', 'message 3', 'message 2', 'message 1']);
    expect((await brandA.agent.get(brandUrl(p.id, '?cursor=nonsense'))).status).toBe(400);
    expect((await brandA.agent.get(brandUrl(p.id, '?limit=0'))).status).toBe(400);
  });

  it('refuses an empty message, a too long one and a non-text one with a clear 400', async () => {
    const p = await newPayment();
    for (const body of [{}, { text: '' }, { text: '   \n ' }, { text: null }]) {
      const res = await brandA.agent.post(brandUrl(p.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('Write a message or attach a file');
      expect(res.body.errors).toEqual({ text: 'Write a message or attach a file' });
    }
    const long = await brandA.agent.post(brandUrl(p.id), { text: 'x'.repeat(MESSAGE_TEXT_MAX + 1) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Message must be at most 5,000 characters');
    expect(long.body.errors).toEqual({ text: 'Message must be at most 5,000 characters' });
    expect((await brandA.agent.post(brandUrl(p.id), { text: 'x'.repeat(MESSAGE_TEXT_MAX) })).status).toBe(201);
    const notText = await brandA.agent.post(brandUrl(p.id), { text: 42 });
    expect(notText.status).toBe(400);
    expect(notText.body.errors.text).toBe('Message must be text');
    const nul = await brandA.agent.post(brandUrl(p.id), { text: 'a\u0000b' });
    expect(nul.status).toBe(400);
    // multipart: the same rules
    const emptyForm = await postForm(brandA.agent, brandUrl(p.id), { text: '' });
    expect(emptyForm.status).toBe(400);
    expect(emptyForm.body.message).toBe('Write a message or attach a file');
    const longForm = await postForm(brandA.agent, brandUrl(p.id), { text: 'y'.repeat(MESSAGE_TEXT_MAX + 1) });
    expect(longForm.status).toBe(400);
    expect(longForm.body.message).toBe('Message must be at most 5,000 characters');
    const rows = await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, p.id));
    expect(rows).toHaveLength(1);
  });

  it('stores a script or an image with onerror as the text it is, and answers it verbatim as JSON', async () => {
    const p = await newPayment();
    const hostile = `<script>alert(document.cookie)</script><img src=x onerror="alert(1)"> & "quotes" 'too' javascript:alert(1)`;
    const res = await brandA.agent.post(brandUrl(p.id), { text: hostile });
    expect(res.status).toBe(201);
    expect(res.body.text).toBe(hostile);
    const listed = await admin.agent.get(adminUrl(p.id));
    expect(listed.headers['content-type']).toMatch(/^application\/json/);
    expect(listed.body[0].text).toBe(hostile);
    const [row] = await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, p.id));
    expect(row.text).toBe(hostile);
  });
});

describe('permissions', () => {
  it('another brand’s payment is a 404 exactly like a missing one, for every route', async () => {
    const p = await newPayment();
    const posted = await brandA.agent.post(brandUrl(p.id), { text: 'private' });
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const id of [p.id, missing, 'not-a-uuid']) {
      for (const res of [
        await brandB.agent.get(brandUrl(id)),
        await brandB.agent.post(brandUrl(id), { text: 'hi' }),
        await brandB.agent.post(brandUrl(id, '/read')),
        await brandB.agent.get(brandUrl(id, `/${posted.body.id}/attachment`)),
        await brandB.agent.get(`/api/brand/projects/${id}/conversation`),
      ]) {
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual({ message: 'Payment not found', code: 'payment_not_found' });
      }
    }
    expect((await brandB.agent.get('/api/brand/messages/unread')).body).toEqual({ total: 0, byPayment: {} });
    // nothing was written by the stranger
    const rows = await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, p.id));
    expect(rows).toHaveLength(1);
  });

  it('a pending brand gets 403, a visitor 401, a brand on the admin routes 403 and an admin on the brand routes 403', async () => {
    const p = await newPayment();
    const visitor = new Agent(t.app);
    expect((await pending.agent.get(brandUrl(p.id))).status).toBe(403);
    expect((await pending.agent.post(brandUrl(p.id), { text: 'x' })).status).toBe(403);
    expect((await pending.agent.get('/api/brand/messages/unread')).status).toBe(403);
    expect((await visitor.get(brandUrl(p.id))).status).toBe(401);
    expect((await visitor.post(adminUrl(p.id), { text: 'x' })).status).toBe(401);
    expect((await visitor.get('/api/admin/messages/unread')).status).toBe(401);
    expect((await brandA.agent.get(adminUrl(p.id))).status).toBe(403);
    expect((await brandA.agent.post(adminUrl(p.id), { text: 'as admin?' })).status).toBe(403);
    expect((await admin.agent.get(brandUrl(p.id))).status).toBe(403);
    const rows = await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, p.id));
    expect(rows).toHaveLength(0);
  });
});

describe('attachments', () => {
  const ALLOWED = [
    { name: 'brief.pdf', data: PDF, type: 'application/pdf' },
    { name: 'notes.doc', data: ole2('WordDocument'), type: 'application/msword' },
    { name: 'notes.docx', data: DOCX, type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    { name: 'logo.png', data: PNG, type: 'image/png' },
    { name: 'photo.jpg', data: JPEG, type: 'image/jpeg' },
  ];

  it('accepts a PDF, DOC, DOCX, PNG and JPEG, stores them privately, and serves them only to the two sides', async () => {
    const p = await newPayment();
    for (const [i, f] of ALLOWED.entries()) {
      const agent = i % 2 ? admin.agent : brandA.agent;
      const url = i % 2 ? adminUrl(p.id) : brandUrl(p.id);
      const res = await postForm(agent, url, {
        text: `file ${f.name}`,
        file: { data: f.data, name: f.name },
        fileFirst: i === 2,
      });
      expect(res.status, f.name).toBe(201);
      expect(res.body.attachment).toEqual({ name: f.name, contentType: f.type, size: f.data.length });
      const [row] = await t.db.select().from(placementMessages).where(eq(placementMessages.id, res.body.id));
      // stored under a generated name, never the client's, and recorded as an upload
      expect(row.attachmentFile).toMatch(/^[0-9a-f]{32}\.bin$/);
      expect((await t.db.select().from(uploads).where(eq(uploads.name, row.attachmentFile!))).length).toBe(1);

      for (const download of [
        await brandA.agent.get(brandUrl(p.id, `/${res.body.id}/attachment`)),
        await admin2.agent.get(adminUrl(p.id, `/${res.body.id}/attachment`)),
      ]) {
        expect(download.status).toBe(200);
        expect(download.headers['content-type']).toBe(f.type);
        expect(download.headers['content-disposition']).toBe(
          `attachment; filename="${f.name}"; filename*=UTF-8''${f.name}`,
        );
        expect(download.headers['x-content-type-options']).toBe('nosniff');
        expect(download.headers['cache-control']).toBe('private, no-store');
        expect(Buffer.from(download.text, 'latin1').length).toBeGreaterThan(0);
      }
      // the other brand, a pending brand and a visitor: nothing
      expect((await brandB.agent.get(brandUrl(p.id, `/${res.body.id}/attachment`))).status).toBe(404);
      expect((await pending.agent.get(brandUrl(p.id, `/${res.body.id}/attachment`))).status).toBe(403);
      expect((await new Agent(t.app).get(adminUrl(p.id, `/${res.body.id}/attachment`))).status).toBe(401);
      // never on the public route
      expect((await new Agent(t.app).get(`/uploads/${row.attachmentFile}`)).status).toBe(404);
    }
    const listed = await brandA.agent.get(brandUrl(p.id));
    expect(listed.body.filter((m: Message) => m.attachment).length).toBe(ALLOWED.length);
  });

  it('a file alone is a message; the name is cleaned and keeps the extension of what the bytes are', async () => {
    const p = await newPayment();
    const res = await postForm(brandA.agent, brandUrl(p.id), {
      file: { data: PDF, name: 'C:\\fakepath\\my <report>.html' },
    });
    expect(res.status).toBe(201);
    expect(res.body.text).toBe('');
    expect(res.body.attachment.name).toBe('my report.pdf');
    const download = await brandA.agent.get(brandUrl(p.id, `/${res.body.id}/attachment`));
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="my report.pdf"; filename*=UTF-8''my%20report.pdf`,
    );
  });

  it('an attachment is found only through its own conversation', async () => {
    const p = await newPayment();
    const other = await newPayment();
    const res = await postForm(brandA.agent, brandUrl(p.id), { text: 'here', file: { data: PNG, name: 'a.png' } });
    expect((await brandA.agent.get(brandUrl(other.id, `/${res.body.id}/attachment`))).status).toBe(404);
    const textOnly = await brandA.agent.post(brandUrl(p.id), { text: 'no file' });
    expect((await brandA.agent.get(brandUrl(p.id, `/${textOnly.body.id}/attachment`))).body).toEqual({
      message: 'Attachment not found',
      code: 'attachment_not_found',
    });
    expect((await brandA.agent.get(brandUrl(p.id, '/not-an-id/attachment'))).status).toBe(404);
  });

  it('refuses hostile and unsupported files with the uploads’ messages, storing nothing', async () => {
    const p = await newPayment();
    const stored = () => {
      try {
        return readdirSync(t.uploadsDir).length;
      } catch {
        return 0;
      }
    };
    const before = stored();
    const HOSTILE: { name: string; data: Buffer; message: string }[] = [
      {
        name: 'page.pdf',
        data: Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'),
        message: 'Please upload a PDF, DOC, DOCX, PNG or JPEG file',
      },
      {
        name: 'steal.png',
        data: Buffer.from('fetch("/api/admin/payments").then(r=>r.text())'),
        message: 'Please upload a PDF, DOC, DOCX, PNG or JPEG file',
      },
      {
        name: 'logo.png',
        data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        message: 'Please upload a PDF, DOC, DOCX, PNG or JPEG file',
      },
      { name: 'anim.gif', data: GIF, message: 'Please upload a PDF, DOC, DOCX, PNG or JPEG file' },
      { name: 'sheet.doc', data: ole2('Workbook'), message: 'This file is not a Word document' },
      {
        name: 'bomb.docx',
        data: zip([
          CONTENT_TYPES,
          { name: 'word/document.xml', data: '<w:document/>', declaredSize: 200 * 1024 * 1024 },
        ]),
        message: 'This document is too large once unpacked (100 MB at most)',
      },
      {
        name: 'archive.docx',
        data: zip([{ name: 'evil.exe', data: 'MZ' }]),
        message: 'This file is not a Word document',
      },
      {
        name: 'exe.pdf',
        data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]),
        message: 'Please upload a PDF, DOC, DOCX, PNG or JPEG file',
      },
    ];
    for (const f of HOSTILE) {
      const res = await postForm(brandA.agent, brandUrl(p.id), {
        text: 'see attached',
        file: { data: f.data, name: f.name },
      });
      expect(res.status, f.name).toBe(400);
      expect(res.body.message, f.name).toBe(f.message);
      expect(res.body.errors, f.name).toEqual({ file: f.message });
    }
    const empty = await postForm(brandA.agent, brandUrl(p.id), {
      text: 'x',
      file: { data: Buffer.alloc(0), name: 'empty.pdf' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('The file is empty');
    const wrongField = await postForm(brandA.agent, brandUrl(p.id), {
      text: 'x',
      file: { data: PDF, name: 'a.pdf' },
      fileField: 'document',
    });
    expect(wrongField.status).toBe(400);
    expect(stored()).toBe(before);
    expect(await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, p.id))).toHaveLength(0);
  });

  it('the daily upload sweep keeps attachments (they are referenced)', async () => {
    const p = await newPayment();
    const res = await postForm(admin.agent, adminUrl(p.id), { text: 'kept', file: { data: PDF, name: 'kept.pdf' } });
    const [row] = await t.db.select().from(placementMessages).where(eq(placementMessages.id, res.body.id));
    const removed = await sweepUnreferencedUploads(
      t.db,
      diskFileStore(t.uploadsDir),
      new Date(Date.now() + 3 * 86_400_000),
    );
    expect(removed).not.toContain(row.attachmentFile);
    expect((await admin.agent.get(adminUrl(p.id, `/${res.body.id}/attachment`))).status).toBe(200);
  });
});

describe('unread counts and the read mark', () => {
  it('counts the other side’s messages per side and payment; reading clears only the reader’s side', async () => {
    const p1 = await newPayment();
    const p2 = await newPayment();
    const brandBefore = (await brandA.agent.get('/api/brand/messages/unread')).body;
    await brandA.agent.post(brandUrl(p1.id), { text: 'one' });
    await brandA.agent.post(brandUrl(p1.id), { text: 'two' });
    await brandA.agent.post(brandUrl(p2.id), { text: 'three' });
    await admin.agent.post(adminUrl(p1.id), { text: 'reply' });

    const adminUnread = (await admin.agent.get('/api/admin/messages/unread')).body;
    expect(adminUnread.byPayment[p1.id]).toBe(2);
    expect(adminUnread.byPayment[p2.id]).toBe(1);
    expect(adminUnread.total).toBe(
      Object.values(adminUnread.byPayment as Record<string, number>).reduce((a, b) => a + b, 0),
    );
    const brandUnread = (await brandA.agent.get('/api/brand/messages/unread')).body;
    expect(brandUnread.byPayment[p1.id]).toBe(1);
    expect(brandUnread.byPayment[p2.id]).toBeUndefined();
    expect(brandUnread.total).toBe(brandBefore.total + 1);
    expect((await brandA.agent.get(`/api/brand/projects/${p1.id}/conversation`)).body).toMatchObject({
      paymentId: p1.id,
      unread: 1,
      status: 'paid',
    });

    // any admin reads for the team
    expect((await admin2.agent.post(adminUrl(p1.id, '/read'))).status).toBe(204);
    const afterRead = (await admin.agent.get('/api/admin/messages/unread')).body;
    expect(afterRead.byPayment[p1.id]).toBeUndefined();
    expect(afterRead.byPayment[p2.id]).toBe(1);
    // the brand's side is untouched
    expect((await brandA.agent.get('/api/brand/messages/unread')).body.byPayment[p1.id]).toBe(1);
    const [mark] = await t.db
      .select()
      .from(conversationReads)
      .where(and(eq(conversationReads.placementId, p1.id), eq(conversationReads.side, 'admin')));
    expect(mark.readAt).toBeInstanceOf(Date);

    // a new message after the mark is unread again
    await brandA.agent.post(brandUrl(p1.id), { text: 'four' });
    expect((await admin.agent.get('/api/admin/messages/unread')).body.byPayment[p1.id]).toBe(1);
    expect((await brandA.agent.post(brandUrl(p1.id, '/read'))).status).toBe(204);
    expect((await brandA.agent.get('/api/brand/messages/unread')).body.byPayment[p1.id]).toBeUndefined();
    // reading an empty conversation is fine and changes nothing
    expect((await brandA.agent.post(brandUrl((await newPayment()).id, '/read'))).status).toBe(204);
  });

  it('unreadByPayment answers for a set of payments or a brand, for the lists', async () => {
    const p = await newPayment();
    await admin.agent.post(adminUrl(p.id), { text: 'for the list' });
    expect(await unreadByPayment(t.db, 'brand', { paymentIds: [p.id] })).toEqual({
      total: 1,
      byPayment: { [p.id]: 1 },
    });
    expect(await unreadByPayment(t.db, 'brand', { paymentIds: [] })).toEqual({ total: 0, byPayment: {} });
    expect((await unreadByPayment(t.db, 'brand', { organisationId: brandB.user.organisationId! })).byPayment[p.id]).toBeUndefined();
    expect((await unreadByPayment(t.db, 'brand', { organisationId: brandA.user.organisationId! })).byPayment[p.id]).toBe(1);
  });
});

describe('e-mail notices', () => {
  const minutes = (n: number) => n * 60_000;
  const notice = (paymentId: string, side: 'brand' | 'admin') => ({ paymentId, side });

  it('five messages in a minute make one e-mail to every admin with all of them; the next after 15 minutes another', async () => {
    const queued: { key: string; startAfter: Date }[] = [];
    // what pg-boss is asked to queue (jobs/message-notices.ts registers the real one)
    setNoticeQueue(async (_tx, n, startAfter) => void queued.push({ key: `${n.paymentId}:${n.side}`, startAfter }));
    try {
      const p = await newPayment();
      const start = Date.now();
      for (let i = 1; i <= 5; i++)
        expect((await brandA.agent.post(brandUrl(p.id), { text: `Question ${i} <b>bold?</b>` })).status).toBe(201);
      // each message asks for the admins' notice, due after the gathering delay (within a minute)
      expect(queued.every((q) => q.key === `${p.id}:admin`)).toBe(true);
      expect(queued).toHaveLength(5);
      expect(queued[0].startAfter.getTime() - start).toBeGreaterThanOrEqual(NOTICE_GATHER_MS);
      expect(queued[0].startAfter.getTime() - start).toBeLessThan(minutes(1));

      const marks = [admin, admin2].map((a) => smtp.to(a.user.email).length);
      const sentAt = new Date(start + minutes(1));
      expect(await sendMessageNotice(t.db, notice(p.id, 'admin'), sentAt)).toEqual({ sent: 5 });
      await runMailWorker(t.db, smtp);
      for (const [i, a] of [admin, admin2].entries()) {
        const mails = smtp.to(a.user.email).slice(marks[i]);
        expect(mails, a.user.email).toHaveLength(1);
        expect(mails[0].subject).toBe('New message from Acme Robotics: How Acme rebuilt payments - Byline');
        for (let n = 1; n <= 5; n++) expect(mails[0].text).toContain(`Question ${n} <b>bold?</b>`);
        expect(mails[0].html).toContain('Question 1 &lt;b&gt;bold?&lt;/b&gt;');
        expect(mails[0].html).not.toContain('<b>bold?</b>');
        expect(mails[0].text).toContain('You have 5 unread messages');
        expect(linksIn(mails[0].text)).toContain(`${TEST_BASE_URL}/admin/projects/${p.id}`);
      }
      // the brand wrote them: it is not mailed about its own messages (its notices link to the article)
      expect(smtp.to(brandA.user.email).filter((m) => linksIn(m.text).includes(`${TEST_BASE_URL}/brand/my-articles/${p.id}`))).toHaveLength(0);

      // inside the 15 minutes: nothing more, and the job is told when it may send
      await brandA.agent.post(brandUrl(p.id), { text: 'One more thing' });
      const later = queued[queued.length - 1];
      expect(later.startAfter.getTime()).toBe(sentAt.getTime() + NOTICE_INTERVAL_MS);
      expect(await noticeDueAt(t.db, notice(p.id, 'admin'), new Date())).toEqual(
        new Date(sentAt.getTime() + NOTICE_INTERVAL_MS),
      );
      expect(await sendMessageNotice(t.db, notice(p.id, 'admin'), new Date(sentAt.getTime() + minutes(5)))).toEqual({
        tooSoon: new Date(sentAt.getTime() + NOTICE_INTERVAL_MS),
      });
      await runMailWorker(t.db, smtp);
      expect(smtp.to(admin.user.email).slice(marks[0])).toHaveLength(1);

      // 15 minutes after the first e-mail: the second, with everything still unread
      expect(await sendMessageNotice(t.db, notice(p.id, 'admin'), later.startAfter)).toEqual({ sent: 6 });
      await runMailWorker(t.db, smtp);
      const second = smtp.to(admin.user.email).slice(marks[0]);
      expect(second).toHaveLength(2);
      expect(second[1].text).toContain('One more thing');
      const [row] = await t.db
        .select()
        .from(conversationNotices)
        .where(and(eq(conversationNotices.placementId, p.id), eq(conversationNotices.side, 'admin')));
      expect(row.lastSentAt).toEqual(later.startAfter);
    } finally {
      setNoticeQueue(null);
    }
  });

  it('the brand is mailed about the team’s messages; what it has read is not mailed; nothing unread, no mail', async () => {
    const p = await newPayment();
    const mark = smtp.to(brandA.user.email).length;
    await admin.agent.post(adminUrl(p.id), { text: 'Old news' });
    expect((await brandA.agent.post(brandUrl(p.id, '/read'))).status).toBe(204);
    // read in Byline before the notice was due: no e-mail
    expect(await sendMessageNotice(t.db, notice(p.id, 'brand'), new Date(Date.now() + minutes(1)))).toEqual({
      nothingUnread: true,
    });
    await admin2.agent.post(adminUrl(p.id), { text: 'Draft attached, see https://docs.example.com/d/1' });
    await postForm(admin2.agent, adminUrl(p.id), { file: { data: PDF, name: 'draft.pdf' } });
    expect(await sendMessageNotice(t.db, notice(p.id, 'brand'), new Date(Date.now() + minutes(1)))).toEqual({
      sent: 2,
    });
    await runMailWorker(t.db, smtp);
    // the worker also delivers what other tests left queued for this brand: the mails about this article
    const mails = smtp.to(brandA.user.email).slice(mark).filter((m) => m.text.includes(p.id));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('New message from the editorial team: How Acme rebuilt payments - Byline');
    expect(mails[0].text).toContain('Grace Editor');
    expect(mails[0].text).toContain('Draft attached, see https://docs.example.com/d/1');
    expect(mails[0].text).toContain('[Attachment: draft.pdf]');
    expect(mails[0].text).not.toContain('Old news');
    expect(linksIn(mails[0].text)).toContain(`${TEST_BASE_URL}/brand/my-articles/${p.id}`);
  });

  it('a brand that turned e-mail notifications off is still mailed about messages (a person waits for an answer)', async () => {
    const quiet = await signedIn(t.app, t.db, { ...kinds.approvedBrand, emailNotifications: false });
    const p = await purchase(t.db, quiet.user.id);
    await admin.agent.post(adminUrl(p.id), { text: 'Could you send your logo?' });
    expect(await sendMessageNotice(t.db, notice(p.id, 'brand'), new Date(Date.now() + minutes(1)))).toEqual({
      sent: 1,
    });
    await runMailWorker(t.db, smtp);
    expect(smtp.to(quiet.user.email).filter((m) => m.text.includes('Could you send your logo?'))).toHaveLength(1);
  });
});

describe('the notice jobs on pg-boss', () => {
  let jobs: Jobs;
  beforeAll(async () => {
    jobs = await startJobs({
      handle: t.handle,
      databaseUrl: t.handle.pool?.options.connectionString,
      provider: testCheckoutProvider(t.db),
      files: diskFileStore(t.uploadsDir),
      rateLimitKeepMs: 86_400_000,
      pollingIntervalSeconds: 0.5,
    });
  }, 60_000);
  afterAll(async () => {
    await jobs?.stop();
  });

  it('a burst of messages queues one notice job per conversation and side, in the message’s transaction, due within a minute', async () => {
    const p = await newPayment();
    const before = Date.now();
    for (let i = 1; i <= 5; i++)
      expect((await brandA.agent.post(brandUrl(p.id), { text: `burst ${i}` })).status).toBe(201);
    const found = await jobs.boss.findJobs(MESSAGE_NOTICE_JOB, { key: `${p.id}:admin` });
    expect(found).toHaveLength(1);
    expect(found[0].data).toEqual({ paymentId: p.id, side: 'admin' });
    const due = new Date(found[0].startAfter).getTime() - before;
    expect(due).toBeGreaterThanOrEqual(NOTICE_GATHER_MS - 1000);
    expect(due).toBeLessThan(60_000);
    // nothing for the brand: it wrote them
    expect(await jobs.boss.findJobs(MESSAGE_NOTICE_JOB, { key: `${p.id}:brand` })).toHaveLength(0);
  });

  it('the worker mails the unread messages when its job is due', async () => {
    const p = await newPayment();
    // a message written without a job (as a script would), then its notice due now
    await t.db
      .insert(placementMessages)
      .values({ placementId: p.id, side: 'admin', authorId: admin.user.id, text: 'Worker test message' });
    await jobs.boss.send(MESSAGE_NOTICE_JOB, { paymentId: p.id, side: 'brand' }, { singletonKey: `${p.id}:brand` });
    const end = Date.now() + 15_000;
    let rows: (typeof mailOutbox.$inferSelect)[] = [];
    while (Date.now() < end) {
      rows = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, brandA.user.email))).filter((r) =>
        JSON.stringify(r.data).includes('Worker test message'),
      );
      if (rows.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(rows).toHaveLength(1);
    expect(rows[0].kind).toBe('message_received');
  });
});

// ---------------------------------------------------------------------------------------------
// the brand's limit

describe('LIMIT_MESSAGES', () => {
  let small: TestApp;
  let brand: SignedIn;
  let other: SignedIn;
  let editor: SignedIn;
  beforeAll(async () => {
    small = await createTestApp({ LIMIT_MESSAGES: { max: 3, windowMs: 3_600_000 } });
    [brand, other, editor] = await Promise.all([
      signedIn(small.app, small.db, kinds.approvedBrand),
      signedIn(small.app, small.db, kinds.approvedBrand),
      signedIn(small.app, small.db, kinds.admin),
    ]);
  });
  afterAll(async () => {
    await small?.close();
  });
  const stored = async (paymentId: string) =>
    (await small.db.select().from(placementMessages).where(eq(placementMessages.placementId, paymentId))).map((m) => m.text);
  const hits = async (userId: string) =>
    (await small.db.select().from(rateLimitHits).where(and(eq(rateLimitHits.bucket, 'message'), eq(rateLimitHits.subject, userId)))).length;

  it('[BRAND] counts a brand’s stored messages only, then refuses with a 429 that says when, storing nothing', async () => {
    const p = await purchase(small.db, brand.user.id);
    const post = (text: string) => brand.agent.post(brandUrl(p.id), { text });
    expect((await post('one')).status).toBe(201);
    // refused input is not counted
    expect((await post('   ')).status).toBe(400);
    expect((await post('x'.repeat(MESSAGE_TEXT_MAX + 1))).status).toBe(400);
    expect(await hits(brand.user.id)).toBe(1);
    // nor a message whose attachment could not be stored: the disk store's directory replaced by a file
    mkdirSync(small.uploadsDir, { recursive: true });
    renameSync(small.uploadsDir, `${small.uploadsDir}.away`);
    writeFileSync(small.uploadsDir, '');
    try {
      const unstored = await postForm(brand.agent, brandUrl(p.id), { text: 'with a file', file: { data: PDF, name: 'brief.pdf' } });
      expect(unstored.status).toBe(503);
    } finally {
      rmSync(small.uploadsDir);
      renameSync(`${small.uploadsDir}.away`, small.uploadsDir);
    }
    expect(await hits(brand.user.id)).toBe(1);
    expect((await post('two')).status).toBe(201);
    expect((await post('three')).status).toBe(201);

    const refused = await post('four');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^You have sent too many messages\. Please try again in (\d+ minutes?|an hour)\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stored(p.id)).toEqual(expect.arrayContaining(['one', 'two', 'three']));
    expect(await stored(p.id)).toHaveLength(3);
    expect(await hits(brand.user.id)).toBe(3);
    // the same for a file, in any of the brand's conversations
    const q = await purchase(small.db, brand.user.id);
    expect((await postForm(brand.agent, brandUrl(q.id), { file: { data: PDF, name: 'brief.pdf' } })).status).toBe(429);
    expect(await stored(q.id)).toEqual([]);
  });

  it('[ADMIN] limits neither the editorial team nor another brand', async () => {
    const p = await purchase(small.db, brand.user.id);
    for (let i = 1; i <= 4; i++) expect((await editor.agent.post(adminUrl(p.id), { text: `answer ${i}` })).status).toBe(201);
    const o = await purchase(small.db, other.user.id);
    expect((await other.agent.post(brandUrl(o.id), { text: 'mine' })).status).toBe(201);
    expect(await hits(editor.user.id)).toBe(0);
  });
});
