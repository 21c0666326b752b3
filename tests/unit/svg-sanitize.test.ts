import { describe, expect, it } from 'vitest';
import { SvgRejectedError, cleanCss, sanitizeSvg } from '../../src/server/storage/svg-sanitize';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const ROOT = `<svg ${NS} ${XLINK}>`;
const wrap = (inner: string) => `<svg ${NS} ${XLINK}>${inner}</svg>`;
const clean = (inner: string) => sanitizeSvg(wrap(inner));

describe('sanitizeSvg', () => {
  it('keeps an ordinary logo and writes the namespaces on the root', () => {
    expect(sanitizeSvg('<svg viewBox="0 0 2 2"><path d="M0 0h2v2z" fill="#fff"/></svg>')).toBe(
      `<svg ${NS} ${XLINK} viewBox="0 0 2 2"><path d="M0 0h2v2z" fill="#fff"></path></svg>`,
    );
  });

  it.each([
    ['script', '<script>alert(1)</script>'],
    ['SCRIPT in capitals', '<SCRIPT>alert(1)</SCRIPT>'],
    ['an XHTML script', '<script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script>'],
    ['a prefixed svg:script', '<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>'],
    [
      'foreignObject',
      '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject>',
    ],
    ['an svg inside foreignObject', '<foreignObject><svg><script>alert(1)</script></svg></foreignObject>'],
    ['iframe', '<iframe src="https://evil.example"/>'],
    ['image', '<image href="https://evil.example/x.png"/>'],
    ['feImage', '<feImage href="https://evil.example/x.png"/>'],
    ['set', '<set attributeName="onload" to="alert(1)"/>'],
    ['animate', '<animate attributeName="href" values="javascript:alert(1)"/>'],
    ['handler', '<handler type="text/javascript">alert(1)</handler>'],
    [
      'metadata from another namespace',
      '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">x</rdf:RDF></metadata>',
    ],
  ])('removes %s entirely', (_case, inner) => {
    expect(clean(`${inner}<rect width="1"/>`)).toBe(`${ROOT}<rect width="1"></rect></svg>`);
  });

  it('removes every event handler, in any case or namespace', () => {
    const out = clean(
      '<rect onclick="a()" ONLOAD="b()" onMouseOver="c()" xlink:onload="d()" width="1"/><g onfocusin="e()"><circle r="1" onbegin="f()"/></g>',
    );
    expect(out).toBe(`${ROOT}<rect width="1"></rect><g><circle r="1"></circle></g></svg>`);
    expect(sanitizeSvg(`<svg ${NS} onload="alert(1)"/>`)).toBe(`<svg ${NS} ${XLINK}></svg>`);
  });

  it('keeps only references inside the document', () => {
    expect(clean('<use href="#a"/><use xlink:href=" #b "/>')).toBe(
      `${ROOT}<use xlink:href="#a"></use><use xlink:href="#b"></use></svg>`,
    );
    for (const href of [
      'https://evil.example/sprite.svg#a',
      '//evil.example/a.svg#a',
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'data:image/svg+xml;base64,PHN2Zy8+',
      'sprite.svg#a',
      '#a b',
    ]) {
      expect(clean(`<use href="${href}"/><use xlink:href="${href}"/>`)).toBe(`${ROOT}<use></use><use></use></svg>`);
    }
  });

  it('unwraps links, keeping what they contain', () => {
    expect(clean('<a href="javascript:alert(1)" xlink:href="https://evil.example"><rect width="2"/></a>')).toBe(
      `${ROOT}<rect width="2"></rect></svg>`,
    );
  });

  it('keeps url(#id) paint and drops any other url()', () => {
    expect(
      clean('<rect fill="url(#g)" stroke="url( \'#h\' )" mask="url(https://evil.example/m)" filter="url(data:x)"/>'),
    ).toBe(`${ROOT}<rect fill="url(#g)" stroke="url( &apos;#h&apos; )"></rect></svg>`.replace(/&apos;/g, "'"));
  });

  it('drops attribute values that smuggle a script or data scheme', () => {
    expect(clean('<rect class="java&#9;script:x" fill="data:x" id="ok"/>')).toBe(`${ROOT}<rect id="ok"></rect></svg>`);
  });

  it('drops attributes it does not know', () => {
    expect(clean('<rect width="1" formaction="x" xml:base="https://evil.example/" data-x="1" srcdoc="x"/>')).toBe(
      `${ROOT}<rect width="1"></rect></svg>`,
    );
  });

  it('keeps safe CSS, drops style that could load anything', () => {
    expect(clean('<style><![CDATA[.a > b { fill: red } .b { fill: url(#g) }]]></style>')).toBe(
      `${ROOT}<style>.a &gt; b { fill: red } .b { fill: url(#g) }</style></svg>`,
    );
    for (const css of [
      '@import url(https://evil.example/x.css);',
      '@IMPORT "https://evil.example/x.css";',
      '.a { background: url(https://evil.example/x.png) }',
      '.a { background: URL( //evil.example/x.png ) }',
      '.a { background: \\75 rl(https://evil.example) }',
      '.a { background: image-set("https://evil.example/x.png" 1x) }',
      '@font-face { font-family: x; src: local(x) }',
      '.a { behavior: url(x.htc) }',
      '.a { width: expression(alert(1)) }',
      '/* unterminated',
    ]) {
      expect(clean(`<style>${css.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</style><rect/>`)).toBe(
        `${ROOT}<rect></rect></svg>`,
      );
    }
    expect(clean('<rect style="fill: red; stroke: url(#a)"/><rect style="fill: url(https://evil.example)"/>')).toBe(
      `${ROOT}<rect style="fill: red; stroke: url(#a)"></rect><rect></rect></svg>`,
    );
  });

  it('keeps text escaped as text', () => {
    expect(
      clean('<text>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <tspan>more</tspan></text><title>Acme "logo"</title>'),
    ).toBe(
      `${ROOT}<text>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <tspan>more</tspan></text><title>Acme "logo"</title></svg>`,
    );
  });

  it('escapes attribute values it keeps', () => {
    expect(clean(`<rect id='a"b&lt;c'/>`)).toBe(`${ROOT}<rect id="a&quot;b&lt;c"></rect></svg>`);
  });

  it('drops the DOCTYPE, comments and processing instructions', () => {
    const out = sanitizeSvg(
      `<?xml version="1.0"?><?xml-stylesheet href="https://evil.example/a.css"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><!-- x --><svg ${NS}><!-- <script>alert(1)</script> --><rect/></svg>`,
    );
    expect(out).toBe(`<svg ${NS} ${XLINK}><rect></rect></svg>`);
  });

  it.each([
    ['an entity defined in the DOCTYPE', `<!DOCTYPE svg [<!ENTITY x "boom">]><svg ${NS}><text>&x;</text></svg>`],
    [
      'an external entity',
      `<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg ${NS}><text>&xxe;</text></svg>`,
    ],
    [
      'a billion laughs',
      `<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg ${NS}><text>&c;</text></svg>`,
    ],
    ['not well-formed', `<svg ${NS}><rect></svg>`],
    ['HTML', '<!doctype html><html><body><svg></svg></body></html>'],
    ['an XHTML root', '<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>'],
    ['a non-svg root', `<g ${NS}><rect/></g>`],
    ['empty', ''],
    ['two roots', `<svg ${NS}/><svg ${NS}/>`],
  ])('rejects %s', (_case, text) => {
    expect(() => sanitizeSvg(text)).toThrow(SvgRejectedError);
  });

  it('gives the same output when run on its own output', () => {
    const input = wrap(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient></defs><a><text xml:space="preserve"> A &amp; B </text></a><use href="#g"/><style>.x{fill:red}</style>',
    );
    const once = sanitizeSvg(input);
    expect(sanitizeSvg(once)).toBe(once);
    expect(once).toContain('<text xml:space="preserve"> A &amp; B </text>');
  });

  it('reads a byte-order mark and non-ASCII text', () => {
    expect(sanitizeSvg(Buffer.from(`\uFEFF<svg ${NS}><title>Café ☕</title></svg>`))).toBe(
      `<svg ${NS} ${XLINK}><title>Café ☕</title></svg>`,
    );
  });
});

describe('cleanCss', () => {
  it('removes comments, so what is checked is what is written', () => {
    expect(cleanCss('.a{fill:red}/* x */')).toBe('.a{fill:red} ');
    expect(cleanCss('.a{background:u/**/rl(https://evil.example)}')).toBe('.a{background:u rl(https://evil.example)}');
    expect(cleanCss('.a{background:url/**/(https://evil.example)}')).toBeNull();
  });
});
