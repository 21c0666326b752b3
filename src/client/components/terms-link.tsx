import { ExternalLink } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * The terms of service (/terms), opened in a new tab: whoever reads them mid-form (sign-up, the
 * claim dialog) comes back to what they had typed and ticked.
 */
export function TermsLink({
  className,
  children = 'Terms of Service',
}: {
  className?: string;
  children?: React.ReactNode;
}) {
  return (
    <a
      href="/terms"
      target="_blank"
      rel="noopener"
      className={cn(
        'inline-flex items-center gap-0.5 font-medium text-primary underline-offset-4 hover:underline',
        className,
      )}
    >
      {children}
      <ExternalLink className="size-3" aria-hidden />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
