import type { PublicUser } from '@shared/user';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useUpdateProfile } from '../api/update-profile';

/** The brand's switch for progress e-mails; saved as soon as it is flipped. */
export function EmailPreferences({ user }: { user: PublicUser }) {
  const update = useUpdateProfile();
  const change = (on: boolean) =>
    update.mutate(
      { emailNotifications: on },
      {
        onSuccess: () =>
          toast({ title: 'E-mail preferences saved', description: on ? "We'll e-mail you about your placements' progress" : "We'll only e-mail you receipts, refunds and account messages" }),
        onError: (err) => toast({ title: 'Update failed', description: errorMessage(err, 'Failed to save your e-mail preferences'), variant: 'destructive' }),
      },
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">E-mail notifications</CardTitle>
        <CardDescription>Receipts, refunds and password e-mails are always sent.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-start gap-3">
          <Checkbox
            id="email-notifications"
            checked={update.isPending ? (update.variables as { emailNotifications: boolean }).emailNotifications : user.emailNotifications}
            disabled={update.isPending}
            onCheckedChange={(v) => change(v === true)}
            className="mt-0.5"
          />
          <div className="space-y-1">
            <Label htmlFor="email-notifications">E-mail me about my placements' progress</Label>
            <p className="text-sm text-muted-foreground">Drafts ready for review, edits made and articles published.</p>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
