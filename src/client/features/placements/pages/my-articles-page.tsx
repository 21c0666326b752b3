import * as React from 'react';
import { Link } from 'wouter';
import { CheckCircle2, FileSearch, Inbox, Undo2 } from 'lucide-react';
import type { ArticleTabCounts } from '@shared/schemas/brief';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { useMyArticleCounts } from '@/lib/my-article-counts';
import { useMyArticlesTab } from '../api/get-my-articles';
import { ArticleCard } from '../components/my-articles/article-card';
import { AWAITING_PUBLICATION, type ArticleTab } from '../components/my-articles/article-status';
import { QueryError } from '@/components/query-error';

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
  // issue 20: not one of the spec's tabs; shown only while the brand has a refunded purchase
  {
    value: 'refunded',
    label: 'Refunded',
    title: 'Nothing refunded',
    empty: 'You have no refunded articles.',
    icon: <Undo2 />,
  },
];

/** The next step of an empty tab: buying a placement is what fills every tab. */
function BrowseOpportunities() {
  return (
    <Button asChild size="sm">
      <Link href="/brand/opportunities">Browse opportunities</Link>
    </Button>
  );
}

/** One tab's purchases, page by page, in the server's order (drafts waiting for the brand first). */
function ArticleTabList({ tab }: { tab: (typeof TABS)[number] }) {
  const list = useMyArticlesTab(tab.value);
  if (list.isLoading) return <PageSpinner />;
  if (list.isError && !list.items) return <QueryError query={list} title="Couldn't load your articles" />;
  const items = list.items ?? [];
  if (items.length === 0) {
    return (
      <EmptyState icon={tab.icon} title={tab.title} description={tab.empty}>
        <BrowseOpportunities />
      </EmptyState>
    );
  }
  // Needs Review lists the drafts to review first (the server's order), then the approved ones
  // still waiting for publication under their own heading
  const firstApproved = tab.value === 'needs-review' ? items.findIndex((a) => a.payment.draftReviewStatus === 'approved') : -1;
  return (
    <div className="grid grid-cols-1 gap-4">
      {items.map((a, i) => (
        <React.Fragment key={a.payment.id}>
          {i === firstApproved && (
            <h2 className="pt-2 text-sm font-semibold text-muted-foreground" data-testid="approved-group">
              {AWAITING_PUBLICATION}
            </h2>
          )}
          <ArticleCard article={a} />
        </React.Fragment>
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
        {TABS.filter((t) => t.value !== 'refunded' || counts.refunded > 0).map((t) => {
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
  const counts = useMyArticleCounts();
  const { data, isLoading } = counts;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">My Articles</h1>
        <p className="text-muted-foreground">Track your content placements and submissions</p>
      </div>
      {isLoading ? (
        <PageSpinner />
      ) : !data ? (
        <QueryError query={counts} title="Couldn't load your articles" />
      ) : (
        <ArticleTabs counts={data} />
      )}
    </div>
  );
}
