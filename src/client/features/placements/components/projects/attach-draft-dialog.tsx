import * as React from 'react';
import { RadioGroup } from 'radix-ui';
import { FileUp, Link2 } from 'lucide-react';
import { DOCUMENT_MAX_BYTES } from '@shared/constants';
import { draftAttachSchema, type AdminPlacementItem } from '@shared/schemas/brief';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useAttachDraft } from '../../api/attach-draft';

type Kind = 'url' | 'file';

const ACCEPT = '.doc,.docx,.pdf';
const TYPE_MESSAGE = 'Please upload a .doc, .docx or .pdf file';
const fileName = (path: string) => path.split('/').pop() ?? path;
const formatSize = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** Client-side checks before anything is sent; the server checks the same again (and the file's bytes). */
function validate(kind: Kind, url: string, file: File | null, existing: string | null): { field: Kind; message: string } | null {
  if (kind === 'url') {
    const parsed = draftAttachSchema.safeParse({ draftDocumentUrl: url });
    return parsed.success ? null : { field: 'url', message: parsed.error.issues[0]?.message ?? 'Please enter a valid URL' };
  }
  if (!file) return existing ? null : { field: 'file', message: 'No file selected' };
  if (!/\.(docx?|pdf)$/i.test(file.name)) return { field: 'file', message: TYPE_MESSAGE };
  if (file.size > DOCUMENT_MAX_BYTES) return { field: 'file', message: 'File must be smaller than 25MB' };
  return null;
}

function Choice({ value, label, icon }: { value: Kind; label: string; icon: React.ReactNode }) {
  const id = `draft-kind-${value}`;
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer items-center gap-3 rounded-lg border p-3 text-sm font-medium transition-colors has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-primary/5"
    >
      <RadioGroup.Item
        id={id}
        value={value}
        className="flex size-4 shrink-0 items-center justify-center rounded-full border border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <RadioGroup.Indicator className="size-2 rounded-full bg-primary" />
      </RadioGroup.Item>
      <span className="flex items-center gap-2 [&_svg]:size-4 [&_svg]:text-muted-foreground">
        {icon} {label}
      </span>
    </label>
  );
}

function DraftForm({ item, onDone }: { item: AdminPlacementItem; onDone: () => void }) {
  const { payment } = item;
  const editing = Boolean(payment.draftDocumentUrl || payment.draftDocumentFile);
  const existingFile = payment.draftDocumentFile;
  const [kind, setKind] = React.useState<Kind>(existingFile ? 'file' : 'url');
  const [url, setUrl] = React.useState(payment.draftDocumentUrl ?? '');
  const [file, setFile] = React.useState<File | null>(null);
  const [error, setError] = React.useState<{ field: Kind; message: string } | null>(null);
  // the share of the file sent so far (0 to 1), null while no upload runs
  const [progress, setProgress] = React.useState<number | null>(null);
  const attach = useAttachDraft(payment.id);
  const fileInput = React.useRef<HTMLInputElement>(null);

  const fail = (message: string, field?: Kind) => {
    if (field) setError({ field, message });
    toast({ title: 'Error', description: message, variant: 'destructive' });
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problem = validate(kind, url, file, existingFile);
    if (problem) return fail(problem.message, problem.field);
    setError(null);
    if (kind === 'file' && file) setProgress(0);
    attach.mutate(kind === 'url' ? { kind, url } : { kind, file, existing: existingFile, onProgress: setProgress }, {
      onSettled: () => setProgress(null),
      onSuccess: () => {
        toast(
          editing
            ? { title: 'Draft updated', description: 'The draft document has been updated. The brand sees the new version.' }
            : { title: 'Draft attached', description: 'The project has been marked as needs review with the draft document attached.' },
        );
        onDone();
      },
      onError: (err) => fail(errorMessage(err, 'Please provide either a URL or upload a file')),
    });
  };

  const fieldError = (field: Kind) => (error?.field === field ? error.message : undefined);

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{editing ? 'Edit Draft Document' : 'Attach Draft Document'}</DialogTitle>
        <DialogDescription>
          {item.title} · {item.outletName}
        </DialogDescription>
      </DialogHeader>

      <RadioGroup.Root
        value={kind}
        onValueChange={(v) => {
          setKind(v as Kind);
          setError(null);
        }}
        aria-label="Attachment type"
        className="grid gap-2 sm:grid-cols-2"
      >
        <Choice value="url" label="Google Docs URL" icon={<Link2 />} />
        <Choice value="file" label="Upload File" icon={<FileUp />} />
      </RadioGroup.Root>

      {kind === 'url' ? (
        <FormField id="draft-url" label="Document URL" error={fieldError('url')} hint="Make sure the brand can open the link.">
          <Input
            id="draft-url"
            type="url"
            required
            inputMode="url"
            placeholder="https://docs.google.com/document/d/..."
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={Boolean(fieldError('url'))}
            aria-describedby={fieldError('url') ? 'draft-url-error' : undefined}
          />
        </FormField>
      ) : (
        <FormField id="draft-file" label="Document file" error={fieldError('file')} hint="PDF, DOC or DOCX, up to 25 MB">
          {/* the native input stays (labelled, keyboard-reachable through the button) but is drawn as the button */}
          <div className="flex min-w-0 items-center gap-3 rounded-md border border-dashed p-2.5">
            <input
              ref={fileInput}
              id="draft-file"
              type="file"
              accept={ACCEPT}
              className="sr-only"
              tabIndex={-1}
              disabled={attach.isPending}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setError(null);
              }}
              aria-invalid={Boolean(fieldError('file'))}
              aria-describedby={fieldError('file') ? 'draft-file-error' : undefined}
            />
            <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={attach.isPending}>
              <FileUp /> {file ? 'Change file' : 'Choose file'}
            </Button>
            <span className="min-w-0 truncate text-sm text-muted-foreground" data-testid="chosen-file">
              {file ? `${file.name} (${formatSize(file.size)})` : 'No file chosen'}
            </span>
          </div>
          {progress !== null && (
            <div className="space-y-1" data-testid="upload-progress">
              <Progress value={progress * 100} label="Upload progress" />
              <p className="text-xs text-muted-foreground tabular-nums" aria-live="polite">
                {progress < 1 ? `Uploading... ${Math.floor(progress * 100)}%` : 'Uploaded, saving...'}
              </p>
            </div>
          )}
          {existingFile && (
            <p className={cn('wrap-anywhere text-xs text-muted-foreground', file && 'line-through')} data-testid="current-file">
              Current file: {fileName(existingFile)}
            </p>
          )}
        </FormField>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={attach.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={attach.isPending}>
          {attach.isPending ? (kind === 'file' && file ? 'Uploading...' : 'Saving...') : editing ? 'Update Draft' : 'Mark as Needs Review'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Attach Draft (Awaiting Brief) and Edit Draft (Pending Review): a Google Docs link or an uploaded .doc/.docx/.pdf. */
export function AttachDraftDialog({ item, open, onOpenChange }: { item: AdminPlacementItem; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="draft-dialog">{open && <DraftForm item={item} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}
