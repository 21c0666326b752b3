import type { Module } from '../../deps';
import { adminPlacementRoutes } from './admin-routes';
import { brandPlacementRoutes } from './brand-routes';

/**
 * Placements: what a brand bought, from the brief through the draft's review to publication
 * (My Articles for the brand, Projects for the editorial team).
 */
export const placementsModule: Module = async (app, deps) => {
  brandPlacementRoutes(app, deps);
  adminPlacementRoutes(app, deps);
};
