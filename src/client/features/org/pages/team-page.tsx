import { MailPlus } from 'lucide-react';
import { roleCan } from '@shared/org';
import { QueryError } from '@/components/query-error';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { useOrg } from '@/lib/org';
import { useInvitations, useMembers } from '../api/org';
import { BudgetCard } from '../components/budget-card';
import { InvitationRow } from '../components/invitation-row';
import { InviteForm } from '../components/invite-form';
import { MemberRow } from '../components/member-row';

/** The owner's and admins' open invitations. */
function Invitations() {
  const query = useInvitations();
  const items = query.data;
  if (query.isLoading) return <PageSpinner />;
  if (query.isError) return <QueryError query={query} title="Couldn't load the invitations" />;
  if (!items?.length) return <EmptyState icon={<MailPlus />} title="No open invitations" description="People you invite appear here until they accept." />;
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-base">Open invitations</CardTitle>
      </CardHeader>
      <ul className="divide-y">
        {items.map((i) => (
          <InvitationRow key={i.id} invitation={i} />
        ))}
      </ul>
    </Card>
  );
}

/** The organisation's members and roles (decision 033); the owner and admins manage them here. */
export function TeamPage() {
  const { data: user } = useUser();
  const org = useOrg();
  const members = useMembers();
  const role = org.data?.role;
  const manage = roleCan(role, 'manage');
  const list = members.data ?? [];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Team</h1>
        <p className="text-muted-foreground wrap-anywhere" data-testid="org-name">
          {org.data?.name ?? '\u00a0'}
        </p>
      </div>
      {org.isLoading || members.isLoading ? (
        <PageSpinner />
      ) : org.isError ? (
        <QueryError query={org} title="Couldn't load your organisation" />
      ) : members.isError || !role ? (
        <QueryError query={members} title="Couldn't load the members" />
      ) : (
        <>
          <Card>
            <CardHeader className="pb-2">
              <CardTitle className="text-base">
                {list.length} {list.length === 1 ? 'member' : 'members'}
              </CardTitle>
              {!manage && <p className="text-sm text-muted-foreground">Only the owner or an admin can change the team.</p>}
            </CardHeader>
            <ul className="divide-y">
              {list.map((m) => (
                <MemberRow key={m.id} member={m} me={m.id === user?.id} myRole={role} />
              ))}
            </ul>
          </Card>
          <BudgetCard manage={manage} />
          {manage && (
            <>
              <InviteForm />
              <Invitations />
            </>
          )}
        </>
      )}
    </div>
  );
}
