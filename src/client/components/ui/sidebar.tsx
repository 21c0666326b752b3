import * as React from 'react';
import { PanelLeft } from 'lucide-react';
import { SIDEBAR_COOKIE_MAX_AGE, SIDEBAR_COOKIE_NAME } from '@shared/constants';
import { useIsMobile } from '@/lib/use-mobile';
import { cn } from '@/lib/utils';
import { Button } from './button';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

// the phone's sheet (Radix Dialog, focus trap, scroll lock) loads the first time it opens
const SidebarSheet = React.lazy(() => import('./sidebar-sheet'));

// spec §2/§9: 16rem expanded, 3rem icon-only, 18rem mobile sheet; Ctrl/Cmd+B; cookie 7 days
const SIDEBAR_WIDTH = '16rem';
const SIDEBAR_WIDTH_ICON = '3rem';
const SIDEBAR_WIDTH_MOBILE = '18rem';

interface SidebarState {
  open: boolean;
  setOpen: (open: boolean) => void;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  toggle: () => void;
}

const SidebarContext = React.createContext<SidebarState | null>(null);

export function useSidebar(): SidebarState {
  const ctx = React.useContext(SidebarContext);
  if (!ctx) throw new Error('useSidebar must be used inside SidebarProvider');
  return ctx;
}

function readCookie(): boolean {
  const m = document.cookie.match(new RegExp(`(?:^|; )${SIDEBAR_COOKIE_NAME}=(true|false)`));
  return m ? m[1] === 'true' : true;
}

export function SidebarProvider({ children }: { children: React.ReactNode }) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = React.useState(readCookie);
  const [openMobile, setOpenMobile] = React.useState(false);

  const setOpen = React.useCallback((value: boolean) => {
    setOpenState(value);
    document.cookie = `${SIDEBAR_COOKIE_NAME}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax`;
  }, []);

  const toggle = React.useCallback(() => {
    if (isMobile) setOpenMobile((o) => !o);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  React.useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === 'b' && (e.metaKey || e.ctrlKey)) {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  const value = React.useMemo(
    () => ({ open, setOpen, openMobile, setOpenMobile, isMobile, toggle }),
    [open, setOpen, openMobile, isMobile, toggle],
  );

  return (
    <SidebarContext.Provider value={value}>
      <div
        className="flex min-h-page w-full"
        style={{ '--sidebar-width': SIDEBAR_WIDTH, '--sidebar-width-icon': SIDEBAR_WIDTH_ICON } as React.CSSProperties}
        data-sidebar-state={open ? 'expanded' : 'collapsed'}
      >
        {children}
      </div>
    </SidebarContext.Provider>
  );
}

export function Sidebar({ children }: { children: React.ReactNode }) {
  const { isMobile, open, openMobile, setOpenMobile } = useSidebar();
  const [sheetUsed, setSheetUsed] = React.useState(false);
  if (isMobile && openMobile && !sheetUsed) setSheetUsed(true);
  if (isMobile) {
    if (!sheetUsed) return null;
    return (
      <React.Suspense fallback={null}>
        <SidebarSheet open={openMobile} onOpenChange={setOpenMobile} width={SIDEBAR_WIDTH_MOBILE}>
          {children}
        </SidebarSheet>
      </React.Suspense>
    );
  }
  return (
    <>
      {/* keeps the page content clear of the fixed sidebar */}
      <div
        aria-hidden
        className="shrink-0 transition-[width] duration-200"
        style={{ width: open ? 'var(--sidebar-width)' : 'var(--sidebar-width-icon)' }}
      />
      <aside
        data-testid="sidebar"
        data-collapsed={open ? 'false' : 'true'}
        className="group/sidebar fixed top-(--test-banner-h) bottom-0 left-0 z-10 flex flex-col border-r bg-sidebar text-sidebar-foreground transition-[width] duration-200"
        style={{ width: open ? 'var(--sidebar-width)' : 'var(--sidebar-width-icon)' }}
      >
        {children}
      </aside>
    </>
  );
}

export const SidebarHeader = ({ className, ...p }: React.HTMLAttributes<HTMLDivElement>) => (
  <div className={cn('flex flex-col gap-2 p-2', className)} {...p} />
);
export const SidebarContent = ({ className, ...p }: React.HTMLAttributes<HTMLDivElement>) => (
  <div className={cn('flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto overflow-x-hidden p-2', className)} {...p} />
);
export const SidebarFooter = ({ className, ...p }: React.HTMLAttributes<HTMLDivElement>) => (
  <div className={cn('flex flex-col gap-2 p-2', className)} {...p} />
);
export const SidebarMenu = ({ className, ...p }: React.HTMLAttributes<HTMLUListElement>) => (
  <ul className={cn('flex w-full min-w-0 flex-col gap-1', className)} {...p} />
);

/**
 * A navigation entry: icon + label (+ badge), label hidden and shown as a tooltip when collapsed.
 * The badge comes after the label in the DOM: the link is named by its text in the order it shows
 * ("Needs attention (3 placements)", the badge's words for its number).
 */
export function SidebarMenuButton({
  icon,
  label,
  badge,
  active,
  asChild,
  children,
}: {
  icon: React.ReactNode;
  label: string;
  badge?: React.ReactNode;
  active?: boolean;
  asChild?: boolean;
  children: React.ReactElement<{ className?: string; children?: React.ReactNode; 'aria-current'?: 'page' }>;
}) {
  const { open, isMobile } = useSidebar();
  const collapsed = !open && !isMobile;
  const className = cn(
    'flex h-9 w-full items-center gap-2 overflow-hidden rounded-md px-2 text-sm font-medium outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4 [&_svg]:shrink-0',
    active && 'bg-sidebar-accent text-sidebar-accent-foreground',
  );
  const child = asChild
    ? React.cloneElement(children, {
        className,
        'aria-current': active ? 'page' : undefined,
        children: (
          <>
            {icon}
            <span className={cn('truncate', collapsed && 'sr-only')}>{label}</span>
            {badge}
          </>
        ),
      })
    : children;
  return (
    <li>
      {collapsed ? (
        <Tooltip>
          <TooltipTrigger asChild>{child}</TooltipTrigger>
          <TooltipContent side="right">{label}</TooltipContent>
        </Tooltip>
      ) : (
        child
      )}
    </li>
  );
}

export function SidebarTrigger({ className }: { className?: string }) {
  const { toggle } = useSidebar();
  return (
    <Button variant="ghost" size="icon" className={cn('size-8', className)} onClick={toggle} aria-label="Toggle sidebar" data-testid="sidebar-trigger">
      <PanelLeft />
    </Button>
  );
}
