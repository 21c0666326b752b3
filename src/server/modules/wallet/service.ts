import type { Db } from '../../db/client';

/**
 * Funds the brand has held in escrow. Payments do not exist yet (the payments issue adds them),
 * so nothing is held: the balance is zero until then.
 */
export async function brandEscrowBalance(_db: Db, _brandId: string): Promise<string> {
  return '0.00';
}
