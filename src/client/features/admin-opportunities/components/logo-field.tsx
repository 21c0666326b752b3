import * as React from 'react';
import { ImageIcon, Upload, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useUploadImage } from '../api/upload-image';

// spec §5: logos may be jpeg, jpg, png, gif, webp or svg (the server checks the bytes)
const LOGO_ACCEPT = '.jpeg,.jpg,.png,.gif,.webp,.svg,image/jpeg,image/png,image/gif,image/webp,image/svg+xml';
const isUpload = (v: string) => v.startsWith('/uploads/');

/**
 * The logo: an uploaded file (shown as its preview, with Replace and Remove) or a typed URL. The
 * stored path of an upload is Byline's business, not a value to edit: it never sits in the text
 * field (issue 43). What the admin types stays in the field, even a path the server accepts.
 */
export function LogoField({
  id,
  value,
  onChange,
  onBlur,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  onBlur: () => void;
  invalid: boolean;
}) {
  const input = React.useRef<HTMLInputElement>(null);
  const upload = useUploadImage('logo');
  const [broken, setBroken] = React.useState(false);
  React.useEffect(() => setBroken(false), [value]);
  // the last value typed in the field: a typed "/uploads/…" is the admin's, not an upload to hide
  const [typed, setTyped] = React.useState<string | null>(null);
  const uploaded = isUpload(value.trim()) && value !== typed;

  const onFile = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    upload.mutate(file, {
      onSuccess: ({ url }) => onChange(url),
      onError: (err) => toast({ title: 'Upload failed', description: errorMessage(err, 'Failed to upload logo'), variant: 'destructive' }),
    });
  };

  const src = value.trim();
  return (
    <div className="flex items-start gap-4">
      <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-muted" data-testid="logo-preview">
        {src && !broken ? (
          <img src={src} alt="Logo preview" className="size-full object-contain" onError={() => setBroken(true)} />
        ) : (
          <ImageIcon className="size-6 text-muted-foreground" aria-hidden />
        )}
      </div>
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <input ref={input} type="file" accept={LOGO_ACCEPT} className="sr-only" onChange={onFile} data-testid="logo-input" tabIndex={-1} aria-hidden />
          <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()} disabled={upload.isPending}>
            <Upload /> {upload.isPending ? 'Uploading...' : uploaded ? 'Replace logo' : 'Upload Logo'}
          </Button>
          {src && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                setTyped(null);
                onChange('');
              }}
            >
              <X /> Remove logo
            </Button>
          )}
        </div>
        {uploaded ? (
          <p className="text-xs text-muted-foreground" data-testid="logo-uploaded">
            Uploaded image{broken && ': it could not be shown'}
          </p>
        ) : (
          <Input
            id={id}
            value={value}
            onChange={(e) => {
              setTyped(e.target.value);
              onChange(e.target.value);
            }}
            onBlur={onBlur}
            inputMode="url"
            placeholder="https://outlet.com/logo.png"
            aria-invalid={invalid}
            aria-describedby={invalid ? `${id}-error` : undefined}
          />
        )}
      </div>
    </div>
  );
}
