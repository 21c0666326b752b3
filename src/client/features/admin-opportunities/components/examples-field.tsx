import * as React from 'react';
import { ImagePlus, Link2, Plus, X } from 'lucide-react';
import { MAX_EXAMPLES } from '@shared/constants';
import { isHttpUrl, withHttps } from '@shared/schemas/profile';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useUploadImage } from '../api/upload-image';

// spec §5: example screenshots may be jpeg, jpg, png, gif or webp (no svg)
const EXAMPLE_ACCEPT = '.jpeg,.jpg,.png,.gif,.webp,image/jpeg,image/png,image/gif,image/webp';

const isUpload = (url: string) => url.startsWith('/uploads/');

/** Up to 3 examples, each a typed URL or an uploaded screenshot (its /uploads/ path). */
export function ExamplesField({
  value,
  onChange,
  errors,
}: {
  value: string[];
  onChange: (v: string[]) => void;
  errors?: (string | undefined)[];
}) {
  const [url, setUrl] = React.useState('');
  const file = React.useRef<HTMLInputElement>(null);
  const upload = useUploadImage('example');
  // an upload finishes later: it must add to the list as it is then, not as it was when it started
  const latest = React.useRef(value);
  React.useEffect(() => {
    latest.current = value;
  }, [value]);

  const roomLeft = () => {
    if (latest.current.length < MAX_EXAMPLES) return true;
    toast({ title: 'Limit reached', description: 'Maximum 3 examples allowed', variant: 'destructive' });
    return false;
  };

  const addUrl = () => {
    if (!roomLeft()) return;
    // "outlet.com/story" is read as https, as the server's schema reads it
    const typed = withHttps(url.trim());
    if (!isHttpUrl(typed)) {
      toast({ title: 'Invalid URL', description: 'Please enter a valid URL', variant: 'destructive' });
      return;
    }
    onChange([...value, typed]);
    setUrl('');
  };

  const pickFile = () => {
    if (roomLeft()) file.current?.click();
  };

  const onFile = (e: React.ChangeEvent<HTMLInputElement>) => {
    const picked = e.target.files?.[0];
    e.target.value = '';
    if (!picked || !roomLeft()) return;
    upload.mutate(picked, {
      onSuccess: ({ url: uploaded }) => {
        if (!roomLeft()) return;
        onChange([...latest.current, uploaded]);
        toast({ title: 'Image uploaded', description: 'Example image added successfully' });
      },
      onError: (err) => toast({ title: 'Upload failed', description: errorMessage(err, 'Failed to upload image'), variant: 'destructive' }),
    });
  };

  // at the limit nothing more can be added: the controls say so by being disabled
  const full = value.length >= MAX_EXAMPLES;

  return (
    <div className="space-y-3">
      {value.length > 0 && (
        <ul className="space-y-2" aria-label="Examples">
          {value.map((v, i) => (
            <li key={`${i}-${v}`} data-testid="example-item">
              <div className="flex items-center gap-3 rounded-lg border bg-muted/30 p-2">
                <div className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-card">
                  {isUpload(v) ? (
                    <img src={v} alt={`Example ${i + 1}`} className="size-full object-cover" />
                  ) : (
                    <Link2 className="size-4 text-muted-foreground" aria-hidden />
                  )}
                </div>
                <div className="min-w-0 flex-1">
                  <p className="text-xs text-muted-foreground">{isUpload(v) ? 'Uploaded image' : 'Link'}</p>
                  <a href={v} target="_blank" rel="noopener noreferrer" className="block truncate text-sm text-primary hover:underline">
                    {v}
                  </a>
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove example ${i + 1}`}
                  onClick={() => onChange(value.filter((_, j) => j !== i))}
                >
                  <X />
                </Button>
              </div>
              {errors?.[i] && (
                <p role="alert" className="mt-1 text-sm font-medium text-destructive">
                  {errors[i]}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="example-url"
          type="url"
          inputMode="url"
          aria-label="Example URL"
          placeholder="https://outlet.com/published-article"
          value={url}
          disabled={full}
          onChange={(e) => setUrl(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the link instead of submitting the whole form
            if (e.key === 'Enter') {
              e.preventDefault();
              addUrl();
            }
          }}
        />
        <div className="flex gap-2">
          <Button type="button" variant="outline" onClick={addUrl} disabled={full} className="flex-1 sm:flex-none">
            <Plus /> Add URL
          </Button>
          <input ref={file} type="file" accept={EXAMPLE_ACCEPT} className="sr-only" onChange={onFile} data-testid="example-input" tabIndex={-1} aria-hidden />
          <Button type="button" variant="outline" onClick={pickFile} disabled={full || upload.isPending} className="flex-1 sm:flex-none">
            <ImagePlus /> {upload.isPending ? 'Uploading...' : 'Upload Image'}
          </Button>
        </div>
      </div>
      <p className="text-xs text-muted-foreground">
        {value.length}/{MAX_EXAMPLES} examples: links to published articles or screenshots (JPEG, PNG, GIF or WEBP).
      </p>
    </div>
  );
}
