/** Route metadata of docs/product.md §8: who may open a route, its layout and its title. */
import type { Action, Role, Subject } from '../../shared/abilities';

export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'unauthenticatedOnly' }
  | { kind: 'roles'; roles: readonly Role[] }
  | { kind: 'ability'; action: Action; subject: Subject };

export interface RouteMeta {
  /** i18n key of the screen title (also the document title) */
  titleKey: string;
  /**
   * i18n key of the line under a staff screen's title that says what the screen is for: its PageHeader
   * shows it, and the server draws it into the screen's frame (docs/decisions/0080-the-frame-carries-the-introduction.md)
   */
  introKey?: string;
  /** i18n key of the page's meta description, when not the staff app's (app.meta.staff) */
  descriptionKey?: string;
  access: RouteAccess;
  layout: 'blank' | 'default';
  /** the navigation item to highlight when it is not the route itself */
  navActiveLink?: string;
}

export const PUBLIC: RouteAccess = { kind: 'public' };
export const GUEST: RouteAccess = { kind: 'unauthenticatedOnly' };
export const STAFF: RouteAccess = { kind: 'roles', roles: ['admin', 'staff'] };
export const ADMIN: RouteAccess = { kind: 'roles', roles: ['admin'] };
/** Whoever the role's abilities let do `action` on `subject` (src/shared/abilities.ts). */
export const may = (action: Action, subject: Subject): RouteAccess => ({ kind: 'ability', action, subject });

export function isRouteMeta(handle: unknown): handle is RouteMeta {
  return typeof handle === 'object' && handle !== null && 'titleKey' in handle && 'access' in handle;
}
