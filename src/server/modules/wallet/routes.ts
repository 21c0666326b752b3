import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { requireApprovedBrand } from '../auth/guards';
import { brandEscrowBalance } from './service';

export function walletRoutes(app: FastifyInstance, { db }: AppDeps) {
  // the sum of the brand's payments held in escrow, as a decimal string ("1234.50")
  app.get('/api/brand/wallet', async (req) => {
    const brand = requireApprovedBrand(req);
    return { balance: await brandEscrowBalance(db, brand.id) };
  });
}
