import * as React from 'react';
import { Link } from 'wouter';
import { QueryError } from '@/components/query-error';
import { Logo } from '@/components/ui/logo';
import { PageSpinner } from '@/components/ui/spinner';
import { useTerms } from '@/lib/terms';
import { Inlines, MarkdownBlocks } from '../components/markdown';
import { parseMarkdown, type Block } from '../markdown';

/** The file's first level-1 heading is the page's title (its one h1); the rest is the body. */
function split(blocks: Block[]): { title: Block | undefined; body: Block[] } {
  const at = blocks.findIndex((b) => b.kind === 'heading' && b.level === 1);
  if (at < 0) return { title: undefined, body: blocks };
  return { title: blocks[at], body: blocks.filter((_, i) => i !== at) };
}

/**
 * /terms: public, so a visitor can read what they agree to before signing up or paying. After the
 * terms, the rules of revisions, cancellation and refunds the server writes from the numbers it
 * enforces (issue 47).
 */
export function TermsPage() {
  const terms = useTerms();
  const { title, body } = React.useMemo(
    () => split(terms.data ? parseMarkdown(terms.data.markdown) : []),
    [terms.data],
  );
  const rules = React.useMemo(() => (terms.data?.rulesMarkdown ? parseMarkdown(terms.data.rulesMarkdown) : []), [terms.data]);
  return (
    <div className="min-h-page bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-3xl items-center gap-2 px-4 py-3 text-lg font-semibold sm:px-8">
          <Link href="/" className="flex items-center gap-2">
            <Logo /> Byline
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8 sm:px-8">
        {terms.isLoading ? (
          <>
            <h1 className="text-3xl font-bold tracking-tight">Terms of Service</h1>
            <PageSpinner />
          </>
        ) : terms.isError ? (
          <>
            <h1 className="mb-6 text-3xl font-bold tracking-tight">Terms of Service</h1>
            <QueryError query={terms} title="Couldn't load the terms" />
          </>
        ) : (
          <article data-testid="terms">
            <h1 className="text-3xl font-bold tracking-tight">
              {title && title.kind === 'heading' ? <Inlines nodes={title.children} /> : 'Terms of Service'}
            </h1>
            <MarkdownBlocks blocks={body} />
            {rules.length > 0 && (
              <section data-testid="fair-rules">
                <MarkdownBlocks blocks={rules} />
              </section>
            )}
          </article>
        )}
      </main>
    </div>
  );
}
