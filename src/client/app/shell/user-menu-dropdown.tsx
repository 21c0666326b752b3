import * as React from 'react';
import { Link } from 'wouter';
import { KeyRound, LogOut, UserRound } from 'lucide-react';
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
import { Identity, UserMenuButtonFace, userMenuButtonClass } from './user-menu';

/** The user menu: Profile, Invite Codes (admins), Log out. Loaded by ./user-menu on first approach. */
export default function UserMenuDropdown({
  user,
  defaultOpen,
  focusButton,
}: {
  user: PublicUser;
  defaultOpen: boolean;
  focusButton: boolean;
}) {
  const { open, isMobile, setOpenMobile } = useSidebar();
  const logout = useLogout();
  const collapsed = !open && !isMobile;
  const close = () => setOpenMobile(false);
  const buttonRef = React.useRef<HTMLButtonElement>(null);
  // before the browser handles the next event: a key pressed right after the swap reaches this button
  React.useLayoutEffect(() => {
    // an open menu takes the focus itself (and gives it back to the button when it closes)
    if (focusButton && !defaultOpen) buttonRef.current?.focus();
  }, [focusButton, defaultOpen]);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger ref={buttonRef} className={userMenuButtonClass(collapsed)} data-testid="user-menu">
        <UserMenuButtonFace user={user} collapsed={collapsed} />
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
