import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { TEST_MODE_NOTICE } from '../../shared/payment';
export { testClockNotice } from '../../shared/payment';
import { preferredEncoding } from './compress-json';

export interface IndexPage {
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * index.html with the "Test mode" banner written into it, for the built-in test checkout: drawn by
 * the server, so it is there on every page (before any script runs) and never shifts the layout.
 */
export function testModeIndexPage(clientDir: string, clock?: string, offsetMs = 0): IndexPage {
  // the test clock's time once it moved (issue 59): made by the server from a date, nothing typed;
  // its offset for the client's "due in" and "late" words (client lib/byline-time.ts)
  const banner = `<div class="test-mode-banner" data-clock-offset-ms="${Math.round(offsetMs)}">${TEST_MODE_NOTICE}${clock ? ` · ${escapeHtml(clock)}` : ''}</div>`;
  const source = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const html = /<body[^>]*>/.test(source)
    ? source.replace(/<body([^>]*)>/, `<body$1 class="test-mode">${banner}`)
    : source.replace('<div id="root"', `${banner}<div id="root"`);
  const body = Buffer.from(html);
  return { body, br: brotliCompressSync(body), gzip: gzipSync(body) };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function indexPageFor(page: IndexPage, acceptEncoding: string | string[] | undefined): { body: Buffer; encoding: 'br' | 'gzip' | null } {
  const encoding = preferredEncoding(acceptEncoding);
  return { body: encoding ? page[encoding] : page.body, encoding };
}
