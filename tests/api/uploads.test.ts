import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES } from '../../src/shared/constants';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

// Small but genuine images (1×1 pixel), built from their formats' headers.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
// SOI, a JFIF APP0 segment, EOI
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  0xff, 0xd9,
]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');

let t: TestApp;
let agent: Agent;
beforeAll(async () => {
  t = await createTestApp();
  ({ agent } = await signedIn(t.app, t.db, kinds.approvedBrand));
});
afterAll(() => t.close());

/** Every file under the uploads directory, temporary ones included. */
const stored = () => (existsSync(t.uploadsDir) ? readdirSync(t.uploadsDir).sort() : []);

describe('POST /api/upload/avatar', () => {
  it.each([
    ['PNG', PNG, 'me.png', 'image/png', 'png'],
    ['JPEG', JPEG, 'me.jpeg', 'image/jpeg', 'jpg'],
    ['GIF', GIF, 'me.gif', 'image/gif', 'gif'],
    ['WEBP', WEBP, 'me.webp', 'image/webp', 'webp'],
  ])('accepts a %s and serves it back inert', async (_kind, bytes, filename, mime, ext) => {
    const res = await agent.upload('/api/upload/avatar', 'avatar', bytes, filename, mime);
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^/uploads/[0-9a-f]{32}\\.${ext}$`));
    expect(stored()).toContain(path.basename(res.body.url));

    const file = await new Agent(t.app).get(res.body.url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe(mime);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toMatch(/\bsandbox\b/);
    expect(file.headers['content-disposition']).toBeUndefined();
    const raw = await t.app.inject({ method: 'GET', url: res.body.url });
    expect(raw.rawPayload.equals(bytes)).toBe(true);
  });

  it('decides the type by the bytes, not by the name or the Content-Type sent', async () => {
    const res = await agent.upload('/api/upload/avatar', 'avatar', JPEG, 'photo.png', 'text/html');
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/\.jpg$/);
    expect((await agent.get(res.body.url)).headers['content-type']).toBe('image/jpeg');
  });

  it('[SECURITY] never uses the client file name', async () => {
    const before = stored();
    const res = await agent.upload('/api/upload/avatar', 'avatar', PNG, '../../../evil-name.png', 'image/png');
    expect(res.status).toBe(200);
    expect(res.body.url).not.toMatch(/evil/);
    expect(stored().filter((f) => !before.includes(f))).toEqual([path.basename(res.body.url)]);
    expect(stored().some((f) => f.includes('evil'))).toBe(false);
    expect(existsSync(path.join(t.uploadsDir, '..', 'evil-name.png'))).toBe(false);
  });

  it('gives every upload a new name', async () => {
    const a = await agent.upload('/api/upload/avatar', 'avatar', PNG, 'same.png', 'image/png');
    const b = await agent.upload('/api/upload/avatar', 'avatar', PNG, 'same.png', 'image/png');
    expect(a.body.url).not.toBe(b.body.url);
  });

  it.each([
    ['an HTML page renamed .png', HTML, 'avatar.png', 'image/png'],
    ['an SVG (avatars are raster only)', SVG, 'avatar.svg', 'image/svg+xml'],
    ['a text file', Buffer.from('hello'), 'avatar.jpg', 'image/jpeg'],
    ['a PNG signature cut short', PNG.subarray(0, 4), 'avatar.png', 'image/png'],
  ])('[SECURITY] refuses %s with 415 and stores nothing', async (_what, bytes, filename, mime) => {
    const before = stored();
    const res = await agent.upload('/api/upload/avatar', 'avatar', bytes, filename, mime);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Please upload an image file', code: 'image_type_refused' });
    expect(stored()).toEqual(before);
  });

  it('accepts an image of exactly 5 MB', async () => {
    const big = Buffer.alloc(AVATAR_MAX_BYTES);
    PNG.copy(big);
    const res = await agent.upload('/api/upload/avatar', 'avatar', big, 'big.png', 'image/png');
    expect(res.status).toBe(200);
  });

  it('refuses 5 MB + 1 byte with 413 and writes nothing to the uploads directory', async () => {
    const before = stored();
    const big = Buffer.alloc(AVATAR_MAX_BYTES + 1);
    PNG.copy(big);
    const res = await agent.upload('/api/upload/avatar', 'avatar', big, 'big.png', 'image/png');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Please upload an image smaller than 5MB', code: 'file_too_large' });
    expect(stored()).toEqual(before);
  });

  it('answers 401 to a visitor and stores nothing', async () => {
    const before = stored();
    const res = await new Agent(t.app).upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
    expect(res.status).toBe(401);
    expect(stored()).toEqual(before);
  });

  it('works for an admin and for a brand that has not completed its profile', async () => {
    for (const kind of [kinds.admin, kinds.unnamedBrand]) {
      const { agent: other } = await signedIn(t.app, t.db, kind);
      expect((await other.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png')).status).toBe(200);
    }
  });

  it('refuses a file in another field with 400 and stores nothing', async () => {
    const before = stored();
    const res = await agent.upload('/api/upload/avatar', 'photo', PNG, 'me.png', 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/avatar/);
    expect(res.body.errors).toEqual({ avatar: 'No file selected' });
    expect(stored()).toEqual(before);
  });

  it('refuses an empty file and a request that is not multipart', async () => {
    const empty = await agent.upload('/api/upload/avatar', 'avatar', Buffer.alloc(0), 'me.png', 'image/png');
    expect(empty.status).toBe(400);
    const json = await agent.post('/api/upload/avatar', { avatar: 'iVBORw0KGgo=' });
    expect(json.status).toBe(415);
    expect(json.body.message).toBeTruthy();
  });

  it('refuses a multipart request with no file part with 400', async () => {
    const boundary = '----bylinetestnofile';
    const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"\r\n\r\nnot a file\r\n--${boundary}--\r\n`);
    const res = await agent.request('POST', '/api/upload/avatar', payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(res.status).toBe(400);
  });

  it.each([
    ['no boundary', 'multipart/form-data', Buffer.from('garbage')],
    ['a body that is not multipart', 'multipart/form-data; boundary=xyz', Buffer.from('garbage')],
    [
      'a body cut short inside the file',
      'multipart/form-data; boundary=xyz',
      Buffer.concat([Buffer.from('--xyz\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\n'), PNG.subarray(0, 20)]),
    ],
  ])('answers a malformed multipart request (%s) with 400, not 500, and stores nothing', async (_what, contentType, payload) => {
    const before = stored();
    const res = await agent.request('POST', '/api/upload/avatar', payload, { 'content-type': contentType });
    expect(res.status).toBe(400);
    expect(res.body.message).toBeTruthy();
    expect(stored()).toEqual(before);
  });

  it('the uploaded URL is accepted as the avatar and shown on the user', async () => {
    const up = await agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
    const res = await agent.patch('/api/user/profile', { avatarUrl: up.body.url });
    expect(res.status).toBe(200);
    expect((await agent.get('/api/user')).body.avatarUrl).toBe(up.body.url);
  });
});

describe('a multipart body where no file is taken', () => {
  it('is refused with 415 and changes nothing (only the upload routes parse multipart)', async () => {
    const before = (await agent.get('/api/user')).body;
    const boundary = '----bylinetestnotupload';
    const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMallory\r\n--${boundary}--\r\n`);
    const res = await agent.request('PATCH', '/api/user/profile', payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Unsupported content type', code: 'unsupported_content_type' });
    expect((await agent.get('/api/user')).body).toEqual(before);
  });
});

describe('GET /uploads/:name', () => {
  it.each([
    '/uploads/..%2f..%2fpackage.json',
    '/uploads/..%2fpackage.json',
    '/uploads/%2e%2e%2fpackage.json',
    '/uploads/..%5c..%5cpackage.json',
    '/uploads/../package.json',
    '/uploads/.%2e/package.json',
    '/uploads/%2e%2e',
    '/uploads/0123456789abcdef0123456789abcdef.png',
    '/uploads/nothing',
  ])('[SECURITY] answers 404 to %s', async (url) => {
    const res = await new Agent(t.app).get(url);
    expect(res.status).toBe(404);
    expect(res.text).not.toMatch(/"name": "byline"/);
  });

  it('does not serve the temporary file of a write in progress', async () => {
    const up = await agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
    const name = path.basename(up.body.url);
    expect((await new Agent(t.app).get(`/uploads/.${name}.tmp`)).status).toBe(404);
  });
});
