import { ORG_ROLE_LABELS, type OrgRole } from '@shared/org';
import { Badge } from '@/components/ui/badge';

const VARIANTS = { owner: 'default', admin: 'info', buyer: 'success', reviewer: 'warning', viewer: 'secondary' } as const;

export function RoleBadge({ role }: { role: OrgRole }) {
  return (
    <Badge variant={VARIANTS[role]} data-testid="role-badge">
      {ORG_ROLE_LABELS[role]}
    </Badge>
  );
}
