import * as React from 'react';
import { formatUsd, toCents } from '@shared/money';
import type { Spend } from '@shared/schemas/org';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useSpend } from '@/lib/org';
import { useSetBudget } from '../api/budget';

const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="min-w-0 rounded-lg border bg-muted/30 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Spent, open checkouts, cap and left of the organisation's month. */
function Figures({ spend }: { spend: Spend }) {
  const used = spend.capUsd === null ? 0 : Math.min(100, ((toCents(spend.spentUsd) + toCents(spend.openUsd)) / Math.max(1, toCents(spend.capUsd))) * 100);
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Figure label="Spent" value={formatUsd(spend.spentUsd)} testId="budget-spent" />
        <Figure label="In open checkouts" value={formatUsd(spend.openUsd)} testId="budget-open" />
        <Figure label="Monthly cap" value={spend.capUsd === null ? 'No cap' : formatUsd(spend.capUsd)} testId="budget-cap" />
        <Figure
          label="Left"
          value={spend.leftUsd === null ? '—' : formatUsd(toCents(spend.leftUsd) < 0 ? '0.00' : spend.leftUsd)}
          testId="budget-left"
        />
      </dl>
      {spend.capUsd !== null && <Progress value={used} label="Share of the monthly cap used" />}
    </div>
  );
}

/** The organisation's monthly budget (decision 034): owners and admins set the cap; the others read it. */
export function BudgetCard({ manage }: { manage: boolean }) {
  const spend = useSpend();
  const setBudget = useSetBudget();
  const [cap, setCap] = React.useState<string | null>(null);
  const [error, setError] = React.useState<string | undefined>();
  const data = spend.data;
  // the input shows the saved cap until the member types
  const value = cap ?? data?.capUsd ?? '';

  const save = (next: string | null) => {
    setError(undefined);
    setBudget.mutate(next, {
      onSuccess: (saved) => {
        setCap(null);
        toast({
          title: 'Budget saved',
          description: saved.capUsd === null ? 'No monthly cap applies now.' : `The monthly cap is ${formatUsd(saved.capUsd)}.`,
        });
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 400 && err.errors?.monthlyCapUsd) setError(err.errors.monthlyCapUsd);
        else toast({ title: 'Error', description: errorMessage(err, 'Failed to save the budget'), variant: 'destructive' });
      },
    });
  };

  return (
    <Card data-testid="budget-card">
      <CardHeader>
        <CardTitle className="text-base">Monthly budget</CardTitle>
        <CardDescription>
          {data ? `${monthName(data.month)} (UTC). ` : ''}
          {manage
            ? 'Purchases over the cap are refused; open checkouts count until they expire.'
            : 'What the organisation spent this month against its cap.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {spend.isLoading ? (
          <PageSpinner />
        ) : spend.isError || !data ? (
          <QueryError query={spend} title="Couldn't load the budget" />
        ) : (
          <>
            <Figures spend={data} />
            {manage && (
              <form
                noValidate
                className="flex flex-col gap-3 sm:flex-row sm:items-start"
                onSubmit={(e) => {
                  e.preventDefault();
                  save(value.trim() === '' ? null : value.trim());
                }}
              >
                <FormField id="budget-cap" label="Monthly cap (USD)" error={error} hint="Leave empty for no cap." className="sm:w-56">
                  <Input
                    id="budget-cap"
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="No cap"
                    value={value}
                    onChange={(e) => {
                      setCap(e.target.value);
                      setError(undefined);
                    }}
                    aria-invalid={Boolean(error)}
                    aria-describedby={error ? 'budget-cap-error' : undefined}
                  />
                </FormField>
                <div className="grid grid-cols-2 gap-2 sm:mt-5 sm:flex">
                  <Button type="submit" disabled={setBudget.isPending}>
                    {setBudget.isPending ? 'Saving...' : 'Save'}
                  </Button>
                  <Button type="button" variant="outline" disabled={setBudget.isPending || data.capUsd === null} onClick={() => save(null)}>
                    No cap
                  </Button>
                </div>
              </form>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
