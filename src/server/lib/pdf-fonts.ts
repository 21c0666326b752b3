import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';

/**
 * The fonts of Byline's PDFs (invoices and credit notes, reports): DejaVu Sans embedded, and a
 * fallback font for the characters it lacks (Chinese, Japanese, Korean).
 */

// parsed once: pdfkit takes a fontkit font as it is, and makes each document's subset from it
const openFont = (url: string) => fontkit.create(readFileSync(fileURLToPath(url))) as fontkit.Font;
export const REGULAR = openFont(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
export const BOLD = openFont(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'));
/** pdfkit's types know only paths and bytes; its font factory takes any object with `layout` */
export const asSource = (font: fontkit.Font) => font as unknown as Buffer;

const fallbacks = new Map<string, fontkit.Font>();

/** Where Debian and most Linux distributions put a CJK font, tried when none is configured. */
const SYSTEM_FALLBACKS = [
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
];

export function fallbackFont(configured: string | undefined): fontkit.Font | null {
  const path = configured ?? SYSTEM_FALLBACKS.find((p) => existsSync(p));
  if (!path) return null;
  let font = fallbacks.get(path);
  if (!font) {
    const opened = fontkit.openSync(path);
    font = 'fonts' in opened ? opened.fonts[0] : opened;
    fallbacks.set(path, font);
  }
  return font;
}
