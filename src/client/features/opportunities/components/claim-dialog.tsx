import * as React from 'react';
import { LiveBy } from '@/components/promise/live-by';
import { Link } from 'wouter';
import { BadgeCheck, ExternalLink, Lock, Send, ShieldCheck, Store } from 'lucide-react';
import {
  OPPORTUNITY_TYPE_LABELS,
  formatDeadlineLong,
  remainingSlots,
  type BrandOpportunityItem,
  type OpportunityType,
} from '@shared/opportunity';
import { GUARANTEE_DAYS, GUARANTEE_TITLE } from '@shared/constants';
import { formatUsd, toCents } from '@shared/money';
import { CAPABILITY_REFUSALS, roleCan } from '@shared/org';
import type { OrgClient, Spend } from '@shared/schemas/org';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TermsLink } from '@/components/terms-link';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useClients, useOrg, useSpend } from '@/lib/org';
import { TopicChips, outletFacts } from '@/components/outlet/catalogue-facts';
import { OutletLogo } from '@/components/outlet/outlet-logo';
import { useCreateCheckout } from '../api/create-checkout';
import { CartButton } from './cart-button';
import { SaveButton } from './save-button';

const EXPECTATIONS: Record<OpportunityType, string> = {
  profile_article:
    'A journalist will write an in-depth story about your company, founder or product, drawing on the brief you give them.',
  editorial_feature:
    "Your company will be covered as part of a larger industry story written by the outlet's editorial team.",
  advertorial_brand_voice:
    "A sponsored article written in your brand's voice, polished by the outlet's editors for their readers.",
  listicle: 'Your brand will appear as one entry in a curated list, alongside others chosen by the editors.',
};

const NEXT_STEPS = [
  'Complete the questionnaire in the My Articles tab',
  'A journalist receives your brief and starts writing',
  'Review and edit the draft before publication',
];

function Metric({ label, value, hint }: { label: string; value: React.ReactNode; hint?: string }) {
  return (
    <div className="rounded-lg border bg-muted/30 p-3">
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="font-semibold">{value}</p>
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

function ReviewStep({ o, outletLink, canSave }: { o: BrandOpportunityItem; outletLink: boolean; canSave: boolean }) {
  const facts = outletFacts(o);
  return (
    <div className="space-y-5">
      <div className="flex items-start gap-3">
        <OutletLogo name={o.outletName} logoUrl={o.logoUrl} className="size-14" />
        <div className="min-w-0 flex-1 space-y-1.5">
          {o.outletUrl ? (
            <a
              href={o.outletUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 font-semibold text-primary hover:underline"
            >
              {o.outletName} <ExternalLink className="size-3.5" />
            </a>
          ) : (
            <p className="font-semibold">{o.outletName}</p>
          )}
          <div className="flex flex-wrap gap-1">
            {o.type.map((t) => (
              <Badge key={t} variant="info">
                {OPPORTUNITY_TYPE_LABELS[t]}
              </Badge>
            ))}
            {o.soldOut && <Badge variant="destructive">Sold out</Badge>}
          </div>
          {facts.length > 0 && <p className="text-sm text-muted-foreground">{facts.join(' · ')}</p>}
          {outletLink && o.outletId && (
            <Link
              href={`/brand/outlets/${o.outletId}`}
              className="inline-flex min-h-6 items-center gap-1 text-sm font-medium text-primary hover:underline"
              data-testid="claim-outlet-link"
            >
              <Store className="size-3.5" aria-hidden /> About this outlet
            </Link>
          )}
        </div>
        {canSave && <SaveButton opportunity={o} />}
      </div>
      <div className="space-y-2">
        <h3 className="text-lg font-semibold leading-snug">{o.title}</h3>
        <p className="whitespace-pre-line text-sm text-muted-foreground">{o.description}</p>
        <TopicChips topics={o.topics} />
        {o.promise && <LiveBy liveBy={o.promise.liveBy} usuallyBy={o.promise.usuallyBy} className="text-sm" />}
      </div>
      <div className="space-y-2">
        <h4 className="text-sm font-semibold">Key Metrics</h4>
        <div className="grid grid-cols-2 gap-2">
          <Metric label="Domain Authority" value={o.domainAuthority ?? '—'} />
          <Metric label="Turnaround Time" value={o.tat || '—'} />
          {o.maxSlots > 1 && <Metric label="Available Slots" value={`${remainingSlots(o)}/${o.maxSlots}`} />}
          {o.deadlineDate && (
            <Metric label="Deadline" value={formatDeadlineLong(o.deadlineDate)} hint="Last date to purchase" />
          )}
        </div>
      </div>
      {o.exampleUrls.length > 0 && (
        <div className="space-y-2">
          <h4 className="text-sm font-semibold">Examples</h4>
          <ul className="flex flex-wrap gap-2">
            {o.exampleUrls.map((url) => (
              <li key={url}>
                <a
                  href={url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 text-sm text-primary hover:underline"
                >
                  View example <ExternalLink className="size-3.5" />
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function NextStep({ o }: { o: BrandOpportunityItem }) {
  return (
    <div className="space-y-5">
      <div className="rounded-lg border bg-primary/5 p-4">
        <p className="text-sm text-muted-foreground">Total price</p>
        <p className="text-3xl font-semibold tabular-nums">{formatUsd(o.priceUsd)}</p>
        <p className="text-sm text-muted-foreground">One-time payment • Held in escrow until publication</p>
      </div>
      <div className="space-y-1">
        <h3 className="text-sm font-semibold">What to expect</h3>
        <p className="text-sm text-muted-foreground">{o.type.map((t) => EXPECTATIONS[t]).join(' ')}</p>
      </div>
      <ol className="space-y-2">
        {NEXT_STEPS.map((step, i) => (
          <li key={step} className="flex gap-3 text-sm">
            <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground">
              {i + 1}
            </span>
            <span className="pt-0.5">{step}</span>
          </li>
        ))}
      </ol>
      <div className="flex gap-3 rounded-lg border p-3 text-sm">
        <Lock className="mt-0.5 size-4 shrink-0 text-primary" />
        <p>
          <span className="font-semibold">Escrow protection.</span> Your payment is held securely and released to the
          outlet only once your article is published.
        </p>
      </div>
      <div className="flex gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
        <ShieldCheck className="mt-0.5 size-4 shrink-0" />
        <p>
          <span className="font-semibold">{GUARANTEE_TITLE}.</span> If your placement is not delivered within{' '}
          {GUARANTEE_DAYS} days, you get a full refund automatically.
        </p>
      </div>
    </div>
  );
}

/** The box the payment needs, kept beside the Pay button it enables. */
function Agreement({ agreed, setAgreed }: { agreed: boolean; setAgreed: (v: boolean) => void }) {
  return (
    <div className="space-y-1">
      <div className="flex items-start gap-3">
        <Checkbox id="claim-terms" checked={agreed} onCheckedChange={(v) => setAgreed(v === true)} className="mt-0.5" />
        <Label htmlFor="claim-terms" className="text-sm font-normal leading-snug">
          I agree to the terms of service and understand my payment is held in escrow until my article is published.
        </Label>
      </div>
      <p className="pl-7 text-xs text-muted-foreground">
        Read the <TermsLink>terms of service</TermsLink> before you pay.
      </p>
    </div>
  );
}

/** What is left of the tighter cap this month, and whose cap it is; null when no cap applies. */
function budgetLeft(spend: Spend): { left: string; whose: string } | null {
  const org = spend.leftUsd === null ? null : { left: spend.leftUsd, whose: 'your organisation’s budget' };
  const own = spend.member.leftUsd === null ? null : { left: spend.member.leftUsd, whose: 'your own budget' };
  const tighter = org && own ? (toCents(own.left) < toCents(org.left) ? own : org) : (org ?? own);
  // an overspent cap (refunds, a cap lowered) leaves nothing rather than a negative amount
  return tighter && toCents(tighter.left) < 0 ? { ...tighter, left: '0.00' } : tighter;
}

/** The member's budget and approval threshold as they bear on this price (decision 034). */
function BudgetNotice({ spend, price, needsApproval }: { spend: Spend; price: string; needsApproval: boolean }) {
  const left = budgetLeft(spend);
  if (!left && !needsApproval) return null;
  const over = left !== null && toCents(price) > toCents(left.left);
  return (
    <div className="space-y-1 rounded-lg border bg-muted/30 px-3 py-2 text-sm" data-testid="claim-budget">
      {left && (
        <p>
          Budget left this month: <span className="font-semibold tabular-nums">{formatUsd(left.left)}</span>{' '}
          <span className="text-muted-foreground">({left.whose})</span>
        </p>
      )}
      {over && <p className="text-amber-800">This price is more than what is left this month.</p>}
      {needsApproval && (
        <p className="font-medium text-amber-800" data-testid="claim-needs-approval">
          This purchase needs approval from an owner or admin
          <span className="font-normal text-muted-foreground">
            {' '}
            (above your limit of {formatUsd(spend.member.approvalThresholdUsd ?? '0')}); you pay once it is approved.
          </span>
        </p>
      )}
    </div>
  );
}

/**
 * Which of the organisation's clients the placement is for (decision 035): shown when it has
 * clients; a member limited to some must choose one of theirs.
 */
function ClientChoice({
  clients,
  limited,
  value,
  onChange,
}: {
  clients: OrgClient[];
  limited: boolean;
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <div className="grid gap-1.5 text-sm">
      <label htmlFor="claim-client" className="font-medium">
        For client
      </label>
      <select
        id="claim-client"
        className="h-9 rounded-md border bg-background px-2"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="claim-client"
      >
        {!limited && <option value="">No client</option>}
        {clients.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Two steps: "Review Opportunity", then "What Happens Next" and the provider's checkout. Beside
 * "Next", "Add to cart" (`inCart` undefined: the member has no cart) to buy it later with others.
 */
export function ClaimDialog({
  opportunity,
  onClose,
  inCart,
  outletLink = true,
}: {
  opportunity: BrandOpportunityItem | null;
  onClose: () => void;
  inCart?: boolean;
  /** "About this outlet", to the outlet's page (not on that page itself) */
  outletLink?: boolean;
}) {
  const [step, setStep] = React.useState<1 | 2>(1);
  const [agreed, setAgreed] = React.useState(false);
  const checkout = useCreateCheckout();
  const [redirecting, setRedirecting] = React.useState(false);
  // a refusal about this purchase's budget (422), shown in the dialog
  const [refusal, setRefusal] = React.useState<string | null>(null);
  const org = useOrg().data;
  const role = org?.role;
  const clients = useClients(opportunity !== null && roleCan(role, 'buy')).data ?? [];
  const limited = Boolean(org?.clientIds);
  const [chosenClient, setChosenClient] = React.useState<string | null>(null);
  // a member limited to clients buys for one of them: the first until another is chosen
  const clientId = chosenClient ?? (limited ? (clients[0]?.id ?? '') : '');
  // reviewers and viewers cannot buy: said before the payment step rather than by a 403
  const cannotBuy = role !== undefined && !roleCan(role, 'buy');
  const spend = useSpend(opportunity !== null && roleCan(role, 'buy')).data;
  const threshold = spend?.member.approvalThresholdUsd ?? null;
  const needsApproval = Boolean(
    opportunity && threshold !== null && toCents(opportunity.priceUsd) > toCents(threshold),
  );

  const close = () => {
    // closing always starts over: step 1, box unticked
    setStep(1);
    setAgreed(false);
    setRefusal(null);
    setChosenClient(null);
    onClose();
  };

  const pay = () => {
    if (!opportunity) return;
    setRefusal(null);
    checkout.mutate(
      { opportunityId: opportunity.id, ...(clientId ? { clientId } : {}) },
      {
        onSuccess: (answer) => {
          if ('purchaseRequest' in answer) {
            toast({
              title: 'Sent for approval',
              description:
                'An owner or admin of your organisation approves or declines it; once approved, pay it from Purchase requests.',
            });
            close();
            return;
          }
          setRedirecting(true);
          window.location.assign(answer.url);
        },
        onError: (err) => {
          // the spec's toast for every failed checkout; over a budget (422), the dialog says it too,
          // beside the budget it names
          toast({
            title: 'Checkout failed',
            description: errorMessage(err, 'Failed to create checkout session'),
            variant: 'destructive',
          });
          if (err instanceof ApiError && err.code === 'over_budget') setRefusal(err.message);
        },
      },
    );
  };
  const processing = checkout.isPending || redirecting;

  return (
    <Dialog open={opportunity !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent className="max-w-xl" data-testid="claim-dialog">
        {opportunity && (
          <>
            <DialogHeader>
              <DialogTitle>{step === 1 ? 'Review Opportunity' : 'What Happens Next'}</DialogTitle>
              <DialogDescription>
                {step === 1
                  ? 'Check the details of this placement before you continue.'
                  : needsApproval
                    ? 'Confirm and send this purchase for approval.'
                    : 'Confirm and pay to secure your article.'}
              </DialogDescription>
            </DialogHeader>
            {step === 1 && opportunity.soldOut && (
              <p role="status" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                Sold out: this opportunity can no longer be bought. It stays in your saved list until you remove it.
              </p>
            )}
            {step === 1 ? <ReviewStep o={opportunity} outletLink={outletLink} canSave={role === undefined || roleCan(role, 'work')} /> : <NextStep o={opportunity} />}
            {/* kept in view while the steps scroll: on a phone the box and "Pay" show without scrolling */}
            <div className="sticky -bottom-6 z-10 -mx-6 -mb-6 space-y-4 border-t bg-card px-6 py-4">
              {/* the budget and the need for approval stay in view beside the button they change */}
              {step === 2 && clients.length > 0 && (
                <ClientChoice clients={clients} limited={limited} value={clientId} onChange={setChosenClient} />
              )}
              {step === 2 && spend && (
                <BudgetNotice spend={spend} price={opportunity.priceUsd} needsApproval={needsApproval} />
              )}
              {step === 2 && <Agreement agreed={agreed} setAgreed={setAgreed} />}
              {refusal && (
                <p
                  role="alert"
                  className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
                  data-testid="claim-refusal"
                >
                  {refusal}
                </p>
              )}
              {step === 1 && (
                <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1" data-testid="claim-price">
                  <p className="text-sm">
                    <span className="text-muted-foreground">Price </span>
                    <span className="text-lg font-semibold tabular-nums">{formatUsd(opportunity.priceUsd)}</span>
                    <span className="text-muted-foreground"> · one-time, held in escrow</span>
                  </p>
                  {!cannotBuy && !opportunity.soldOut && (
                    <p className="text-xs text-muted-foreground" data-testid="claim-next-hint">
                      {inCart !== undefined
                        ? 'Next buys this one on its own; add it to your cart to buy several with one payment.'
                        : 'Next buys this one on its own.'}
                    </p>
                  )}
                </div>
              )}
              {step === 1 && cannotBuy && (
                <p className="text-sm text-muted-foreground" data-testid="claim-cannot-buy">
                  {CAPABILITY_REFUSALS.buy}: ask an owner, admin or buyer to claim it.
                </p>
              )}
              <DialogFooter>
                {step === 1 ? (
                  <>
                    <Button variant="outline" onClick={close}>
                      Cancel
                    </Button>
                    {inCart !== undefined && (
                      <CartButton opportunity={opportunity} inCart={inCart} className="h-9 px-4 text-sm" />
                    )}
                    {/* a sold out one (kept in the saved list) cannot go on to the payment */}
                    <Button onClick={() => setStep(2)} disabled={opportunity.soldOut || cannotBuy}>
                      Next
                    </Button>
                  </>
                ) : (
                  <>
                    <Button
                      variant="outline"
                      onClick={() => {
                        setRefusal(null);
                        setStep(1);
                      }}
                      disabled={processing}
                    >
                      Back
                    </Button>
                    <Button onClick={pay} disabled={!agreed || processing || opportunity.soldOut}>
                      {processing ? (
                        'Processing...'
                      ) : needsApproval ? (
                        <>
                          <Send /> Request approval
                        </>
                      ) : (
                        <>
                          <BadgeCheck /> Pay now and secure article
                        </>
                      )}
                    </Button>
                  </>
                )}
              </DialogFooter>
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
