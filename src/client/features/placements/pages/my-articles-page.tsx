import * as React from 'react';
import { CheckCircle2, FileSearch, Inbox } from 'lucide-react';
import type { ArticleTabCounts } from '@shared/schemas/brief';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { useMyArticleCounts } from '@/lib/my-article-counts';
import { useMyArticlesTab } from '../api/get-my-articles';
import { ArticleCard } from '../components/my-articles/article-card';
import type { ArticleTab } from '../components/my-articles/article-status';

const TABS: { value: ArticleTab; label: string; title: string; empty: string; icon: React.ReactNode }[] = [
  { value: 'pending', label: 'Pending', title: 'Nothing pending', empty: 'You have no pending articles. Once you claim an opportunity, it will appear here.', icon: <Inbox /> },
  {
    value: 'needs-review',
    label: 'Needs Review',
    title: 'Nothing to review',
    empty: 'No drafts are ready for your review yet. Articles will appear here once the draft is complete.',
    icon: <FileSearch />,
  },
  {
    value: 'completed',
    label: 'Completed',
    title: 'Nothing completed yet',
    empty: "You have no completed articles yet. Completed articles will appear here once they're published.",
    icon: <CheckCircle2 />,
  },
];

/** One tab's purchases, page by page, in the server's order (drafts waiting for the brand first). */
function ArticleTabList({ tab }: { tab: (typeof TABS)[number] }) {
  const list = useMyArticlesTab(tab.value);
  if (list.isLoading) return <PageSpinner />;
  if (list.isError && !list.items) {
    return <p className="text-sm text-destructive">{errorMessage(list.error, 'Failed to load your articles')}</p>;
  }
  const items = list.items ?? [];
  if (items.length === 0) return <EmptyState icon={tab.icon} title={tab.title} description={tab.empty} />;
  return (
    <div className="grid grid-cols-1 gap-4">
      {items.map((a) => (
        <ArticleCard key={a.payment.id} article={a} />
      ))}
      <LoadMore pager={list} />
    </div>
  );
}

function ArticleTabs({ counts }: { counts: ArticleTabCounts }) {
  // opens where the brand has something to do (a draft waiting for its review), else Pending; chosen
  // once, so approving the last draft does not switch the tab under the user
  const [tab, setTab] = React.useState<ArticleTab>(() => (counts.toReview > 0 ? 'needs-review' : 'pending'));

  return (
    <Tabs value={tab} onValueChange={(v) => setTab(v as ArticleTab)}>
      <TabsList>
        {TABS.map((t) => {
          const n = counts[t.value];
          return (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
              {n > 0 && (
                <span className="rounded-full bg-primary px-1.5 py-px text-xs font-semibold leading-4 text-primary-foreground tabular-nums" data-testid="tab-count">
                  {n}
                </span>
              )}
            </TabsTrigger>
          );
        })}
      </TabsList>
      {TABS.map((t) => (
        <TabsContent key={t.value} value={t.value}>
          <ArticleTabList tab={t} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

export function MyArticlesPage() {
  useCheckoutReturn();
  const { data, isLoading, isError, error } = useMyArticleCounts();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">My Articles</h1>
        <p className="text-muted-foreground">Track your content placements and submissions</p>
      </div>
      {isLoading ? (
        <PageSpinner />
      ) : isError || !data ? (
        <p className="text-sm text-destructive">{errorMessage(error, 'Failed to load your articles')}</p>
      ) : (
        <ArticleTabs counts={data} />
      )}
    </div>
  );
}
