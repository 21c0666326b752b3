import * as React from 'react';
import { Link, useLocation } from 'wouter';
import { BellRing, CreditCard, FileText, FolderKanban, LayoutDashboard, Newspaper, ShieldCheck, UserCheck, Wallet } from 'lucide-react';
import type { PublicUser } from '@shared/user';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from '@/components/ui/sidebar';
import { Logo } from '@/components/ui/logo';
import { TooltipProvider } from '@/components/ui/tooltip';
import { PageSpinner } from '@/components/ui/spinner';
import { usePlacementCounts } from '@/features/placements/api/admin-placements';
import { useAttention } from '@/features/attention/api/get-attention';
import { useUnreadMessages } from '@/lib/unread-messages';
import { EscrowCard } from './escrow-card';
import { UserMenu } from './user-menu';

const ADMIN_NAV = [
  { href: '/admin', label: 'Dashboard', icon: <LayoutDashboard /> },
  { href: '/admin/attention', label: 'Needs attention', icon: <BellRing /> },
  { href: '/admin/projects', label: 'Projects', icon: <FolderKanban /> },
  { href: '/admin/payments', label: 'Payments', icon: <CreditCard /> },
  { href: '/admin/placements', label: 'Placements', icon: <ShieldCheck /> },
  { href: '/admin/approvals', label: 'Approvals', icon: <UserCheck /> },
];
const BRAND_NAV = [
  { href: '/brand/opportunities', label: 'Opportunities', icon: <Newspaper /> },
  { href: '/brand/my-articles', label: 'My Articles', icon: <FileText /> },
  { href: '/brand/payments', label: 'Payments', icon: <Wallet /> },
];

function Brand({ portal }: { portal: string }) {
  const { open, isMobile } = useSidebar();
  return (
    <div className="flex items-center gap-2 px-0.5 py-1">
      <Logo />
      {(open || isMobile) && (
        <div className="grid leading-tight">
          <span className="font-semibold tracking-tight">Byline</span>
          <span className="text-xs text-muted-foreground" data-testid="portal-label">
            {portal}
          </span>
        </div>
      )}
    </div>
  );
}

function isActive(path: string, href: string) {
  if (href === '/admin')
    return path === '/admin' || path.startsWith('/admin/new-opportunity') || path.startsWith('/admin/edit-opportunity');
  return path === href || path.startsWith(`${href}/`);
}

/**
 * The open cases beside "Placements": after the icon in the DOM, drawn at the end of the row
 * (order-last); in the collapsed sidebar a dot on the icon. The link's aria-label carries the number.
 */
function CaseCount({ count }: { count: number }) {
  return (
    <span
      aria-hidden
      data-testid="nav-case-count"
      className="order-last ml-auto rounded-full bg-destructive px-1.5 text-[11px] font-semibold leading-5 text-destructive-foreground tabular-nums group-data-[collapsed=true]/sidebar:order-none group-data-[collapsed=true]/sidebar:-ml-3.5 group-data-[collapsed=true]/sidebar:-mt-3.5 group-data-[collapsed=true]/sidebar:size-2 group-data-[collapsed=true]/sidebar:p-0 group-data-[collapsed=true]/sidebar:text-[0px]"
    >
      {count}
    </span>
  );
}

/** Unread messages beside "My Articles" / "Projects", drawn like the case count in the primary colour. */
function UnreadCount({ count }: { count: number }) {
  return (
    <span
      aria-hidden
      data-testid="nav-unread-count"
      className="order-last ml-auto rounded-full bg-primary px-1.5 text-[11px] font-semibold leading-5 text-primary-foreground tabular-nums group-data-[collapsed=true]/sidebar:order-none group-data-[collapsed=true]/sidebar:-ml-3.5 group-data-[collapsed=true]/sidebar:-mt-3.5 group-data-[collapsed=true]/sidebar:size-2 group-data-[collapsed=true]/sidebar:p-0 group-data-[collapsed=true]/sidebar:text-[0px]"
    >
      {count}
    </span>
  );
}

/** The placements waiting on the team beside "Needs attention", drawn like the case count in amber. */
function AttentionCount({ count }: { count: number }) {
  return (
    <span
      aria-hidden
      data-testid="nav-attention-count"
      className="order-last ml-auto rounded-full bg-amber-500 px-1.5 text-[11px] font-semibold leading-5 text-white tabular-nums group-data-[collapsed=true]/sidebar:order-none group-data-[collapsed=true]/sidebar:-ml-3.5 group-data-[collapsed=true]/sidebar:-mt-3.5 group-data-[collapsed=true]/sidebar:size-2 group-data-[collapsed=true]/sidebar:p-0 group-data-[collapsed=true]/sidebar:text-[0px]"
    >
      {count}
    </span>
  );
}

function Navigation({ user }: { user: PublicUser }) {
  const [path] = useLocation();
  const { setOpenMobile } = useSidebar();
  const admin = user.role === 'admin';
  const items = admin ? ADMIN_NAV : BRAND_NAV;
  // the number of open cases, for admins only; a minute old is recent enough for a badge
  const { data: counts } = usePlacementCounts({ enabled: admin, staleTime: 60_000 });
  const cases = admin ? (counts?.issues ?? 0) : 0;
  // unread messages beside the list their conversations are in (My Articles, Projects)
  const unread = useUnreadMessages(admin ? 'admin' : 'brand', admin || user.approved).data?.total ?? 0;
  const messagesHref = admin ? '/admin/projects' : '/brand/my-articles';
  // what waits on the team (issue 19), polled every minute like the unread count
  const waiting = useAttention(admin).data?.total ?? 0;
  return (
    <nav aria-label="Main">
      <SidebarMenu>
        {items.map((item) => {
          const badge = item.href === '/admin/placements' && cases > 0;
          const unreadHere = item.href === messagesHref && unread > 0;
          const waitingHere = item.href === '/admin/attention' && waiting > 0;
          return (
            <SidebarMenuButton
              key={item.href}
              icon={
                badge ? (
                  <>
                    {item.icon}
                    <CaseCount count={cases} />
                  </>
                ) : unreadHere ? (
                  <>
                    {item.icon}
                    <UnreadCount count={unread} />
                  </>
                ) : waitingHere ? (
                  <>
                    {item.icon}
                    <AttentionCount count={waiting} />
                  </>
                ) : (
                  item.icon
                )
              }
              label={item.label}
              active={isActive(path, item.href)}
              asChild
            >
              <Link
                href={item.href}
                onClick={() => setOpenMobile(false)}
                aria-label={
                  badge
                    ? `${item.label} (${cases} open ${cases === 1 ? 'case' : 'cases'})`
                    : unreadHere
                      ? `${item.label} (${unread} unread ${unread === 1 ? 'message' : 'messages'})`
                      : waitingHere
                        ? `${item.label} (${waiting} ${waiting === 1 ? 'placement' : 'placements'})`
                        : undefined
                }
              />
            </SidebarMenuButton>
          );
        })}
      </SidebarMenu>
    </nav>
  );
}

export function AppShell({ user, children }: { user: PublicUser; children: React.ReactNode }) {
  const portal = user.role === 'admin' ? 'Admin Portal' : 'Brand Portal';
  return (
    // tooltips live only inside the portal, so the sign-in pages never load their positioning code
    <TooltipProvider>
      <SidebarProvider>
        <Sidebar>
          <SidebarHeader>
            <Brand portal={portal} />
          </SidebarHeader>
          <SidebarContent>
            <Navigation user={user} />
          </SidebarContent>
          <SidebarFooter>
            {user.role === 'brand' && <EscrowCard />}
            <UserMenu user={user} />
          </SidebarFooter>
        </Sidebar>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-[5] flex h-14 items-center gap-2 border-b bg-background/90 px-4 backdrop-blur">
            <SidebarTrigger />
            <span className="text-sm font-medium text-muted-foreground">{portal}</span>
          </header>
          <main className="mx-auto w-full max-w-6xl flex-1 p-4 md:p-8">
            {/* a page's chunk loads inside the shell: navigation stays in place */}
            <React.Suspense fallback={<PageSpinner />}>{children}</React.Suspense>
          </main>
        </div>
      </SidebarProvider>
    </TooltipProvider>
  );
}
