import * as React from 'react';
import { ChevronsUpDown } from 'lucide-react';
import type { PublicUser } from '@shared/user';
import { UserAvatar } from '@/components/ui/avatar';
import { useSidebar } from '@/components/ui/sidebar';
import { useOrg } from '@/lib/org';
import { cn } from '@/lib/utils';

// the menu itself (Radix DropdownMenu and its positioning code) is fetched when a pointer or the
// focus first reaches the button, so a first visit does not carry it
const loadDropdown = () => import('./user-menu-dropdown').then((m) => m.default);
type Dropdown = Awaited<ReturnType<typeof loadDropdown>>;

export function Identity({ user }: { user: PublicUser }) {
  // a brand in the portal is approved, so a member: its organisation's name (its own company name until that loads)
  const org = useOrg(user.role === 'brand').data;
  const company = org?.name ?? user.brandName;
  return (
    <div className="grid min-w-0 flex-1 text-left text-sm leading-tight">
      <span className="truncate font-semibold">{user.name || user.email}</span>
      <span className="truncate text-xs text-muted-foreground">{user.email}</span>
      {user.role === 'brand' && company && (
        <span className="truncate text-xs text-muted-foreground" data-testid="user-menu-org">
          {company}
        </span>
      )}
    </div>
  );
}

/**
 * What the menu button shows: the avatar, and the name, e-mail and company when there is room. Its
 * name is what it shows, after "User menu:" (the avatar repeats the name, so it is not read out).
 */
export function UserMenuButtonFace({ user, collapsed }: { user: PublicUser; collapsed: boolean }) {
  return (
    <>
      <span className="sr-only">{collapsed ? 'User menu' : 'User menu: '}</span>
      <span aria-hidden className="contents">
        <UserAvatar name={user.name} src={user.avatarUrl} />
      </span>
      {!collapsed && (
        <>
          <Identity user={user} />
          <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" />
        </>
      )}
    </>
  );
}

export const userMenuButtonClass = (collapsed: boolean) =>
  cn(
    'flex w-full cursor-pointer items-center gap-2 overflow-hidden rounded-md p-1.5 text-left outline-none hover:bg-sidebar-accent focus-visible:ring-2 focus-visible:ring-ring',
    collapsed && 'justify-center p-0',
  );

export function UserMenu({ user }: { user: PublicUser }) {
  const { open, isMobile } = useSidebar();
  const collapsed = !open && !isMobile;
  const [Menu, setMenu] = React.useState<{ Dropdown: Dropdown; focusButton: boolean; open: boolean } | null>(null);
  // pressed (pointer, Enter, Space, ArrowDown) before the menu's code arrived: open it when it does
  const openWhenLoaded = React.useRef(false);
  const loading = React.useRef(false);

  // a press after the code arrived but before the swap is rendered opens the menu too
  const openOnArrival = (button: HTMLButtonElement) => {
    openWhenLoaded.current = true;
    setMenu((m) => (m ? { ...m, open: true } : m));
    load(button);
  };

  // the plain button is swapped for the menu's own in one render, once the code is here
  const load = (button: HTMLButtonElement) => {
    if (loading.current) return;
    loading.current = true;
    void loadDropdown().then((Dropdown) =>
      setMenu({ Dropdown, focusButton: document.activeElement === button, open: openWhenLoaded.current }),
    );
  };

  if (Menu) {
    return <Menu.Dropdown user={user} defaultOpen={Menu.open} focusButton={Menu.focusButton} />;
  }
  return (
    <button
      type="button"
      className={userMenuButtonClass(collapsed)}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      data-testid="user-menu"
      onPointerEnter={(e) => load(e.currentTarget)}
      onFocus={(e) => load(e.currentTarget)}
      onPointerDown={(e) => {
        // as Radix's trigger: the left button without Ctrl opens the menu
        if (e.button !== 0 || e.ctrlKey) return;
        e.preventDefault();
        openOnArrival(e.currentTarget);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' && e.key !== ' ' && e.key !== 'ArrowDown') return;
        e.preventDefault();
        openOnArrival(e.currentTarget);
      }}
    >
      <UserMenuButtonFace user={user} collapsed={collapsed} />
    </button>
  );
}
