import { OutletOpportunities } from '@/features/opportunities/components/outlet-opportunities';
import { OutletPage } from '@/features/outlets/pages/outlet-page';

/**
 * /brand/outlets/{id}: the outlets feature's page with the catalogue's list of the outlet's
 * opportunities (Save, Add to cart and the claim dialog), composed here as features import no other.
 */
export function BrandOutletPage() {
  return <OutletPage opportunities={(o) => <OutletOpportunities opportunities={o.opportunities} />} />;
}
