import * as React from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { format } from 'date-fns';
import { ArrowLeft, History, Lock, RotateCcw } from 'lucide-react';
import {
  briefPart1Schema,
  briefPart2Schema,
  type BriefResponse,
  type BrandPlacementItem,
} from '@shared/schemas/brief';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useArticle, useBrief } from '../api/get-brief';
import { useSubmitBrief } from '../api/save-brief';
import { briefIntro, part1Questions, part2Questions } from '../components/brief/brief-questions';
import { splitParts, type BriefValues } from '../components/brief/brief-merge';
import { FieldList } from '../components/brief/field-list';
import { MergeDialog } from '../components/brief/merge-dialog';
import { SaveIndicator } from '../components/brief/save-indicator';
import { briefStart, conflictCopy, useBriefDraft } from '../components/brief/use-brief-draft';
import { QueryError } from '@/components/query-error';
import { SaveTemplateButton, TemplatePicker, UseBriefForDialog } from '../components/brief/brief-for-many';

function lockedMessage(article: BrandPlacementItem | undefined): string | null {
  if (article?.payment.status === 'released') return 'This article has been published, so its brief can no longer be changed.';
  if (article?.payment.status === 'refunded') return 'This payment was refunded, so its brief can no longer be changed.';
  if (article?.payment.draftReviewStatus === 'approved') return 'You approved the draft, so its brief can no longer be changed.';
  return null;
}

function BriefForm({ paymentId, initial, article }: { paymentId: string; initial: BriefResponse; article: BrandPlacementItem | undefined }) {
  const [, navigate] = useLocation();
  const [step, setStep] = React.useState<1 | 2>(1);
  const [moving, setMoving] = React.useState(false);
  const articleLocked = lockedMessage(article);
  // text an earlier visit left unsaved (a session that ended) comes back, merged with the server's copy
  const [start] = React.useState(() => briefStart(paymentId, initial, !articleLocked));
  const parts = splitParts(start.values);
  // the questions fitting what was bought (issue 57), chosen once: a field typed into stays
  const [questions] = React.useState(() => ({
    part1: part1Questions(article?.type ?? [], parts.part1Json),
    part2: part2Questions(article?.type ?? []),
    intro: briefIntro(article?.type ?? []),
  }));
  const form1 = useForm({ resolver: zodResolver(briefPart1Schema), defaultValues: parts.part1Json });
  const form2 = useForm({ resolver: zodResolver(briefPart2Schema), defaultValues: parts.part2Json });
  const { getValues: values1, reset: reset1 } = form1;
  const { getValues: values2, reset: reset2 } = form2;
  const draft = useBriefDraft({
    paymentId,
    initial,
    start,
    values: React.useCallback((): BriefValues => ({ ...values1(), ...values2() }), [values1, values2]),
    apply: React.useCallback(
      (values: BriefValues) => {
        const next = splitParts(values);
        reset1(next.part1Json);
        reset2(next.part2Json);
      },
      [reset1, reset2],
    ),
  });
  const submit = useSubmitBrief(paymentId);
  const { saver, state } = draft;
  // issue 46: after submitting, offer the brief to the rest of the order
  const [copyOpen, setCopyOpen] = React.useState(false);
  const [justSubmitted, setJustSubmitted] = React.useState(false);
  const orderId = article?.orderId ?? null;
  const currentValues = React.useCallback((): BriefValues => ({ ...values1(), ...values2() }), [values1, values2]);

  const locked = articleLocked ?? (state.kind === 'locked' ? state.message : null);
  const readOnly = Boolean(locked);

  const top = () => window.scrollTo({ top: 0 });
  const onNext = form1.handleSubmit(async () => {
    setMoving(true);
    // spec §4: moving on validates part 1 and saves a draft first (a failed save keeps retrying on step 2)
    await saver.flush(true);
    setMoving(false);
    setStep(2);
    top();
  });
  const onSubmit = form2.handleSubmit(async () => {
    await saver.settle();
    submit.mutate(
      { part1Json: form1.getValues(), part2Json: form2.getValues(), baseVersion: draft.baseVersion() },
      {
        onSuccess: () => {
          saver.markSaved();
          toast({ title: 'Brief submitted successfully', description: 'Your content brief has been submitted to the editorial team.' });
          if (orderId) {
            setJustSubmitted(true);
            setCopyOpen(true);
          } else navigate('/brand/my-articles');
        },
        onError: (err) => {
          // another window saved first: nothing is submitted until the user has seen the newer copy
          const theirs = conflictCopy(err);
          if (theirs) return draft.offerMerge(theirs);
          toast({ title: 'Submission failed', description: 'There was an error submitting your brief. Please try again.', variant: 'destructive' });
          saver.schedule();
        },
      },
    );
  });

  // every keystroke counts as a change; a field losing focus schedules the save
  const autosaveEvents = readOnly
    ? {}
    : {
        onChange: () => {
          saver.change();
          draft.keep();
        },
        onBlur: () => saver.schedule(),
      };

  return (
    <div className="space-y-5">
      {locked && (
        <div role="note" className="flex items-start gap-2 rounded-lg border bg-muted/50 p-3 text-sm">
          <Lock className="mt-0.5 size-4 shrink-0" /> {locked}
        </div>
      )}
      {draft.pending && <MergeDialog {...draft.pending} />}
      {draft.restored && !readOnly && (
        <div role="note" data-testid="restored-note" className="flex items-start gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          <RotateCcw className="mt-0.5 size-4 shrink-0" /> Restored the text you had not saved yet.
        </div>
      )}
      {initial.source === 'fallback' && !readOnly && (
        <div role="note" data-testid="fallback-banner" className="flex items-start gap-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900">
          <History className="mt-0.5 size-4 shrink-0" />
          <span>
            We pre-filled this form from your previous brief{article?.client ? ` for ${article.client.name}` : ''}. Check each answer and change what is different for this article; the goal,
            audience and message are left for you to write.
          </span>
        </div>
      )}
      {initial.submittedAt && !readOnly && (
        <p className="text-sm text-muted-foreground">
          You submitted this brief on {format(new Date(initial.submittedAt), 'MMM d, yyyy')}. Changes are saved as you go and the editorial
          team sees the saved brief.
        </p>
      )}
      {!readOnly && (
        <div className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
          {initial.source !== 'saved' ? (
            <TemplatePicker
              paymentId={paymentId}
              fallback={<span className="text-sm text-muted-foreground">Writing briefs like this one often? Save it as a template to start the next from it.</span>}
              onApply={(values) => {
                const next = splitParts(values);
                reset1(next.part1Json);
                reset2(next.part2Json);
                saver.change();
                draft.keep();
                saver.schedule();
              }}
            />
          ) : (
            <span className="text-sm text-muted-foreground">Keep this brief to start others from it.</span>
          )}
          <div className="flex flex-wrap gap-2">
            <SaveTemplateButton paymentId={paymentId} clientName={article?.client?.name ?? null} values={currentValues} />
            {orderId && initial.submittedAt && (
              <Button type="button" variant="outline" size="sm" onClick={() => setCopyOpen(true)}>
                Use this brief for…
              </Button>
            )}
          </div>
        </div>
      )}
      {orderId && (
        <UseBriefForDialog
          paymentId={paymentId}
          orderId={orderId}
          open={copyOpen}
          onOpenChange={(open) => {
            setCopyOpen(open);
            // declined right after submitting: on to My Articles, as a submit without an order goes
            if (!open && justSubmitted) navigate('/brand/my-articles');
          }}
        />
      )}

      {/* stays in view below the top bar, so the save state shows wherever the brand is typing */}
      <div className="sticky top-14 z-[4] -mx-2 space-y-2 bg-background/95 px-2 py-2 backdrop-blur">
        <div className="flex min-h-5 flex-wrap items-center justify-between gap-2 text-sm">
          <span className="font-medium">Step {step} of 2</span>
          <SaveIndicator state={state} onRetry={() => void saver.flush()} />
        </div>
        <Progress value={step === 1 ? 50 : 100} label="Brief progress" />
      </div>

      {/* a key per step: reusing step 2's Back button as step 1's submit button would submit the form on the same click */}
      {step === 1 ? (
        <Card key="part1">
          <CardHeader>
            <CardTitle className="text-lg">About You / Your Brand</CardTitle>
            <CardDescription data-testid="brief-intro">{questions.intro}</CardDescription>
          </CardHeader>
          <CardContent>
            <form noValidate onSubmit={readOnly ? (e) => (e.preventDefault(), setStep(2)) : onNext} {...autosaveEvents} className="space-y-6">
              <FieldList idPrefix="brief" fields={questions.part1} register={form1.register} control={form1.control} errors={form1.formState.errors} readOnly={readOnly} />
              <div className="flex justify-end">
                <Button type="submit" disabled={moving} className="w-full sm:w-auto">
                  Next: Article Guidelines
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      ) : (
        <Card key="part2">
          <CardHeader>
            <CardTitle className="text-lg">Article Guidelines</CardTitle>
            <CardDescription>What the article should achieve, for whom, and how it should sound.</CardDescription>
          </CardHeader>
          <CardContent>
            <form noValidate onSubmit={readOnly ? (e) => e.preventDefault() : onSubmit} {...autosaveEvents} className="space-y-6">
              <FieldList idPrefix="brief" fields={questions.part2} register={form2.register} control={form2.control} errors={form2.formState.errors} readOnly={readOnly} />
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => {
                    setStep(1);
                    top();
                  }}
                >
                  Back
                </Button>
                {!readOnly && (
                  <Button type="submit" disabled={submit.isPending}>
                    {submit.isPending ? 'Submitting...' : 'Submit Brief'}
                  </Button>
                )}
              </div>
            </form>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

/** /brand/brief/{paymentId}: the two-step brief of one purchased article, autosaved as a draft. */
export function BriefPage() {
  const { paymentId = '' } = useParams<{ paymentId: string }>();
  const brief = useBrief(paymentId);
  const { article, isLoading: articleLoading } = useArticle(paymentId);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href="/brand/my-articles">
          <ArrowLeft /> Back to My Articles
        </Link>
      </Button>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Content Brief</h1>
        <p className="text-muted-foreground">
          {article ? `${article.title} · ${article.outletName}` : 'Tell the editorial team about you and your story'}
        </p>
      </div>
      {brief.isLoading || articleLoading ? (
        <PageSpinner />
      ) : !brief.data ? (
        <QueryError query={brief} title="Failed to fetch brief" />
      ) : (
        <BriefForm key={paymentId} paymentId={paymentId} initial={brief.data} article={article} />
      )}
    </div>
  );
}
