import * as React from 'react';
import { Camera } from 'lucide-react';
import { AVATAR_MAX_BYTES } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useUploadAvatar } from '../api/update-profile';

export function AvatarUpload() {
  const input = React.useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();

  const onChange = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({ title: 'Invalid file', description: 'Please upload an image file', variant: 'destructive' });
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      toast({ title: 'File too large', description: 'Please upload an image smaller than 5MB', variant: 'destructive' });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast({ title: 'Profile picture updated' }),
      onError: (err) =>
        toast({
          title: 'Upload failed',
          description: err instanceof ApiError ? err.message || 'Upload failed' : errorMessage(err, 'Failed to upload image'),
          variant: 'destructive',
        }),
    });
  };

  return (
    <>
      <input ref={input} type="file" accept="image/*" className="sr-only" onChange={onChange} data-testid="avatar-input" tabIndex={-1} aria-hidden />
      <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()} disabled={upload.isPending}>
        <Camera /> {upload.isPending ? 'Uploading...' : 'Change photo'}
      </Button>
    </>
  );
}
