import * as React from 'react';
import { Link, useSearchParams } from 'wouter';
import { BadgeCheck, CheckCircle2, FileSearch, Inbox, Undo2 } from 'lucide-react';
import { ARTICLE_TABS, type ArticleTabCounts } from '@shared/schemas/brief';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { useMyArticleCounts } from '@/lib/my-article-counts';
import { useMyArticlesTab } from '../api/get-my-articles';
import { ArticleCard } from '../components/my-articles/article-card';
import type { ArticleTab } from '../components/my-articles/article-status';
import { QueryError } from '@/components/query-error';
import { ClientFilter, useClientParam } from '@/components/client-filter';
import { useCanBuy } from '@/lib/cart';
import { useReviewOnly } from '@/lib/org';
import { BulkBar } from '../components/my-articles/bulk-bar';

const TABS: { value: ArticleTab; label: string; title: string; empty: string; icon: React.ReactNode }[] = [
  { value: 'pending', label: 'Pending', title: 'Nothing pending', empty: 'You have no pending articles. Once you claim an opportunity, it will appear here.', icon: <Inbox /> },
  {
    value: 'needs-review',
    label: 'Needs Review',
    title: 'Nothing to review',
    empty: 'No drafts are ready for your review yet. Articles will appear here once the draft is complete.',
    icon: <FileSearch />,
  },
  // issue 43: not one of the spec's tabs, which give an approved draft not yet published none
  {
    value: 'approved',
    label: 'Approved',
    title: 'Nothing awaiting publication',
    empty: 'No approved drafts are waiting for publication. Once you approve a draft, the article appears here until it is published.',
    icon: <BadgeCheck />,
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

/** An agency's client reviews what the agency buys for it: its empty tabs say so, not "claim". */
const REVIEW_ONLY_EMPTY: Partial<Record<ArticleTab, string>> = {
  pending: 'No articles are waiting for a brief. Each article your agency buys for you appears here first.',
};

/** The next step of an empty tab: buying a placement is what fills every tab. */
function BrowseOpportunities() {
  return (
    <Button asChild size="sm">
      <Link href="/brand/opportunities">Browse opportunities</Link>
    </Button>
  );
}

/**
 * An empty tab's next step, for what the member can do (issue 57): buying fills every tab, for a
 * member who buys; one who does not (a reviewer, a viewer, an agency's client) is shown the tab that
 * has articles, if any.
 */
function EmptyTabNext({
  tab,
  counts,
  onTab,
}: {
  tab: ArticleTab;
  counts: ArticleTabCounts;
  onTab: (tab: ArticleTab) => void;
}) {
  const canBuy = useCanBuy();
  if (canBuy === undefined) return null;
  if (canBuy) return <BrowseOpportunities />;
  const other = TABS.find((t) => t.value !== tab && counts[t.value] > 0);
  if (!other) return null;
  return (
    <Button size="sm" variant="outline" onClick={() => onTab(other.value)} data-testid="empty-tab-next">
      Show {other.label} ({counts[other.value]})
    </Button>
  );
}

/** One tab's purchases, page by page, newest first (the server's order); tick several to act on them at once. */
function ArticleTabList({
  tab,
  clientId,
  counts,
  onTab,
}: {
  tab: (typeof TABS)[number];
  clientId: string | null;
  counts: ArticleTabCounts;
  onTab: (tab: ArticleTab) => void;
}) {
  const list = useMyArticlesTab(tab.value, clientId);
  const reviewOnly = useReviewOnly() === true;
  const [ticked, setTicked] = React.useState<ReadonlySet<string>>(new Set());
  if (list.isLoading) return <PageSpinner />;
  if (list.isError && !list.items) return <QueryError query={list} title="Couldn't load your articles" />;
  const items = list.items ?? [];
  const selected = items.filter((a) => ticked.has(a.payment.id));
  // the bar stays mounted when the tab empties: its report of what it did stays on screen
  const bar = <BulkBar selected={selected} reviewOnly={reviewOnly} onClear={() => setTicked(new Set())} />;
  const tick = (id: string, on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  // one tree whether the tab has items or not: the bar keeps its state when the tab empties
  return (
    <div className="grid grid-cols-1 gap-4">
      {bar}
      {items.length === 0 ? (
        <EmptyState
          icon={tab.icon}
          title={tab.title}
          description={reviewOnly ? (REVIEW_ONLY_EMPTY[tab.value] ?? tab.empty) : tab.empty}
        >
          <EmptyTabNext tab={tab.value} counts={counts} onTab={onTab} />
        </EmptyState>
      ) : (
        <>
          {items.map((a) => (
            <ArticleCard key={a.payment.id} article={a} selection={{ checked: ticked.has(a.payment.id), onChange: (on) => tick(a.payment.id, on) }} />
          ))}
          <LoadMore pager={list} />
        </>
      )}
    </div>
  );
}

const isArticleTab = (v: string | null): v is ArticleTab => (ARTICLE_TABS as readonly (string | null)[]).includes(v);

/**
 * The open tab lives in the URL (`?tab=approved`), so a reload, a shared link, Back and Forward show
 * the same tab. Without the parameter the page opens where the brand has something to do (a draft
 * waiting for its review), else on Pending; that tab is chosen once, so approving the last draft does
 * not switch the tab under the user, and choosing it again drops the parameter.
 */
function useTabInUrl(counts: ArticleTabCounts): [ArticleTab, (tab: ArticleTab) => void] {
  const [params, setParams] = useSearchParams();
  const [opening] = React.useState<ArticleTab>(() => (counts.toReview > 0 ? 'needs-review' : 'pending'));
  const asked = params.get('tab');
  const select = React.useCallback(
    (next: ArticleTab) => {
      // Radix chooses a tab on mouse down and again as it takes the focus: one history entry per choice
      const shown = new URLSearchParams(window.location.search).get('tab');
      if ((isArticleTab(shown) ? shown : opening) === next) return;
      setParams((current) => {
        const p = new URLSearchParams(current);
        if (next === opening) p.delete('tab');
        else p.set('tab', next);
        return p;
      });
    },
    [setParams, opening],
  );
  return [isArticleTab(asked) ? asked : opening, select];
}

function ArticleTabs({ counts, clientId }: { counts: ArticleTabCounts; clientId: string | null }) {
  const [tab, setTab] = useTabInUrl(counts);

  return (
    <Tabs value={tab} onValueChange={(v) => setTab(v as ArticleTab)}>
      {/* five tabs do not fit a phone on one line: they wrap, so none is off screen */}
      <TabsList className="h-auto flex-wrap" data-testid="article-tabs">
        {TABS.filter((t) => t.value !== 'refunded' || counts.refunded > 0 || tab === 'refunded').map((t) => {
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
          <ArticleTabList tab={t} clientId={clientId} counts={counts} onTab={setTab} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

export function MyArticlesPage() {
  useCheckoutReturn();
  const [clientId, setClientId] = useClientParam();
  const counts = useMyArticleCounts(clientId);
  const { data, isLoading } = counts;
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">My Articles</h1>
          <p className="text-muted-foreground">Track your content placements and submissions</p>
        </div>
        <ClientFilter value={clientId} onChange={setClientId} />
      </div>
      {isLoading ? (
        <PageSpinner />
      ) : !data ? (
        <QueryError query={counts} title="Couldn't load your articles" />
      ) : (
        <ArticleTabs counts={data} clientId={clientId} />
      )}
    </div>
  );
}
