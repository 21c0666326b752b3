import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Mail } from 'lucide-react';
import { editProfileSchema, type EditProfileInput } from '@shared/schemas/profile';
import type { PublicUser } from '@shared/user';
import type { Versioned } from '@shared/schemas/version';
import { StaleCopyDialog } from '@/components/stale-copy-dialog';
import { UserAvatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { refreshUser, useUser } from '@/lib/auth';
import { mergeValues, type ValuesMerge } from '@/lib/merge-values';
import { useUpdateProfile } from '../api/update-profile';
import { AvatarUpload } from '../components/avatar-upload';
import { EmailPreferences } from '../components/email-preferences';
import { BillingSection } from '../components/billing-section';

const valuesOf = (u: PublicUser): EditProfileInput =>
  u.role === 'brand'
    ? { name: u.name ?? '', brandName: u.brandName ?? '', website: u.website ?? '' }
    : { name: u.name ?? '' };

const FIELD_LABELS: Record<keyof EditProfileInput, string> = {
  name: 'Full Name',
  brandName: 'Brand Name',
  website: 'Website',
  emailNotifications: 'E-mail notifications',
};

/** A save refused for an older copy (409, decision 019): the newer profile and the merge offered. */
interface Stale {
  current: Versioned<PublicUser>;
  theirs: EditProfileInput;
  merge: ValuesMerge<EditProfileInput>;
}

function ReadOnly({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-muted-foreground">{label}</p>
      <p>{value || <span className="text-muted-foreground">Not set</span>}</p>
    </div>
  );
}

export function ProfilePage() {
  const { data: user } = useUser();
  const [editing, setEditing] = React.useState(false);
  // the copy the edit started from: its version goes with the save (a refetch meanwhile does not move it)
  const [base, setBase] = React.useState<Versioned<PublicUser> | null>(null);
  const [stale, setStale] = React.useState<Stale | null>(null);
  const update = useUpdateProfile();
  // while editing the form keeps what is typed: a refetched user does not reset it
  const form = useForm<EditProfileInput>({ resolver: zodResolver(editProfileSchema), values: user && !editing ? valuesOf(user) : undefined });
  const { errors } = form.formState;
  if (!user) return null;
  const isBrand = user.role === 'brand';

  const startEditing = () => {
    setBase(user as Versioned<PublicUser>);
    setEditing(true);
  };
  const cancel = () => {
    form.reset(valuesOf(user));
    setEditing(false);
  };
  const save = form.handleSubmit((values) =>
    update.mutate(base ? { ...values, baseVersion: base.version } : values, {
      onSuccess: () => {
        toast({ title: 'Profile updated', description: 'Your profile has been successfully updated' });
        setEditing(false);
      },
      onError: (err) => {
        const current = err instanceof ApiError && err.status === 409 ? (err.body?.current as Versioned<PublicUser> | undefined) : undefined;
        if (current && base) {
          const theirs = valuesOf(current);
          setStale({ current, theirs, merge: mergeValues(valuesOf(base), form.getValues(), theirs) });
          void refreshUser();
          return;
        }
        toast({ title: 'Update failed', description: errorMessage(err, 'Failed to update profile'), variant: 'destructive' });
      },
    }),
  );
  const resolve = (values: EditProfileInput) => {
    if (!stale) return;
    setBase(stale.current);
    setStale(null);
    form.reset(values);
  };

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Profile</h1>
        <p className="text-muted-foreground">Your account details</p>
      </div>
      <Card>
        <CardHeader className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-center gap-4">
            <UserAvatar name={user.name} src={user.avatarUrl} className="size-16 text-xl" />
            <div className="min-w-0 space-y-1">
              <CardTitle className="text-xl wrap-anywhere">{user.name || user.email}</CardTitle>
              <Badge variant="secondary">{isBrand ? 'Brand Account' : 'Admin Account'}</Badge>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            {editing && <AvatarUpload />}
            {!editing && (
              <Button variant="outline" onClick={startEditing}>
                Edit Profile
              </Button>
            )}
          </div>
        </CardHeader>
        <CardContent>
          <form className="space-y-5" noValidate onSubmit={save}>
            {editing ? (
              <FormField id="profile-name" label="Full Name" error={errors.name?.message}>
                <Input id="profile-name" autoComplete="name" aria-invalid={!!errors.name} {...form.register('name')} />
              </FormField>
            ) : (
              <ReadOnly label="Full Name" value={user.name} />
            )}
            <div className="space-y-1.5">
              <p className="text-sm font-medium text-muted-foreground">Email</p>
              <div className="flex items-center gap-2">
                <Mail className="size-4 shrink-0 text-muted-foreground" />
                <span className="min-w-0 wrap-anywhere">{user.email}</span>
              </div>
              <p className="text-xs text-muted-foreground">Email cannot be changed</p>
            </div>
            {isBrand &&
              (editing ? (
                <>
                  <FormField id="profile-brand" label="Brand Name" error={errors.brandName?.message}>
                    <Input id="profile-brand" autoComplete="organization" aria-invalid={!!errors.brandName} {...form.register('brandName')} />
                  </FormField>
                  <FormField id="profile-website" label="Website" error={errors.website?.message}>
                    <Input id="profile-website" type="url" placeholder="https://yourcompany.com" aria-invalid={!!errors.website} {...form.register('website')} />
                  </FormField>
                </>
              ) : (
                <>
                  <ReadOnly label="Brand Name" value={user.brandName} />
                  <ReadOnly
                    label="Website"
                    value={
                      user.website && (
                        <a href={user.website} target="_blank" rel="noopener noreferrer" className="text-primary hover:underline">
                          {user.website}
                        </a>
                      )
                    }
                  />
                </>
              ))}
            {editing && (
              <div className="flex justify-end gap-2">
                <Button type="button" variant="outline" onClick={cancel}>
                  Cancel
                </Button>
                <Button type="submit" disabled={update.isPending}>
                  {update.isPending ? 'Saving...' : 'Save Changes'}
                </Button>
              </div>
            )}
          </form>
        </CardContent>
      </Card>
      {isBrand && <BillingSection />}
      {isBrand && <EmailPreferences user={user} />}
      {stale && (
        <StaleCopyDialog
          title="Your profile was changed in another window"
          merge={stale.merge}
          theirs={stale.theirs}
          labels={FIELD_LABELS}
          onCombine={() => resolve(stale.merge.values)}
          onLoadNewer={() => resolve(stale.theirs)}
        />
      )}
    </div>
  );
}
