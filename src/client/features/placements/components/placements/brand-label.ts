import type { AdminPlacementItem } from '@shared/publication';

/** How a placement's brand is named: its brand name, else the person's name, else the email. */
export const brandLabel = (brand: AdminPlacementItem['brand']) => brand.brandName || brand.name || brand.email;
