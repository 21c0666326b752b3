import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from '../../src/client/features/terms/markdown';

describe('the terms Markdown reader', () => {
  it('reads headings, paragraphs over several lines, both kinds of lists with continued items, rules and quotes', () => {
    const blocks = parseMarkdown(
      '# Terms\n\nFirst line\nsecond line.\n\n## Money\n\n- held in **escrow**\n  until published\n- refunded\n\n1. one\n2. two\n\n---\n\n> a note\n\n#### Deep ###\n',
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, children: [{ kind: 'text', text: 'Terms' }] },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'First line second line.' }] },
      { kind: 'heading', level: 2, children: [{ kind: 'text', text: 'Money' }] },
      {
        kind: 'list',
        ordered: false,
        items: [
          [
            { kind: 'text', text: 'held in ' },
            { kind: 'strong', children: [{ kind: 'text', text: 'escrow' }] },
            { kind: 'text', text: ' until published' },
          ],
          [{ kind: 'text', text: 'refunded' }],
        ],
      },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]] },
      { kind: 'rule' },
      { kind: 'quote', children: [{ kind: 'text', text: 'a note' }] },
      { kind: 'heading', level: 4, children: [{ kind: 'text', text: 'Deep' }] },
    ]);
  });

  it('keeps raw HTML as text: nothing in the file becomes markup', () => {
    expect(parseMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)>')).toEqual([
      {
        kind: 'paragraph',
        children: [{ kind: 'text', text: '<script>alert(1)</script> <img src=x onerror=alert(1)>' }],
      },
    ]);
  });

  it('links only web, mail and same-site addresses; any other link is left as its text', () => {
    expect(parseInline('[site](https://byline.example) [mail](mailto:a@b.c) [page](/auth)')).toEqual([
      { kind: 'link', href: 'https://byline.example', children: [{ kind: 'text', text: 'site' }] },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: 'mailto:a@b.c', children: [{ kind: 'text', text: 'mail' }] },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: '/auth', children: [{ kind: 'text', text: 'page' }] },
    ]);
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '//evil.example/x',
      'vbscript:x',
    ]) {
      expect(parseInline(`[click](${href})`), href).toEqual([{ kind: 'text', text: 'click' }]);
    }
  });

  it('reads italic and code, and leaves snake_case words and lone stars alone', () => {
    expect(parseInline('*a* _b_ `c*d` snake_case_word 2 * 3')).toEqual([
      { kind: 'em', children: [{ kind: 'text', text: 'a' }] },
      { kind: 'text', text: ' ' },
      { kind: 'em', children: [{ kind: 'text', text: 'b' }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'c*d' },
      { kind: 'text', text: ' snake_case_word 2 * 3' },
    ]);
  });
});
