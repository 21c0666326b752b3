import * as React from 'react';
import { useParams } from 'wouter';
import type { OutletDetail } from '@shared/schemas/outlets';
import { useOutlet } from '../api/get-outlet';
import { OutletFrame } from '../components/outlet-view';

/**
 * /brand/outlets/{id} (issue 48): an outlet for a brand, its metrics, Byline's record and what can
 * be bought from it. The list of opportunities, which opens the catalogue's claim dialog, is the
 * catalogue's: the app passes it in (app/pages/brand-outlet-page.tsx), a feature importing none other.
 */
export function OutletPage({ opportunities }: { opportunities: (o: OutletDetail) => React.ReactNode }) {
  const { id = '' } = useParams<{ id: string }>();
  const query = useOutlet('brand', id);
  return <OutletFrame key={id} side="brand" query={query} opportunities={opportunities} />;
}
