import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * SVG logos are rebuilt, not filtered: the upload is parsed as strict XML and a new document is
 * written containing only allowlisted SVG elements and attributes. Whatever the parser sees and
 * we do not know (script, foreignObject, on* handlers, other namespaces, DOCTYPE and entities,
 * processing instructions, comments) never reaches the output, and because we serialise the
 * output ourselves no browser can read it differently from us. References may only point inside
 * the document ("#id"); CSS may not load anything (no @import, url() only to "#id").
 */

export class SvgRejectedError extends Error {}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

// prettier-ignore
const ELEMENTS = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'style',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'text', 'tspan', 'textPath',
  'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'pattern', 'marker',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix',
  'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA',
  'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology',
  'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
]);

/** Elements dropped but whose children are kept (a link around a logo). */
const UNWRAP = new Set(['a']);

/** Elements whose text content is part of the picture. */
const TEXT_ELEMENTS = new Set(['text', 'tspan', 'textPath', 'title', 'desc', 'style']);

/** Elements that may reference another element of the same document. */
const HREF_ELEMENTS = new Set(['use', 'linearGradient', 'radialGradient', 'pattern', 'textPath', 'filter']);

// prettier-ignore
const ATTRIBUTES = new Set([
  'id', 'class', 'style', 'lang', 'role', 'aria-label', 'aria-hidden', 'version', 'baseProfile',
  'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr',
  'd', 'points', 'pathLength', 'viewBox', 'preserveAspectRatio', 'transform',
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap',
  'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'opacity',
  'color', 'display', 'visibility', 'overflow', 'clip', 'clip-path', 'clip-rule', 'mask', 'filter',
  'marker-start', 'marker-mid', 'marker-end', 'paint-order', 'vector-effect', 'shape-rendering',
  'text-rendering', 'image-rendering', 'color-interpolation', 'color-interpolation-filters',
  'mix-blend-mode', 'isolation', 'enable-background',
  'font-family', 'font-size', 'font-size-adjust', 'font-stretch', 'font-style', 'font-variant',
  'font-weight', 'letter-spacing', 'word-spacing', 'text-anchor', 'text-decoration',
  'dominant-baseline', 'alignment-baseline', 'baseline-shift', 'writing-mode', 'direction',
  'unicode-bidi', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust', 'startOffset', 'method', 'spacing', 'side',
  'gradientUnits', 'gradientTransform', 'spreadMethod', 'offset', 'stop-color', 'stop-opacity',
  'patternUnits', 'patternContentUnits', 'patternTransform', 'clipPathUnits', 'maskUnits',
  'maskContentUnits', 'markerWidth', 'markerHeight', 'markerUnits', 'refX', 'refY', 'orient',
  'filterUnits', 'primitiveUnits', 'in', 'in2', 'result', 'stdDeviation', 'mode', 'operator',
  'k1', 'k2', 'k3', 'k4', 'values', 'type', 'tableValues', 'slope', 'intercept', 'amplitude',
  'exponent', 'order', 'kernelMatrix', 'divisor', 'bias', 'targetX', 'targetY', 'edgeMode',
  'kernelUnitLength', 'preserveAlpha', 'surfaceScale', 'diffuseConstant', 'specularConstant',
  'specularExponent', 'lighting-color', 'flood-color', 'flood-opacity', 'azimuth', 'elevation',
  'z', 'pointsAtX', 'pointsAtY', 'pointsAtZ', 'limitingConeAngle', 'scale', 'xChannelSelector',
  'yChannelSelector', 'radius', 'baseFrequency', 'numOctaves', 'seed', 'stitchTiles',
]);

const LOCAL_REF = /^#[A-Za-z_][\w.:-]*$/;
const SAFE_URL_FN = /url\(\s*(['"]?)#[A-Za-z_][\w.:-]*\1\s*\)/gi;

/**
 * CSS (a style element or attribute) cleaned of comments, or null when it could load or run
 * anything. The cleaned text is what was checked, and what is written.
 */
export function cleanCss(css: string): string | null {
  // a comment separates tokens like a space does ("u/**/rl(" is not url()), so this keeps meaning
  const text = css.replace(/\/\*[\s\S]*?\*\//g, ' ');
  // escapes ("\75 rl(") can spell anything; a comment left open hides the rest
  if (/[\\<]|\/\*/.test(text)) return null;
  const rest = text.replace(SAFE_URL_FN, '').toLowerCase();
  const dangerous =
    /url\s*\(|@import|@font-face|@namespace|image(-set)?\s*\(|cross-fade|element\s*\(|expression|javascript:|vbscript:|data:|behavior|-moz-binding/;
  return dangerous.test(rest) ? null : text;
}

/** An attribute value that can load nothing: url() only to "#id", no script or data scheme. */
function isSafeValue(value: string): boolean {
  // browsers ignore control characters and spaces inside schemes ("java\tscript:")
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const invisible = /[\s\u0000-\u001f]+/g;
  const squashed = value.replace(SAFE_URL_FN, '').replace(invisible, '').toLowerCase();
  return !/url\(|javascript:|vbscript:|data:|expression\(/.test(squashed);
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) =>
  escapeText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

function attributesOf(tag: SaxesTagNS, isRoot: boolean): string {
  const out: string[] = [];
  if (isRoot) out.push(` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"`);
  for (const attr of Object.values(tag.attributes)) {
    const { uri, local, value } = attr;
    if (attr.prefix === 'xmlns' || attr.name === 'xmlns') continue;
    if ((uri === '' || uri === XLINK_NS) && local === 'href') {
      if (HREF_ELEMENTS.has(tag.local) && LOCAL_REF.test(value.trim()))
        out.push(` xlink:href="${escapeAttr(value.trim())}"`);
      continue;
    }
    if (uri === XML_NS && local === 'space') {
      if (value === 'default' || value === 'preserve') out.push(` xml:space="${value}"`);
      continue;
    }
    if (uri !== '' || !ATTRIBUTES.has(local)) continue;
    const clean = local === 'style' ? cleanCss(value) : isSafeValue(value) ? value : null;
    if (clean !== null) out.push(` ${local}="${escapeAttr(clean)}"`);
  }
  return out.join('');
}

/**
 * Returns a clean SVG document built from `input`, or throws SvgRejectedError when it is not a
 * well-formed SVG document.
 */
export function sanitizeSvg(input: Buffer | string): string {
  const source = (typeof input === 'string' ? input : input.toString('utf8')).replace(/^\uFEFF/, '');
  const parser = new SaxesParser({ xmlns: true });
  const out: string[] = [];
  // one entry per open element: 'keep' (written), 'unwrap' (children kept) or 'drop' (subtree skipped)
  const stack: ('keep' | 'unwrap' | 'drop')[] = [];
  const keptNames: string[] = [];
  let dropping = 0;
  let sawRoot = false;
  let style: string[] | null = null;

  const innermostKept = () => keptNames[keptNames.length - 1];

  parser.on('opentag', (tag) => {
    if (dropping > 0) {
      dropping++;
      stack.push('drop');
      return;
    }
    const isRoot = !sawRoot;
    sawRoot = true;
    // a document without xmlns is read as SVG (browsers would not draw it, we add the namespace)
    const inSvg = tag.uri === SVG_NS || tag.uri === '';
    if (isRoot && !(inSvg && tag.local === 'svg')) throw new SvgRejectedError('The root element is not <svg>');
    if (inSvg && UNWRAP.has(tag.local)) {
      stack.push('unwrap');
      return;
    }
    if (!inSvg || !ELEMENTS.has(tag.local) || style !== null) {
      dropping = 1;
      stack.push('drop');
      return;
    }
    stack.push('keep');
    keptNames.push(tag.local);
    if (tag.local === 'style') {
      style = [];
      return;
    }
    out.push(`<${tag.local}${attributesOf(tag, isRoot)}>`);
  });

  parser.on('closetag', () => {
    const kind = stack.pop();
    if (kind === 'drop') {
      dropping--;
      return;
    }
    if (kind !== 'keep') return;
    const name = keptNames.pop()!;
    if (name === 'style') {
      const css = cleanCss(style!.join(''));
      style = null;
      if (css !== null) out.push(`<style>${escapeText(css)}</style>`);
      return;
    }
    out.push(`</${name}>`);
  });

  const onText = (text: string) => {
    if (dropping > 0) return;
    if (style !== null) {
      style.push(text);
      return;
    }
    const name = innermostKept();
    if (name && TEXT_ELEMENTS.has(name)) out.push(escapeText(text));
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  // doctype, entities, comments and processing instructions are simply never written; an entity
  // other than the five of XML is an error in saxes, so nothing is ever expanded
  parser.on('error', (err) => {
    throw new SvgRejectedError(`Not a well-formed SVG document: ${err.message}`);
  });

  try {
    parser.write(source).close();
  } catch (err) {
    if (err instanceof SvgRejectedError) throw err;
    throw new SvgRejectedError(`Not a well-formed SVG document: ${(err as Error).message}`);
  }
  if (!sawRoot) throw new SvgRejectedError('The file has no <svg> element');
  return out.join('');
}
