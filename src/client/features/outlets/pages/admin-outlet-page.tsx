import { Link, useParams } from 'wouter';
import { Pencil } from 'lucide-react';
import { OutletOpportunityList, OutletOpportunityRow } from '@/components/outlet/outlet-opportunity-row';
import { Button } from '@/components/ui/button';
import { useOutlet } from '../api/get-outlet';
import { OutletFrame } from '../components/outlet-view';

/**
 * /admin/outlets/{id} (issue 48): the outlet as brands see it (its metrics with their sources and
 * dates, Byline's record), its opportunities each with the way to edit it.
 */
export function AdminOutletPage() {
  const { id = '' } = useParams<{ id: string }>();
  const query = useOutlet('admin', id);
  return (
    <OutletFrame
      key={id}
      side="admin"
      query={query}
      opportunities={(o) => (
        <OutletOpportunityList count={o.opportunities.length}>
          {o.opportunities.map((item) => (
            <OutletOpportunityRow
              key={item.id}
              o={item}
              action={
                <Button asChild variant="outline" size="sm">
                  <Link href={`/admin/edit-opportunity/${item.id}`}>
                    <Pencil aria-hidden /> Edit <span className="sr-only">{item.title}</span>
                  </Link>
                </Button>
              }
            />
          ))}
        </OutletOpportunityList>
      )}
    />
  );
}
