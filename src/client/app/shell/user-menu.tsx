import { Link } from 'wouter';
import { ChevronsUpDown, KeyRound, LogOut, UserRound } from 'lucide-react';
import type { PublicUser } from '@shared/user';
import { UserAvatar } from '@/components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useSidebar } from '@/components/ui/sidebar';
import { useLogout } from '@/lib/use-logout';
import { cn } from '@/lib/utils';

function Identity({ user }: { user: PublicUser }) {
  return (
    <div className="grid min-w-0 flex-1 text-left text-sm leading-tight">
      <span className="truncate font-semibold">{user.name || user.email}</span>
      <span className="truncate text-xs text-muted-foreground">{user.email}</span>
      {user.role === 'brand' && user.brandName && <span className="truncate text-xs text-muted-foreground">{user.brandName}</span>}
    </div>
  );
}

export function UserMenu({ user }: { user: PublicUser }) {
  const { open, isMobile, setOpenMobile } = useSidebar();
  const logout = useLogout();
  const collapsed = !open && !isMobile;
  const close = () => setOpenMobile(false);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className={cn(
          'flex w-full cursor-pointer items-center gap-2 overflow-hidden rounded-md p-1.5 text-left outline-none hover:bg-sidebar-accent focus-visible:ring-2 focus-visible:ring-ring',
          collapsed && 'justify-center p-0',
        )}
        aria-label="User menu"
        data-testid="user-menu"
      >
        <UserAvatar name={user.name} src={user.avatarUrl} />
        {!collapsed && (
          <>
            <Identity user={user} />
            <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" />
          </>
        )}
      </DropdownMenuTrigger>
      <DropdownMenuContent side={isMobile ? 'top' : 'right'} align="end" className="w-64">
        <DropdownMenuLabel className="flex items-center gap-2">
          <UserAvatar name={user.name} src={user.avatarUrl} />
          <Identity user={user} />
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild onSelect={close}>
          <Link href="/brand/profile">
            <UserRound /> Profile
          </Link>
        </DropdownMenuItem>
        {user.role === 'admin' && (
          <DropdownMenuItem asChild onSelect={close}>
            <Link href="/admin/invite-codes">
              <KeyRound /> Invite Codes
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => logout.mutate()} disabled={logout.isPending}>
          <LogOut /> Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
