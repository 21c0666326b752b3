import * as React from 'react';
import { INVITABLE_ROLES, ORG_ROLE_LABELS } from '@shared/org';
import type { InvitationInput } from '@shared/schemas/org';
import { cn } from '@/lib/utils';

export type InvitableRole = InvitationInput['role'];

/** The roles a member can be given (never owner: ownership is transferred), as a native select. */
export function RoleSelect({
  value,
  onChange,
  className,
  ...props
}: Omit<React.SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & { value: InvitableRole; onChange: (role: InvitableRole) => void }) {
  return (
    <select
      value={value}
      onChange={(e) => onChange(e.target.value as InvitableRole)}
      className={cn(
        'h-9 rounded-md border border-input bg-card px-3 text-base shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50 aria-[invalid=true]:border-destructive md:text-sm',
        className,
      )}
      {...props}
    >
      {INVITABLE_ROLES.map((r) => (
        <option key={r} value={r}>
          {ORG_ROLE_LABELS[r]}
        </option>
      ))}
    </select>
  );
}
