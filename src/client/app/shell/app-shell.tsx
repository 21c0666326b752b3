import * as React from 'react';
import { Link, useLocation } from 'wouter';
import {
  BarChart3,
  BellRing,
  Building2,
  ClipboardCheck,
  CreditCard,
  FileBarChart,
  FileText,
  FolderKanban,
  LayoutDashboard,
  Newspaper,
  Package,
  Scale,
  ScrollText,
  ShieldCheck,
  ShoppingCart,
  Ticket,
  UserCheck,
  Users,
  Wallet,
} from 'lucide-react';
import { roleCan } from '@shared/org';
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
import { cn } from '@/lib/utils';
import { TooltipProvider } from '@/components/ui/tooltip';
import { PageSpinner } from '@/components/ui/spinner';
import { usePlacementCounts } from '@/features/placements/api/admin-placements';
import { useAttention } from '@/features/attention/api/get-attention';
import { usePurchaseRequests } from '@/features/org/api/budget';
import { useCanBuy, useCart } from '@/lib/cart';
import { useOrg, useReviewOnly } from '@/lib/org';
import { useUnreadMessages } from '@/lib/unread-messages';
import { CartLink } from './cart-link';
import { EscrowCard } from './escrow-card';
import { UserMenu } from './user-menu';

const ADMIN_NAV = [
  { href: '/admin', label: 'Dashboard', icon: <LayoutDashboard /> },
  { href: '/admin/attention', label: 'Needs attention', icon: <BellRing /> },
  { href: '/admin/projects', label: 'Projects', icon: <FolderKanban /> },
  { href: '/admin/payments', label: 'Payments', icon: <CreditCard /> },
  { href: '/admin/placements', label: 'Placements', icon: <ShieldCheck /> },
  { href: '/admin/disputes', label: 'Disputes', icon: <Scale /> },
  { href: '/admin/outlets/import', label: 'Outlet metrics', icon: <BarChart3 /> },
  { href: '/admin/approvals', label: 'Approvals', icon: <UserCheck /> },
  // issue 57: reached before only through a payment's link (organisations) or the user menu (codes)
  { href: '/admin/organisations', label: 'Organisations', icon: <Building2 /> },
  { href: '/admin/invite-codes', label: 'Invite codes', icon: <Ticket /> },
];
const REPORTS_NAV = { href: '/brand/reports', label: 'Reports', icon: <FileBarChart /> };
const BRAND_NAV = [
  { href: '/brand/opportunities', label: 'Opportunities', icon: <Newspaper /> },
  // members who can buy only
  { href: '/brand/cart', label: 'Cart', icon: <ShoppingCart /> },
  { href: '/brand/my-articles', label: 'My Articles', icon: <FileText /> },
  { href: '/brand/orders', label: 'Orders', icon: <Package /> },
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
  // an outlet's page is reached from the import's changes
  if (href === '/admin/outlets/import') return path.startsWith('/admin/outlets/');
  return path === href || path.startsWith(`${href}/`);
}

const COUNT_CLASS =
  'ml-auto rounded-full px-1.5 text-[11px] font-semibold leading-5 tabular-nums group-data-[collapsed=true]/sidebar:-ml-3.5 group-data-[collapsed=true]/sidebar:-mt-3.5 group-data-[collapsed=true]/sidebar:size-2 group-data-[collapsed=true]/sidebar:p-0 group-data-[collapsed=true]/sidebar:text-[0px]';

/**
 * A number beside a navigation label (open cases, unread messages, placements waiting): after the
 * label, at the end of the row; in the collapsed sidebar (the label hidden) a dot on the icon. The
 * drawn number is hidden from screen readers, which read the words instead ("Placements (2 open
 * cases)"): the link is named by what it shows, not by an aria-label that would differ from it.
 */
function NavCount({
  count,
  spoken,
  testId,
  className,
}: {
  count: number;
  spoken: string;
  testId: string;
  className: string;
}) {
  return (
    <>
      <span className="sr-only"> ({spoken})</span>
      <span aria-hidden data-testid={testId} className={cn(COUNT_CLASS, className)}>
        {count}
      </span>
    </>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Navigation({ user }: { user: PublicUser }) {
  const [path] = useLocation();
  const { setOpenMobile } = useSidebar();
  const admin = user.role === 'admin';
  // a client reviewer (decision 035) reviews its articles: no catalogue, no payments
  const reviewOnly = useReviewOnly(!admin && user.approved);
  // the cart for those who can buy (viewers and reviewers cannot), with its count
  const canBuy = useCanBuy(!admin && user.approved) === true;
  const inCart = useCart(canBuy).data?.lines.length ?? 0;
  const items = admin
    ? ADMIN_NAV
    : reviewOnly
      ? // and their clients' reports, without prices (the Organisation group is not theirs)
        [...BRAND_NAV.filter((i) => i.href === '/brand/my-articles'), REPORTS_NAV]
      : BRAND_NAV.filter((i) => i.href !== '/brand/cart' || canBuy);
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
          const cartHere = item.href === '/brand/cart' && inCart > 0;
          return (
            <SidebarMenuButton
              key={item.href}
              icon={item.icon}
              badge={
                badge ? (
                  <NavCount
                    count={cases}
                    spoken={plural(cases, 'open case', 'open cases')}
                    testId="nav-case-count"
                    className="bg-destructive text-destructive-foreground"
                  />
                ) : unreadHere ? (
                  <NavCount
                    count={unread}
                    spoken={plural(unread, 'unread message', 'unread messages')}
                    testId="nav-unread-count"
                    className="bg-primary text-primary-foreground"
                  />
                ) : waitingHere ? (
                  <NavCount
                    count={waiting}
                    spoken={plural(waiting, 'placement', 'placements')}
                    testId="nav-attention-count"
                    className="bg-amber-700 text-white"
                  />
                ) : cartHere ? (
                  <NavCount
                    count={inCart}
                    spoken={plural(inCart, 'opportunity', 'opportunities')}
                    testId="nav-cart-count"
                    className="bg-primary text-primary-foreground"
                  />
                ) : undefined
              }
              label={item.label}
              active={isActive(path, item.href)}
              asChild
            >
              <Link href={item.href} onClick={() => setOpenMobile(false)} />
            </SidebarMenuButton>
          );
        })}
      </SidebarMenu>
    </nav>
  );
}

/** The organisation's pages (decision 033): the team for every member, the audit log for those who manage. */
function OrgNavigation({ userId }: { userId: string }) {
  const [path] = useLocation();
  const { open, isMobile, setOpenMobile } = useSidebar();
  const manage = roleCan(useOrg().data?.role, 'manage');
  // what waits for the owner's or an admin's decision, polled every minute like the other counts
  const pending = usePurchaseRequests('pending', { enabled: manage, refetchInterval: 60_000 }).data;
  // one's own requests are for another approver to decide
  const waiting = manage ? (pending?.filter((r) => r.requestedBy.id !== userId).length ?? 0) : 0;
  const items = [
    { href: '/brand/team', label: 'Team', icon: <Users /> },
    ...(manage ? [{ href: '/brand/clients', label: 'Clients', icon: <Building2 /> }] : []),
    { href: '/brand/requests', label: 'Purchase requests', icon: <ClipboardCheck /> },
    REPORTS_NAV,
    ...(manage ? [{ href: '/brand/audit', label: 'Audit log', icon: <ScrollText /> }] : []),
  ];
  return (
    <nav aria-labelledby="org-nav-label" className="mt-4">
      <span
        id="org-nav-label"
        className={cn('block px-2 pb-1 text-xs font-medium text-muted-foreground', !open && !isMobile && 'sr-only')}
      >
        Organisation
      </span>
      <SidebarMenu>
        {items.map((item) => (
          <SidebarMenuButton
            key={item.href}
            icon={item.icon}
            label={item.label}
            badge={
              item.href === '/brand/requests' && waiting > 0 ? (
                <NavCount
                  count={waiting}
                  spoken={plural(waiting, 'pending request', 'pending requests')}
                  testId="nav-requests-count"
                  className="bg-amber-700 text-white"
                />
              ) : undefined
            }
            active={isActive(path, item.href)}
            asChild
          >
            <Link href={item.href} onClick={() => setOpenMobile(false)} />
          </SidebarMenuButton>
        ))}
      </SidebarMenu>
    </nav>
  );
}

export function AppShell({ user, children }: { user: PublicUser; children: React.ReactNode }) {
  const portal = user.role === 'admin' ? 'Admin Portal' : 'Brand Portal';
  // a client reviewer sees no money and no team (decision 035); asked once the organisation is known
  const reviewOnly = useReviewOnly(user.role === 'brand' && user.approved);
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
            {/* a brand inside the portal is approved: the only kind that belongs to an organisation */}
            {user.role === 'brand' && reviewOnly === false && <OrgNavigation userId={user.id} />}
          </SidebarContent>
          <SidebarFooter>
            {user.role === 'brand' && reviewOnly === false && <EscrowCard />}
            <UserMenu user={user} />
          </SidebarFooter>
        </Sidebar>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-[5] flex h-14 items-center gap-2 border-b bg-background/90 px-4 backdrop-blur">
            <SidebarTrigger />
            <span className="text-sm font-medium text-muted-foreground">{portal}</span>
            {user.role === 'brand' && user.approved && <CartLink />}
          </header>
          <main id="main" className="mx-auto w-full max-w-6xl flex-1 p-4 outline-none md:p-8">
            {/* a page's chunk loads inside the shell: navigation stays in place */}
            <React.Suspense fallback={<PageSpinner />}>{children}</React.Suspense>
          </main>
        </div>
      </SidebarProvider>
    </TooltipProvider>
  );
}
