import type { LivePlacementItem } from '@shared/publication';

/** How a placement's brand is named: its brand name, else the person's name, else the email. */
export const brandLabel = (brand: LivePlacementItem['brand']) => brand.brandName || brand.name || brand.email;
