import * as React from 'react';
import { ImageIcon, Plus, Upload, X } from 'lucide-react';
import { hidesAmounts } from '@shared/org';
import {
  REPORT_COLUMN_LABELS,
  REPORT_COLUMNS,
  REPORT_FOOTER_MAX,
  REPORT_STATUS_LABELS,
  REPORT_STATUSES,
  type ReportColumn,
} from '@shared/reports';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LengthCounter, usePasteCut } from '@/components/ui/length-counter';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { apiFieldErrors, type FieldErrors } from '@/lib/form-errors';
import { useOrg } from '@/lib/org';
import { useCreateReport, useReportClients, useUploadReportLogo, type NewReport } from '../api/reports';

const DEFAULT_COLUMNS: ReportColumn[] = ['outlet', 'title', 'client', 'status', 'publishedAt', 'liveUrl', 'linkStatus'];
const DEFAULT_COLOR = '#0F766E';
const HEX = /^#[0-9a-fA-F]{6}$/;
const LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** The fields the server names in its 400s; anything else is said above the buttons. */
const FIELDS = ['name', 'clientId', 'from', 'to', 'status', 'columns', 'showPrices'] as const;
const WHITE_LABEL_FIELDS = ['whiteLabel.logoFile', 'whiteLabel.color', 'whiteLabel.footer'] as const;

const SELECT =
  'h-9 w-full min-w-0 rounded-md border border-input bg-card px-3 text-base shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive md:text-sm';

const invalid = (id: string, error: string | undefined) => ({
  'aria-invalid': Boolean(error),
  'aria-describedby': error ? `${id}-error` : undefined,
});

/** A switch with its label and the line that says what it does. */
function SwitchRow({
  id,
  label,
  hint,
  checked,
  onCheckedChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-3">
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} aria-describedby={`${id}-hint`} />
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}

/** The white label's logo: a PNG or JPEG uploaded at once, shown as a preview. */
function LogoUpload({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (url: string | null) => void;
  error?: string;
}) {
  const upload = useUploadReportLogo();
  const input = React.useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = React.useState<string | null>(null);
  const [problem, setProblem] = React.useState<string | undefined>();
  const shown = problem ?? error;
  const onFile = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // the same file may be chosen again after a removal
    e.target.value = '';
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type)) return setProblem('Choose a PNG or JPEG image');
    if (file.size > LOGO_MAX_BYTES) return setProblem('The logo must be smaller than 2 MB');
    setProblem(undefined);
    upload.mutate(file, {
      onSuccess: ({ url }) => {
        setFileName(file.name);
        onChange(url);
      },
      onError: (err) => setProblem(errorMessage(err, 'Failed to upload the logo')),
    });
  };
  return (
    <FormField id="report-logo" label="Logo" error={shown} hint="A PNG or JPEG image, at most 2 MB.">
      <div className="flex items-center gap-3">
        <div
          className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-muted"
          data-testid="report-logo-preview"
        >
          {value ? (
            <img src={value} alt="Logo preview" className="size-full object-contain" />
          ) : (
            <ImageIcon className="size-6 text-muted-foreground" aria-hidden />
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-1">
          {/* the button below opens it: the input itself is out of the tab order */}
          <input
            ref={input}
            id="report-logo"
            type="file"
            accept="image/png,image/jpeg"
            className="sr-only"
            tabIndex={-1}
            onChange={onFile}
            {...invalid('report-logo', shown)}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => input.current?.click()}
              disabled={upload.isPending}
            >
              <Upload /> {upload.isPending ? 'Uploading...' : value ? 'Replace logo' : 'Upload logo'}
            </Button>
            {value && !upload.isPending && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() => {
                  setFileName(null);
                  onChange(null);
                }}
              >
                <X /> Remove logo
              </Button>
            )}
          </div>
          {value && fileName && (
            <p className="truncate text-xs text-muted-foreground" data-testid="report-logo-name">
              {fileName}
            </p>
          )}
        </div>
      </div>
    </FormField>
  );
}

function NewReportForm({ onClose }: { onClose: () => void }) {
  const org = useOrg().data;
  const clients = useReportClients();
  // a client reviewer sees no prices (decision 035); a member limited to clients reports on one of theirs
  const noPrices = hidesAmounts(org?.role, org?.clientIds);
  const limited = org?.clientIds != null;
  const create = useCreateReport();
  const [name, setName] = React.useState('');
  const [clientChoice, setClientChoice] = React.useState('');
  const clientId = clientChoice || (limited ? (clients[0]?.id ?? '') : '');
  const [from, setFrom] = React.useState('');
  const [to, setTo] = React.useState('');
  const [status, setStatus] = React.useState<NewReport['status']>(null);
  const [columns, setColumns] = React.useState<ReadonlySet<ReportColumn>>(new Set(DEFAULT_COLUMNS));
  const [showPrices, setShowPrices] = React.useState(false);
  const [whiteLabel, setWhiteLabel] = React.useState(false);
  const [logo, setLogo] = React.useState<string | null>(null);
  const [color, setColor] = React.useState(DEFAULT_COLOR);
  const [footer, setFooter] = React.useState('');
  const paste = usePasteCut(REPORT_FOOTER_MAX);
  const [errors, setErrors] = React.useState<FieldErrors>({});

  const clear = (field: string) => setErrors(({ [field]: _, ...rest }) => rest);
  const toggle = (column: ReportColumn, on: boolean) => {
    clear('columns');
    setColumns((prev) => {
      const next = new Set(prev);
      if (on) next.add(column);
      else next.delete(column);
      return next;
    });
  };
  // prices and the price column go together (issue 57): turning prices on adds the column
  const changePrices = (on: boolean) => {
    setShowPrices(on);
    clear('columns');
    toggle('price', on);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const body: NewReport = {
      name,
      clientId: clientId || null,
      from: from || null,
      to: to || null,
      status,
      columns: REPORT_COLUMNS.filter((c) => columns.has(c)),
      showPrices,
      whiteLabel: whiteLabel ? { logoFile: logo, color: color || null, footer: footer.trim() || null } : null,
    };
    setErrors({});
    create.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Report created', description: `${name.trim()} is in your list of reports.` });
        onClose();
      },
      onError: (err) => {
        const found = apiFieldErrors(err, 'Failed to create the report');
        const known = [...FIELDS, ...WHITE_LABEL_FIELDS] as readonly string[];
        const unknown = Object.keys(found).filter((k) => k !== 'form' && !known.includes(k));
        setErrors(unknown.length && !found.form ? { ...found, form: found[unknown[0]] } : found);
      },
    });
  };

  const columnError = errors.columns;
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <FormField id="report-name" label="Name" error={errors.name}>
        <Input
          id="report-name"
          value={name}
          maxLength={120}
          autoComplete="off"
          placeholder="e.g. Acme — November"
          onChange={(e) => {
            setName(e.target.value);
            clear('name');
          }}
          {...invalid('report-name', errors.name)}
        />
      </FormField>

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="report-client" label="Client" error={errors.clientId}>
          <select
            id="report-client"
            className={SELECT}
            value={clientId}
            onChange={(e) => {
              setClientChoice(e.target.value);
              clear('clientId');
            }}
            {...invalid('report-client', errors.clientId)}
          >
            {!limited && <option value="">All clients</option>}
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="report-status" label="Status" error={errors.status}>
          <select
            id="report-status"
            className={SELECT}
            value={status ?? ''}
            onChange={(e) => setStatus((e.target.value || null) as NewReport['status'])}
            {...invalid('report-status', errors.status)}
          >
            <option value="">All</option>
            {REPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {REPORT_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="report-from" label="Ordered from" error={errors.from}>
          <Input
            id="report-from"
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => {
              setFrom(e.target.value);
              clear('from');
              clear('to');
            }}
            {...invalid('report-from', errors.from)}
          />
        </FormField>
        <FormField id="report-to" label="Ordered to" error={errors.to}>
          <Input
            id="report-to"
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => {
              setTo(e.target.value);
              clear('to');
            }}
            {...invalid('report-to', errors.to)}
          />
        </FormField>
      </div>

      <fieldset
        className="min-w-0 space-y-2"
        aria-describedby={columnError ? 'report-columns-error' : undefined}
        data-testid="report-columns"
      >
        <legend className="mb-2 text-sm font-medium">Columns</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {REPORT_COLUMNS.filter((c) => c !== 'price' || !noPrices).map((c) => {
            const disabled = c === 'price' && !showPrices;
            return (
              <div key={c} className="flex items-center gap-2">
                <Checkbox
                  id={`report-column-${c}`}
                  checked={columns.has(c)}
                  disabled={disabled}
                  // the price column off is prices off: one choice, not two that can disagree
                  onCheckedChange={(v) => (c === 'price' ? changePrices(v === true) : toggle(c, v === true))}
                />
                <Label htmlFor={`report-column-${c}`} className={disabled ? 'text-muted-foreground' : undefined}>
                  {REPORT_COLUMN_LABELS[c]}
                  {disabled && <span className="font-normal"> (turn on Show prices)</span>}
                </Label>
              </div>
            );
          })}
        </div>
        {columnError && (
          <p id="report-columns-error" role="alert" className="text-sm font-medium text-destructive">
            {columnError}
          </p>
        )}
      </fieldset>

      {!noPrices && (
        <SwitchRow
          id="report-prices"
          label="Show prices"
          hint="Prices are left out unless you turn this on."
          checked={showPrices}
          onCheckedChange={changePrices}
        />
      )}

      <div className="space-y-4">
        <SwitchRow
          id="report-white-label"
          label="White label"
          hint="Your logo, colour and footer: the PDF, the CSV and the shared page name only you."
          checked={whiteLabel}
          onCheckedChange={setWhiteLabel}
        />
        {whiteLabel && (
          <div className="space-y-4 rounded-lg border p-4" data-testid="white-label-fields">
            <LogoUpload
              value={logo}
              onChange={(url) => {
                setLogo(url);
                clear('whiteLabel.logoFile');
              }}
              error={errors['whiteLabel.logoFile']}
            />
            <div className="space-y-1.5">
              <Label htmlFor="report-color">Colour</Label>
              <div className="flex items-center gap-2">
                <input
                  id="report-color"
                  type="color"
                  value={HEX.test(color) ? color.toLowerCase() : DEFAULT_COLOR.toLowerCase()}
                  onChange={(e) => {
                    setColor(e.target.value.toUpperCase());
                    clear('whiteLabel.color');
                  }}
                  className="h-9 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-card p-1"
                />
                <Input
                  id="report-color-hex"
                  aria-label="Colour as hex"
                  value={color}
                  maxLength={7}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => {
                    setColor(e.target.value.trim());
                    clear('whiteLabel.color');
                  }}
                  className="w-32 font-mono"
                  {...invalid('report-color', errors['whiteLabel.color'])}
                />
              </div>
              {errors['whiteLabel.color'] && (
                <p id="report-color-error" role="alert" className="text-sm font-medium text-destructive">
                  {errors['whiteLabel.color']}
                </p>
              )}
            </div>
            <FormField id="report-footer" label="Footer" error={errors['whiteLabel.footer']}>
              <Textarea
                id="report-footer"
                value={footer}
                rows={2}
                maxLength={REPORT_FOOTER_MAX}
                placeholder="e.g. Prepared by your agency for your client"
                onChange={(e) => {
                  setFooter(e.target.value);
                  clear('whiteLabel.footer');
                }}
                onPaste={paste.onPaste}
                onInput={paste.onInput}
                aria-invalid={Boolean(errors['whiteLabel.footer'])}
                aria-describedby={
                  errors['whiteLabel.footer'] ? 'report-footer-error report-footer-count' : 'report-footer-count'
                }
              />
              <LengthCounter id="report-footer-count" length={footer.length} max={REPORT_FOOTER_MAX} cut={paste.cut} />
            </FormField>
          </div>
        )}
      </div>

      {errors.form && (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="report-form-error">
          {errors.form}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          <Plus /> {create.isPending ? 'Creating...' : 'Create report'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** "New report": the filters, the columns, prices (off unless turned on) and the white label. */
export function NewReportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" data-testid="new-report-dialog">
        <DialogHeader>
          <DialogTitle>New report</DialogTitle>
          <DialogDescription>
            A report of your placements as PDF and CSV, always up to date when you download or share it.
          </DialogDescription>
        </DialogHeader>
        <NewReportForm onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
