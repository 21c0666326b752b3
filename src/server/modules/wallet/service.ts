import type { Db } from '../../db/client';
import { brandEscrowBalance as escrowBalance } from '../payments/queries';

/** Funds the brand has held in escrow: the sum of its `paid` payments, as a decimal string ("1234.50"). */
export function brandEscrowBalance(db: Db, brandId: string): Promise<string> {
  return escrowBalance(db, brandId);
}
