import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '../../src/shared/constants';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { everyKind } from '../support/factories';

// Small but genuine images (1×1 pixel).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xd9,
]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const CLEAN_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" fill="#0a7"/></svg>',
);
const MALICIOUS_SVG = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet href="https://evil.example/sheet.css"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100" onload="alert('onload')">
  <script type="text/javascript">alert('script')</script>
  <style>@import url("https://evil.example/import.css"); rect { fill: red }</style>
  <defs><linearGradient id="brand"><stop offset="0" stop-color="#123456"/></linearGradient></defs>
  <a xlink:href="javascript:alert('link')"><rect id="logo-box" width="100" height="100" fill="url(#brand)" onclick="alert('click')"/></a>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <use href="#logo-box" x="5"/>
  <image href="https://evil.example/tracker.png" width="1" height="1"/>
  <image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"></iframe></body></foreignObject>
  <circle cx="50" cy="50" r="10" style="fill: url(https://evil.example/paint)" onmouseover="alert('hover')"/>
  <set attributeName="onload" to="alert('set')"/>
  <animate attributeName="href" values="javascript:alert('animate')"/>
  <text x="10" y="90">ACME &amp; Co</text>
</svg>`);

let t: TestApp;
let users: Awaited<ReturnType<typeof everyKind>>;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  users = await everyKind(t.app, t.db);
  admin = users.admin.agent;
});
afterAll(() => t.close());

/** Every file under the uploads directory, temporary ones included. */
const stored = () => (existsSync(t.uploadsDir) ? readdirSync(t.uploadsDir).sort() : []);
const storedBytes = (url: string) => readFileSync(path.join(t.uploadsDir, path.basename(url)));

describe('POST /api/upload/logo access', () => {
  it.each([
    ['visitor', 401],
    ['unnamedBrand', 403],
    ['pendingBrand', 403],
    ['approvedBrand', 403],
  ] as const)('[%s] is refused with %i and nothing is written', async (kind, status) => {
    const before = stored();
    const res = await users[kind].agent.upload('/api/upload/logo', 'logo', PNG, 'logo.png', 'image/png');
    expect(res.status).toBe(status);
    expect(res.body.message).toEqual(expect.any(String));
    expect(stored()).toEqual(before);
  });
});

describe('[ADMIN] POST /api/upload/logo', () => {
  it.each([
    ['PNG', PNG, 'logo.png', 'image/png', 'png'],
    ['JPEG', JPEG, 'logo.jpg', 'image/jpeg', 'jpg'],
    ['GIF', GIF, 'logo.gif', 'image/gif', 'gif'],
    ['WEBP', WEBP, 'logo.webp', 'image/webp', 'webp'],
  ])(
    'accepts a %s as a logo and as an example, stored unchanged under a generated name',
    async (_kind, bytes, filename, mime, ext) => {
      for (const url of ['/api/upload/logo', '/api/upload/logo?purpose=example']) {
        const res = await admin.upload(url, 'logo', bytes, filename, mime);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ url: expect.stringMatching(new RegExp(`^/uploads/[0-9a-f]{32}\\.${ext}$`)) });
        expect(storedBytes(res.body.url).equals(bytes)).toBe(true);
        const file = await new Agent(t.app).get(res.body.url);
        expect(file.status).toBe(200);
        expect(file.headers['content-type']).toBe(mime);
        expect(file.headers['x-content-type-options']).toBe('nosniff');
        expect(file.headers['content-security-policy']).toMatch(/\bsandbox\b/);
      }
    },
  );

  it('accepts a clean SVG logo and keeps its drawing', async () => {
    const res = await admin.upload('/api/upload/logo', 'logo', CLEAN_SVG, 'logo.svg', 'image/svg+xml');
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.svg$/);
    const file = await new Agent(t.app).get(res.body.url);
    expect(file.headers['content-type']).toBe('image/svg+xml');
    expect(file.text).toContain('<circle cx="12" cy="12" r="10" fill="#0a7"></circle>');
    expect(file.text).toContain('viewBox="0 0 24 24"');
  });

  it('[SECURITY] stores a malicious SVG without scripts, handlers, external references or foreign content', async () => {
    const res = await admin.upload('/api/upload/logo', 'logo', MALICIOUS_SVG, 'logo.svg', 'image/svg+xml');
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/\.svg$/);

    const file = await new Agent(t.app).get(res.body.url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/svg+xml');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toMatch(/\bsandbox\b/);
    const svg = file.text;
    expect(svg).toBe(storedBytes(res.body.url).toString('utf8'));

    // prettier-ignore
    for (const bad of [/<script/i, /\son[a-z]+\s*=/i, /evil\.example/, /javascript:/i, /data:/i, /foreignObject/i, /<iframe/i,
      /<image/i, /<set/i, /<animate/i, /@import/i, /<!DOCTYPE/i, /<\?/, /alert\(/]) {
      expect(svg).not.toMatch(bad);
    }
    // what a logo needs is still there
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('<rect id="logo-box" width="100" height="100" fill="url(#brand)"></rect>');
    expect(svg).toContain('<use xlink:href="#logo-box" x="5"></use>');
    expect(svg).toContain('<stop offset="0" stop-color="#123456"></stop>');
    expect(svg).toContain('<text x="10" y="90">ACME &amp; Co</text>');
    expect(svg).toContain('<circle cx="50" cy="50" r="10"></circle>');
  });

  it('refuses a PNG named .svg (the name and the bytes disagree) and stores nothing; the same bytes named .png are stored as a PNG', async () => {
    const before = stored();
    const res = await admin.upload('/api/upload/logo', 'logo', PNG, 'logo.svg', 'image/svg+xml');
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('This file is not a valid .svg image');
    expect(stored()).toEqual(before);
    const ok = await admin.upload('/api/upload/logo', 'logo', PNG, 'logo.png', 'image/svg+xml');
    expect(ok.status).toBe(200);
    expect(ok.body.url).toMatch(/\.png$/);
    expect((await admin.get(ok.body.url)).headers['content-type']).toBe('image/png');
  });

  it.each([
    ['an HTML file named .png', HTML, 'logo.png', 'image/png'],
    ['a text file', Buffer.from('just text'), 'logo.jpg', 'image/jpeg'],
    ['a PDF', Buffer.from('%PDF-1.4\n%âãÏÓ\n'), 'logo.png', 'image/png'],
  ])('refuses %s with 415 and writes nothing', async (_case, bytes, filename, mime) => {
    const before = stored();
    const res = await admin.upload('/api/upload/logo', 'logo', bytes, filename, mime);
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('Please upload a JPEG, PNG, GIF, WEBP or SVG image');
    expect(stored()).toEqual(before);
  });

  it('refuses SVG for an example image with 415 and writes nothing', async () => {
    const before = stored();
    const res = await admin.upload('/api/upload/logo?purpose=example', 'logo', CLEAN_SVG, 'shot.svg', 'image/svg+xml');
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('Please upload a JPEG, PNG, GIF or WEBP image');
    expect(stored()).toEqual(before);
  });

  it.each([
    ['not well-formed', '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'],
    ['an undeclared entity', '<svg xmlns="http://www.w3.org/2000/svg"><text>&ent;</text></svg>'],
    [
      'an entity from its DOCTYPE',
      '<!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
    ],
  ])('refuses an SVG that is %s with 415 and writes nothing', async (_case, text) => {
    const before = stored();
    const res = await admin.upload('/api/upload/logo', 'logo', Buffer.from(text), 'logo.svg', 'image/svg+xml');
    expect(res.status).toBe(415);
    expect(res.body.message).toEqual(expect.any(String));
    expect(stored()).toEqual(before);
  });

  it('refuses a file over 5 MB with 413 and writes nothing', async () => {
    const before = stored();
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES + 1 - PNG.length)]);
    const res = await admin.upload('/api/upload/logo', 'logo', big, 'big.png', 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Logo must be smaller than 5MB');
    expect(stored()).toEqual(before);

    const example = await admin.upload('/api/upload/logo?purpose=example', 'logo', big, 'big.png', 'image/png');
    expect(example.status).toBe(413);
    expect(example.body.message).toBe('Image must be smaller than 5MB');
    expect(stored()).toEqual(before);
  });

  it('accepts a file of exactly 5 MB', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES - PNG.length)]);
    const res = await admin.upload('/api/upload/logo', 'logo', exact, 'exact.png', 'image/png');
    expect(res.status).toBe(200);
    expect(storedBytes(res.body.url).length).toBe(LOGO_MAX_BYTES);
  });

  it('refuses a file in another field with 400, and a request that is not multipart with 415', async () => {
    const before = stored();
    const wrongField = await admin.upload('/api/upload/logo', 'avatar', PNG, 'logo.png', 'image/png');
    expect(wrongField.status).toBe(400);
    const json = await admin.post('/api/upload/logo', { url: 'https://example.com/logo.png' });
    expect(json.status).toBe(415);
    expect(stored()).toEqual(before);
  });
});
