import { Link } from 'wouter';
import { ShieldCheck } from 'lucide-react';
import { formatUsd } from '@shared/money';
import { useSidebar } from '@/components/ui/sidebar';
import { useWallet } from '@/features/payments/api/get-wallet';

/** The brand's funds held in escrow until publication; links to Payment History. */
export function EscrowCard() {
  const { open, isMobile, setOpenMobile } = useSidebar();
  const { data, isLoading } = useWallet(true);
  const balance = data ? formatUsd(data.balance) : isLoading ? '…' : formatUsd(0);
  if (!open && !isMobile) return null;
  return (
    <Link
      href="/brand/payments"
      onClick={() => setOpenMobile(false)}
      className="block rounded-lg border bg-gradient-to-br from-primary/10 to-primary/5 p-3 transition-colors hover:border-primary/40"
      data-testid="escrow-card"
    >
      <div className="flex items-center gap-2 text-xs font-medium text-muted-foreground">
        <ShieldCheck className="size-4 text-primary" />
        Escrow balance
      </div>
      <div className="mt-1 text-xl font-semibold tabular-nums" data-testid="escrow-balance">
        {balance}
      </div>
      <p className="mt-0.5 text-xs text-muted-foreground">Funds held until publication</p>
    </Link>
  );
}
