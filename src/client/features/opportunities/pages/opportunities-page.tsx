import * as React from 'react';
import { Newspaper } from 'lucide-react';
import {
  OPPORTUNITY_TYPES,
  OPPORTUNITY_TYPE_DESCRIPTIONS,
  OPPORTUNITY_TYPE_SHORT_LABELS,
  type BrandOpportunity,
  type OpportunityType,
} from '@shared/opportunity';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUser } from '@/lib/auth';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { useOpportunities } from '../api/get-opportunities';
import { ClaimDialog } from '../components/claim-dialog';
import { OpportunityCard } from '../components/opportunity-card';

type Tab = 'all' | OpportunityType;

export function OpportunitiesPage() {
  useCheckoutReturn();
  const { data: user } = useUser();
  const { data, isLoading } = useOpportunities();
  const [tab, setTab] = React.useState<Tab>('all');
  const [selected, setSelected] = React.useState<BrandOpportunity | null>(null);
  const firstName = user?.name?.trim().split(/\s+/)[0] || 'there';

  const visible = React.useMemo(() => (data ?? []).filter((o) => tab === 'all' || o.type.includes(tab)), [data, tab]);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Welcome, {firstName}</h1>
        <p className="text-muted-foreground">Here's some opportunities that are currently available for you below</p>
      </div>
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList>
          <TabsTrigger value="all">All</TabsTrigger>
          {OPPORTUNITY_TYPES.map((t) => (
            <TabsTrigger key={t} value={t}>
              {OPPORTUNITY_TYPE_SHORT_LABELS[t]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {tab !== 'all' && (
        <p className="rounded-lg border-l-4 border-primary bg-primary/5 px-4 py-3 text-sm" data-testid="type-description">
          {OPPORTUNITY_TYPE_DESCRIPTIONS[tab]}
        </p>
      )}
      {isLoading ? (
        <PageSpinner />
      ) : visible.length === 0 ? (
        <EmptyState
          icon={<Newspaper />}
          title="Nothing here yet"
          description={`No ${tab === 'all' ? '' : `${OPPORTUNITY_TYPE_SHORT_LABELS[tab]} `}opportunities available`}
        />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {visible.map((o) => (
            <OpportunityCard key={o.id} opportunity={o} onOpen={() => setSelected(o)} />
          ))}
        </div>
      )}
      <ClaimDialog opportunity={selected} onClose={() => setSelected(null)} />
    </div>
  );
}
