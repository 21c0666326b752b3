import * as React from 'react';
import { FileSearch, Upload } from 'lucide-react';
import { IMPORT_SOURCES, SOURCE_LABELS, type ImportSource } from '@shared/outlets';
import type { MetricsImportResult } from '@shared/schemas/outlets';
import { plural } from '@/components/outlet/outlet-text';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { RadioChoices } from '@/components/ui/radio-choices';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useImportMetrics } from '../api/import-metrics';
import { ImportResult } from '../components/import-result';

/** What each tool's export gives (the server reads these columns: modules/outlets/metrics-import.ts). */
const TOOL_HINTS: Record<ImportSource, string> = {
  ahrefs: 'Domain Rating, referring domains and organic traffic',
  moz: 'Domain Authority, spam score and linking root domains',
  semrush: 'Organic traffic and referring domains',
};
const TOOLS = IMPORT_SOURCES.map((value) => ({ value, label: SOURCE_LABELS[value], hint: TOOL_HINTS[value] }));

/** The server's limit (routes.ts): said before a larger file is sent. */
const MAX_BYTES = 10 * 1024 * 1024;
const ACCEPT = '.csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain';

/** A file checked (or applied): the tool and file it was, so Apply sends exactly those. */
interface Checked {
  source: ImportSource;
  file: File;
  result: MetricsImportResult;
}

/** A refusal of the whole file or of an apply: the server's sentence, and its reasons when it gave some. */
interface Failure {
  message: string;
  reasons: string[];
}

function failureOf(err: unknown): Failure {
  const rows = err instanceof ApiError ? err.body?.errors : undefined;
  const reasons = Array.isArray(rows)
    ? // rows that cannot be used, by line (the dry run's shape)
      (rows as MetricsImportResult['errors']).map((e) => `Line ${e.line}: ${e.message}`)
    : err instanceof ApiError && err.errors
      ? // a refused file's single reason is its message again; invalid input lists its other fields
        err.code === 'invalid_input'
        ? Object.values(err.errors).slice(1)
        : []
      : [];
  return { message: errorMessage(err, 'The file could not be imported. Please try again.'), reasons };
}

/** The result carried by a refused apply (400 with `result`: rows with problems, nothing imported). */
function resultOf(err: unknown): MetricsImportResult | null {
  const result = err instanceof ApiError ? err.body?.result : undefined;
  return result && typeof result === 'object' && 'changes' in result ? (result as MetricsImportResult) : null;
}

/**
 * /admin/outlets/import (issue 48): an SEO tool's CSV export, checked first (a dry run: the
 * changes, the hosts no outlet has, the rows with problems by line), then applied as checked.
 */
export function MetricsImportPage() {
  const id = React.useId();
  const [source, setSource] = React.useState<ImportSource | ''>('');
  const [file, setFile] = React.useState<File | null>(null);
  const [errors, setErrors] = React.useState<{ source?: string; file?: string }>({});
  const [checked, setChecked] = React.useState<Checked | null>(null);
  const [failure, setFailure] = React.useState<Failure | null>(null);
  const check = useImportMetrics();
  const apply = useImportMetrics();
  const busy = check.isPending || apply.isPending;

  /** A new tool or file: what was checked before is about another. */
  const forget = () => {
    setChecked(null);
    setFailure(null);
  };

  const onCheck = (e: React.FormEvent) => {
    e.preventDefault();
    const invalid = {
      ...(source ? {} : { source: 'Choose the tool the file comes from' }),
      ...(!file
        ? { file: 'Choose the CSV file to import' }
        : file.size > MAX_BYTES
          ? { file: 'The file is larger than 10 MB' }
          : {}),
    };
    setErrors(invalid);
    if (!source || !file || Object.keys(invalid).length > 0) return;
    forget();
    check.mutate(
      { source, file, dryRun: true },
      {
        onSuccess: (result) => setChecked({ source, file, result }),
        onError: (err) => {
          // the wrong tool, not an export, too many rows: said on the file it is about
          if (err instanceof ApiError && (err.status === 400 || err.status === 413) && err.errors?.file) setErrors({ file: err.errors.file });
          else setFailure(failureOf(err));
        },
      },
    );
  };

  const onApply = () => {
    if (!checked) return;
    setFailure(null);
    apply.mutate(
      { source: checked.source, file: checked.file, dryRun: false },
      {
        onSuccess: (result) => {
          setChecked({ ...checked, result });
          toast({ title: `Metrics imported: ${plural(result.changes.length, 'change', 'changes')}` });
        },
        onError: (err) => {
          // rows that became a problem since the check (an outlet gone): the server's result replaces the check's
          const result = resultOf(err);
          if (result) setChecked({ ...checked, result });
          // its rows' problems are listed with the result: the sentence alone here
          setFailure(result ? { message: errorMessage(err, 'Nothing was imported'), reasons: [] } : failureOf(err));
        },
      },
    );
  };

  const result = checked?.result;
  const n = result?.changes.length ?? 0;
  const blocked = result ? result.errors.length > 0 || n === 0 : true;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Outlet metrics</h1>
        <p className="text-muted-foreground">
          CSV exports of Ahrefs, Moz or Semrush; rows are matched to outlets by their website’s host.
        </p>
      </div>
      <form
        className="space-y-5 rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-6"
        onSubmit={onCheck}
        noValidate
        aria-label="Import metrics"
      >
        <div className="space-y-1.5">
          <RadioChoices
            name={`${id}-source`}
            legend="Tool the file comes from"
            value={source}
            onChange={(v) => {
              setSource(v);
              setErrors(({ source: _source, ...rest }) => rest);
              forget();
            }}
            choices={TOOLS}
            disabled={busy}
          />
          {errors.source && (
            <p id={`${id}-source-error`} role="alert" className="text-sm font-medium text-destructive">
              {errors.source}
            </p>
          )}
        </div>
        <FormField
          id={`${id}-file`}
          label="CSV file"
          error={errors.file}
          hint="Comma, semicolon or tab separated, at most 10 MB and 50,000 rows. Values are as of the file’s date column, or today when it has none."
        >
          <input
            id={`${id}-file`}
            type="file"
            accept={ACCEPT}
            onChange={(e) => {
              const chosen = e.target.files?.[0] ?? null;
              forget();
              setFile(chosen);
              setErrors(({ file: _file, ...rest }) =>
                chosen && chosen.size > MAX_BYTES ? { ...rest, file: 'The file is larger than 10 MB' } : rest,
              );
            }}
            disabled={busy}
            aria-invalid={Boolean(errors.file)}
            aria-describedby={errors.file ? `${id}-file-error` : undefined}
            className="block w-full min-w-0 text-sm text-muted-foreground file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground hover:file:bg-accent"
            data-testid="metrics-file"
          />
        </FormField>
        <Button type="submit" variant={result && !result.applied ? 'outline' : 'default'} disabled={busy}>
          <FileSearch aria-hidden /> {check.isPending ? 'Checking...' : 'Check file'}
        </Button>
      </form>

      {failure && (
        <div
          role="alert"
          className="space-y-1 rounded-lg border border-destructive/30 bg-red-50 p-4 text-sm text-red-950"
          data-testid="import-failure"
        >
          <p className="font-medium">{failure.message}</p>
          {failure.reasons.length > 0 && (
            <ul className="list-disc space-y-0.5 pl-5">
              {failure.reasons.map((r) => (
                <li key={r} className="break-words">
                  {r}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      {checked && result && (
        <ImportResult result={result}>
          {!result.applied && (
            <div className="flex flex-col gap-2 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-muted-foreground" data-testid="apply-note">
                {result.errors.length > 0
                  ? 'Nothing can be imported until every row can be used.'
                  : n === 0
                    ? 'Nothing to apply: the outlets already have these values.'
                    : `${checked.file.name}, from ${SOURCE_LABELS[checked.source]}: every change is applied together.`}
              </p>
              <Button onClick={onApply} disabled={blocked || busy} className="shrink-0">
                <Upload aria-hidden /> {apply.isPending ? 'Applying...' : `Apply ${plural(n, 'change', 'changes')}`}
              </Button>
            </div>
          )}
        </ImportResult>
      )}
    </div>
  );
}
