import { format } from 'date-fns';
import { Link } from 'wouter';
import { CircleSlash } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useOpenCancellations } from '../../api/cancellations';

/**
 * "Cancellations awaiting an answer" (issue 47), above the Projects tabs: each brand's request,
 * soonest due first, linked to the placement's page where it is answered. Shown only when there is one.
 */
export function OpenCancellations() {
  const open = useOpenCancellations().data ?? [];
  if (open.length === 0) return null;
  return (
    <Card className="border-amber-300" data-testid="open-cancellations">
      <CardHeader className="pb-2">
        <CardTitle className="flex items-center gap-2 text-base">
          <CircleSlash className="size-4 text-amber-700" aria-hidden />
          Cancellations awaiting an answer
        </CardTitle>
      </CardHeader>
      <CardContent className="pt-0">
        <ul className="divide-y">
          {open.map((c) => (
            <li
              key={c.id}
              className="flex flex-col gap-1 py-2.5 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
              data-testid="open-cancellation"
            >
              <div className="min-w-0">
                <Link
                  href={`/admin/projects/${c.paymentId}`}
                  className="font-medium break-words text-primary underline-offset-4 hover:underline"
                >
                  {c.title}
                </Link>
                <p className="text-sm text-muted-foreground break-words">
                  {c.brandName} · {c.outletName}
                </p>
              </div>
              <p className="shrink-0 text-sm">
                Answer by <span className="font-medium">{format(new Date(c.respondBy), 'MMM d, yyyy')}</span>
              </p>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
