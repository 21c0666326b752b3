import * as React from 'react';
import { REPORT_RECIPIENTS_MAX, type ReportCadence } from '@shared/reports';
import type { Report } from '@shared/schemas/reports';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/input';
import { RadioChoices } from '@/components/ui/radio-choices';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useReviewOnly } from '@/lib/org';
import { useSetSchedule } from '../api/reports';

type Choice = ReportCadence | 'off';
const CHOICES = [
  { value: 'weekly', label: 'Weekly', hint: 'At the start of each week' },
  { value: 'monthly', label: 'Monthly', hint: 'At the start of each month' },
  { value: 'off', label: 'Off', hint: 'Not sent by e-mail' },
] as const;

/** One address a line (commas and semicolons split too); empty lines left out. */
const addressesOf = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** The server's refusal of one address ("recipients.2") said with the address it is about. */
function recipientsError(err: unknown, addresses: string[]): string {
  if (err instanceof ApiError && err.errors) {
    for (const [key, message] of Object.entries(err.errors)) {
      const at = /^recipients\.(\d+)/.exec(key);
      if (at) return `${addresses[Number(at[1])] ?? 'An address'}: ${message}`;
      if (key === 'recipients') return message;
    }
  }
  return errorMessage(err, 'Failed to save the schedule');
}

function ScheduleForm({ report, onClose, membersOnly }: { report: Report; onClose: () => void; membersOnly: boolean }) {
  const [cadence, setCadence] = React.useState<Choice>(report.cadence ?? 'off');
  const [text, setText] = React.useState(report.recipients.join('\n'));
  const [error, setError] = React.useState<string | undefined>();
  const save = useSetSchedule(report.id);
  const addresses = addressesOf(text);
  const off = cadence === 'off';
  const tooMany = addresses.length > REPORT_RECIPIENTS_MAX;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!off && addresses.length === 0) return setError('Add at least one e-mail address');
    if (!off && tooMany) return setError(`At most ${REPORT_RECIPIENTS_MAX} recipients`);
    setError(undefined);
    save.mutate(
      { cadence: off ? null : cadence, recipients: off ? [] : addresses },
      {
        onSuccess: () => {
          toast({
            title: off ? 'Schedule turned off' : 'Schedule saved',
            description: off
              ? `${report.name} is no longer sent by e-mail.`
              : `${report.name} is sent ${cadence} to ${addresses.length} ${addresses.length === 1 ? 'recipient' : 'recipients'}.`,
          });
          onClose();
        },
        onError: (err) => setError(recipientsError(err, addresses)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <RadioChoices
        name="report-cadence"
        legend="Send"
        value={cadence}
        onChange={(v) => {
          setCadence(v);
          setError(undefined);
        }}
        choices={CHOICES}
        className="grid gap-2 sm:grid-cols-3 sm:space-y-0"
      />
      {!off && (
        <FormField id="report-recipients" label="Recipients" error={error}>
          <Textarea
            id="report-recipients"
            rows={4}
            value={text}
            placeholder={'one e-mail address a line\nanna@client.example'}
            onChange={(e) => {
              setText(e.target.value);
              setError(undefined);
            }}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'report-recipients-error report-recipients-count' : 'report-recipients-count'}
          />
          <p
            id="report-recipients-count"
            className={tooMany ? 'text-xs font-medium text-destructive' : 'text-xs text-muted-foreground'}
            data-testid="recipients-count"
          >
            {addresses.length} of {REPORT_RECIPIENTS_MAX} recipients · one e-mail address a line
            {membersOnly && ' · members of your organisation only'}
          </p>
        </FormField>
      )}
      {off && error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <p className="text-sm text-muted-foreground">
        Sent at the start of each week or month, only when something changed. Each recipient can unsubscribe from the
        e-mail.
      </p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** "Schedule": the report sent weekly or monthly to up to 20 addresses, or not at all. */
export function ScheduleDialog({
  report,
  open,
  onOpenChange,
}: {
  report: Report;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // a client reviewer mails its organisation's members only (the server refuses other addresses)
  const membersOnly = useReviewOnly() === true;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="schedule-dialog">
        <DialogHeader>
          <DialogTitle>Schedule {report.name}</DialogTitle>
          <DialogDescription>
            {membersOnly
              ? 'The report by e-mail, without prices, to members of your organisation you name.'
              : 'The report by e-mail, to the people you name.'}
          </DialogDescription>
        </DialogHeader>
        <ScheduleForm report={report} membersOnly={membersOnly} onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
