import * as React from 'react';
import type { Block, Inline } from '../markdown';

export function Inlines({ nodes }: { nodes: Inline[] }) {
  return (
    <>
      {nodes.map((n, i) => {
        switch (n.kind) {
          case 'text':
            return <React.Fragment key={i}>{n.text}</React.Fragment>;
          case 'code':
            return (
              <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">
                {n.text}
              </code>
            );
          case 'strong':
            return (
              <strong key={i} className="font-semibold">
                <Inlines nodes={n.children} />
              </strong>
            );
          case 'em':
            return (
              <em key={i}>
                <Inlines nodes={n.children} />
              </em>
            );
          case 'link': {
            const external = /^(https?:|mailto:)/i.test(n.href);
            return (
              <a
                key={i}
                href={n.href}
                className="font-medium text-primary underline underline-offset-4"
                {...(external ? { rel: 'noopener noreferrer nofollow' } : {})}
              >
                <Inlines nodes={n.children} />
              </a>
            );
          }
        }
      })}
    </>
  );
}

const HEADING_CLASS = {
  2: 'mt-8 text-xl font-semibold',
  3: 'mt-6 text-lg font-semibold',
  4: 'mt-4 font-semibold',
} as const;

/** Renders parsed Markdown as text only; level-1 headings become h2 (the page owns its h1). */
export function MarkdownBlocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b, i) => {
        switch (b.kind) {
          case 'heading': {
            const level = Math.max(b.level, 2) as 2 | 3 | 4;
            const Tag = `h${level}` as const;
            return (
              <Tag key={i} className={HEADING_CLASS[level]}>
                <Inlines nodes={b.children} />
              </Tag>
            );
          }
          case 'paragraph':
            return (
              <p key={i} className="mt-3 leading-relaxed">
                <Inlines nodes={b.children} />
              </p>
            );
          case 'quote':
            return (
              <blockquote key={i} className="mt-3 border-l-4 pl-4 text-muted-foreground">
                <Inlines nodes={b.children} />
              </blockquote>
            );
          case 'list': {
            const List = b.ordered ? 'ol' : 'ul';
            return (
              <List
                key={i}
                className={`mt-3 space-y-1.5 pl-6 leading-relaxed ${b.ordered ? 'list-decimal' : 'list-disc'}`}
              >
                {b.items.map((item, j) => (
                  <li key={j}>
                    <Inlines nodes={item} />
                  </li>
                ))}
              </List>
            );
          }
          case 'rule':
            return <hr key={i} className="my-6" />;
        }
      })}
    </>
  );
}
