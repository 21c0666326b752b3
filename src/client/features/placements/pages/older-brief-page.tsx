import * as React from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { olderBriefPart1Schema, olderBriefPart2Schema } from '@shared/schemas/brief';
import { useMyArticle } from '@/features/placements/api/get-my-articles';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useUser } from '@/lib/auth';
import { useBriefAccess, useSubmitOlderBrief } from '../api/older-brief';
import { OLDER_PART1_FIELDS, OLDER_PART2_FIELDS, formValues } from '../components/brief/brief-fields';
import { FieldList } from '../components/brief/field-list';
import { clearLocalDraft, localDraftKey, readLocalDraft, writeLocalDraft } from '../components/brief/local-draft';
import { QueryError } from '@/components/query-error';

const olderFormSchema = z.object({ part1: olderBriefPart1Schema, part2: olderBriefPart2Schema });
type OlderFormValues = z.input<typeof olderFormSchema>;

function OlderBriefForm({ opportunityId, storageKey }: { opportunityId: string; storageKey: string }) {
  const [, navigate] = useLocation();
  const [step, setStep] = React.useState<1 | 2>(1);
  const [stored] = React.useState(() => readLocalDraft<OlderFormValues>(storageKey));
  const form = useForm({
    resolver: zodResolver(olderFormSchema),
    defaultValues: {
      part1: formValues(OLDER_PART1_FIELDS, stored?.part1),
      part2: formValues(OLDER_PART2_FIELDS, stored?.part2),
    },
  });
  const submit = useSubmitOlderBrief();
  const { errors } = form.formState;
  const done = React.useRef(false);

  // every change goes to the browser's storage, so a reload or a closed tab keeps the draft
  React.useEffect(() => {
    return form.subscribe({
      formState: { values: true },
      callback: ({ values }) => {
        if (!done.current) writeLocalDraft(storageKey, values);
      },
    });
  }, [form, storageKey]);

  const top = () => window.scrollTo({ top: 0 });
  const onContinue = async (e: React.FormEvent) => {
    e.preventDefault();
    if (await form.trigger('part1')) {
      setStep(2);
      top();
    }
  };
  const send = (values: z.output<typeof olderFormSchema>) =>
    submit.mutate(
      { opportunityId, part1: values.part1, part2: values.part2 },
      {
        onSuccess: () => {
          done.current = true;
          clearLocalDraft(storageKey);
          toast({ title: 'Brief submitted', description: 'Your brief has been saved successfully' });
          navigate('/brand');
        },
        onError: (err) => toast({ title: 'Submission failed', description: errorMessage(err, 'Please try again.'), variant: 'destructive' }),
      },
    );
  const onSubmit = (e: React.FormEvent) => void form.handleSubmit(send)(e);

  return (
    <div className="space-y-5">
      <div className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="font-medium">Part {step} of 2</span>
          <span className="text-muted-foreground" data-testid="local-draft-note">
            {stored ? 'Restored the answers you had not sent yet' : 'Your answers are kept on this device until you submit'}
          </span>
        </div>
        <Progress value={step === 1 ? 50 : 100} label="Brief progress" />
      </div>
      {/* a key per step: reusing step 2's Back button as step 1's submit button would submit the form on the same click */}
      {step === 1 ? (
        <Card key="part1">
          <CardHeader>
            <CardTitle className="text-lg">Your Story</CardTitle>
            <CardDescription>Who you are and the story behind your brand.</CardDescription>
          </CardHeader>
          <CardContent>
            <form noValidate onSubmit={onContinue} className="space-y-6">
              <FieldList idPrefix="older" namePrefix="part1" fields={OLDER_PART1_FIELDS} register={form.register} control={form.control} errors={errors.part1 ?? {}} />
              <div className="flex justify-end">
                <Button type="submit" className="w-full sm:w-auto">
                  Continue to Part 2
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      ) : (
        <Card key="part2">
          <CardHeader>
            <CardTitle className="text-lg">Goals & Strategy</CardTitle>
            <CardDescription>What the article should achieve and for whom.</CardDescription>
          </CardHeader>
          <CardContent>
            <form noValidate onSubmit={onSubmit} className="space-y-6">
              <FieldList idPrefix="older" namePrefix="part2" fields={OLDER_PART2_FIELDS} register={form.register} control={form.control} errors={errors.part2 ?? {}} />
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => {
                    setStep(1);
                    top();
                  }}
                >
                  Back to Part 1
                </Button>
                <Button type="submit" disabled={submit.isPending}>
                  {submit.isPending ? 'Submitting...' : 'Submit Brief'}
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

/**
 * /brand/brief?opportunityId=… — the earlier brief flow with the older form. Only for an
 * opportunity the brand has paid for; anything else goes back to /brand.
 */
export function OlderBriefPage() {
  const opportunityId = new URLSearchParams(useSearch()).get('opportunityId');
  const access = useBriefAccess(opportunityId);
  const { data: user } = useUser();
  const { article } = useMyArticle({ opportunityId });

  if (!opportunityId) return <Redirect to="/brand" replace />;
  if (access.isLoading || !user) return <PageSpinner />;
  if (access.isError) return <QueryError query={access} title="Couldn't check access to this brief" />;
  if (access.data !== true) return <Redirect to="/brand" replace />;

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Submit Your Brief</h1>
        <p className="text-muted-foreground">
          {article ? `${article.title} · ${article.outletName}` : 'Tell the editorial team about you and your story'}
        </p>
      </div>
      <OlderBriefForm key={opportunityId} opportunityId={opportunityId} storageKey={localDraftKey(user.id, opportunityId)} />
    </div>
  );
}
