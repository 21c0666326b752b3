import { Clock } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useLogout } from '@/lib/use-logout';
import { useUser } from '@/lib/auth';
import { useOrg } from '@/lib/org';

export function PendingApprovalPage() {
  const { data: user } = useUser();
  // where the organisation stands (issue 57): its name, not approved yet
  const org = useOrg(user?.role === 'brand' && Boolean(user.name)).data;
  const logout = useLogout();
  return (
    <main className="flex min-h-page items-center justify-center bg-gradient-to-b from-primary/5 to-background p-4">
      <Card className="w-full max-w-lg text-center">
        <CardContent className="space-y-4 p-8">
          <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700">
            <Clock className="size-6" />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Thank you for signing up{user?.name ? `, ${user.name.split(/\s+/)[0]}` : ''}!</h1>
          <p className="text-muted-foreground">
            Your account is under review. Our team checks every new brand, and you will receive a confirmation e-mail at{' '}
            <span className="font-medium text-foreground">{user?.email}</span> as soon as your account is approved.
          </p>
          {org && !org.approved && (
            <p className="text-sm text-muted-foreground" data-testid="pending-organisation">
              Organisation: <span className="font-medium text-foreground wrap-anywhere">{org.name}</span> · awaiting approval
            </p>
          )}
          <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Log out
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
