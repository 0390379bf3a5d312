/**
 * Every route of the product (docs/product.md §8) with its access, layout and title. Pages and
 * the default layout load lazily, so the public /search and the sign-in pages never fetch staff screens.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { queryClient } from '../lib/query-client';
import { guardLoader, redirectLoader, signInPageLoader } from './guard-loader';
import { BlankLayout } from './layouts/blank-layout';
import { InitialLoading, RootShell, RouteError } from './root-shell';
import { ADMIN, GUEST, may, PUBLIC, STAFF, type RouteMeta } from '../lib/route-meta';
import { STAFF_SHELL_ID } from '../../shared/staff-shell-id';

/**
 * A page's module: its screen and, if it has one, what the screen asks the server for first (a list's
 * rows, the dashboard's figures), under the keys the screen reads.
 */
type PageModule = { default: ComponentType; prefetch?: (client: QueryClient, url: URL) => void | Promise<unknown> };

/** How the app started, which its first screen's loader follows: one per router (startRouter). */
class AppStart {
  private firstTaken = false;

  /**
   * @param withSession whether the page came with a staff screen's frame, which the server draws only for a
   *   request that carries a session (src/server/web/app-page.ts)
   */
  constructor(readonly withSession: boolean) {}

  /** True for the first loader that asks, the loader of the route the app starts on; false after. */
  takeFirstScreen(): boolean {
    const first = !this.firstTaken;
    this.firstTaken = true;
    return first;
  }
}

/**
 * How long the screen the app starts on waits for its data before it is drawn without it. Drawn with its data,
 * the screen is drawn once, inside the router's transition, which React draws in slices that leave the browser
 * free between them. Drawn without, the data's arrival draws the screen again in one synchronous task (a
 * query's answer reaches React through useSyncExternalStore, which cannot be sliced): on a phone at 4x slowdown
 * the products list's was 120-270 ms. Meanwhile the server's frame shows the screen's title.
 */
const FIRST_DATA_WAIT_MS = 1500;
/** Settles when `promise` does or after `ms`, whichever comes first, leaving no timer behind. */
const within = (promise: Promise<unknown>, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    void promise.then(done, done);
  });

function pageRoute(start: AppStart, meta: RouteMeta, path: string, load: () => Promise<PageModule>): RouteObject {
  const guard = guardLoader(meta.access);
  return {
    path,
    handle: meta,
    loader: async (args) => {
      // The screen's data is asked for as its code arrives, not after the screen has been drawn (a failed load
      // is the lazy route's to report): once the guard lets the visitor in, or beside the guard's question to
      // the server when the app started with a session on a screen every signed-in user may open. That saves
      // the session's round trip before the data's on the first screen; a session that has ended meanwhile
      // makes the early request a 401 the query keeps to itself, and the guard sends the visitor to sign in.
      const first = start.takeFirstScreen();
      const prefetch = () =>
        load().then(
          (module) => module.prefetch?.(queryClient, new URL(args.request.url)),
          () => undefined,
        );
      const early = start.withSession && meta.access === STAFF ? prefetch() : undefined;
      const result = await guard(args);
      const asked = early ?? prefetch();
      if (first) await within(asked, FIRST_DATA_WAIT_MS);
      return result;
    },
    lazy: async () => ({ Component: (await load()).default }),
  };
}

const blank = (titleKey: string, access = PUBLIC): RouteMeta => ({ titleKey, access, layout: 'blank' });
/** A staff screen's meta: who may open it, the navigation link it lights up, the line under its title. */
interface StaffPageOptions {
  access?: RouteMeta['access'];
  nav?: string;
  intro?: string;
}
const staffPage = (titleKey: string, { access = STAFF, nav, intro }: StaffPageOptions = {}): RouteMeta => ({
  titleKey,
  access,
  layout: 'default',
  navActiveLink: nav,
  ...(intro ? { introKey: intro } : {}),
});

const notFound = () => import('../features/misc/pages/not-found-page');
const notAuthorized = () => import('../features/misc/pages/not-authorized-page');

/** Every route; `page(meta, 'path', load)` is a screen's (the build reads them: scripts/vite-route-preloads.ts). */
function appRoutes(start: AppStart): RouteObject[] {
  const page = (meta: RouteMeta, path: string, load: () => Promise<PageModule>) => pageRoute(start, meta, path, load);
  return [
    {
      path: '/',
      element: <RootShell />,
      errorElement: <RouteError />,
      HydrateFallback: InitialLoading,
      children: [
        // Redirects only: their loader always throws a redirect. `element: null` says so to React Router,
        // which otherwise warns on `/` that a leaf route has no element.
        { index: true, loader: redirectLoader('/dashboard'), element: null },
        { path: 'pages/user-profile', loader: redirectLoader('/account-settings/profile'), element: null },
        { path: 'pages/account-settings', loader: redirectLoader('/account-settings/account'), element: null },
        { path: 'account-settings', loader: redirectLoader('/account-settings/profile'), element: null },
        {
          element: <BlankLayout />,
          children: [
            page({ ...blank('pages.search'), descriptionKey: 'app.meta.search' }, 'search', () => import('../public-app/search-route')),
            // A page of its own (src/web/login-app, decision 0074): the app leaves for it with a page load.
            { path: 'login', handle: blank('pages.login', GUEST), loader: signInPageLoader(), element: null },
            page(blank('pages.register', GUEST), 'register', () => import('../features/auth/pages/register-page')),
            page(blank('pages.forgotPassword', GUEST), 'forgot-password', () => import('../features/auth/pages/forgot-password-page')),
            page(blank('pages.resetPassword'), 'reset-password', () => import('../features/auth/pages/reset-password-page')),
            page(blank('pages.notAuthorized'), 'not-authorized', notAuthorized),
            page(blank('pages.notAuthorized'), 'pages/misc/not-authorized', notAuthorized),
            page(blank('pages.notFound'), 'pages/misc/not-found/*', notFound),
            page(blank('pages.notFound'), '*', notFound),
          ],
        },
        {
          lazy: async () => ({ Component: (await import('./layouts/default-layout')).default }),
          children: [
            page(
              staffPage('pages.dashboard', { intro: 'dashboard.intro' }),
              'dashboard',
              () => import('../features/dashboard/pages/dashboard-page'),
            ),
            page(staffPage('pages.products'), 'products', () => import('../features/products/pages/products-page')),
            page(
              staffPage('pages.addProduct', { nav: '/products' }),
              'add-product',
              () => import('../features/products/pages/add-product-page'),
            ),
            page(
              staffPage('pages.editProduct', { nav: '/products' }),
              'edit-product/:id',
              () => import('../features/products/pages/edit-product-page'),
            ),
            page(staffPage('pages.serialNumbers'), 'serial-numbers', () => import('../features/serials/pages/serial-numbers-page')),
            page(
              staffPage('pages.addSerialNumber', { nav: '/serial-numbers' }),
              'add-serial-number',
              () => import('../features/serials/pages/add-serial-number-page'),
            ),
            page(
              staffPage('pages.editSerialNumber', { nav: '/serial-numbers' }),
              'edit-serial-number/:id',
              () => import('../features/serials/pages/edit-serial-number-page'),
            ),
            page(
              staffPage('orderScreens.customers.title', { access: may('read', 'Customer') }),
              'customers',
              () => import('../features/orders/pages/customers-page'),
            ),
            page(
              staffPage('orderScreens.customers.add', {
                access: may('create', 'Customer'),
                nav: '/customers',
              }),
              'add-customer',
              () => import('../features/orders/pages/add-customer-page'),
            ),
            page(
              staffPage('orderScreens.customers.edit', {
                access: may('update', 'Customer'),
                nav: '/customers',
              }),
              'edit-customer/:id',
              () => import('../features/orders/pages/edit-customer-page'),
            ),
            page(
              staffPage('orderScreens.purchaseOrders.title', { access: may('read', 'PurchaseOrder') }),
              'purchase-orders',
              () => import('../features/orders/pages/purchase-orders-page'),
            ),
            page(
              staffPage('orderScreens.purchaseOrders.add', {
                access: may('create', 'PurchaseOrder'),
                nav: '/purchase-orders',
              }),
              'add-purchase-order',
              () => import('../features/orders/pages/add-purchase-order-page'),
            ),
            page(
              staffPage('orderScreens.purchaseOrders.edit', {
                access: may('update', 'PurchaseOrder'),
                nav: '/purchase-orders',
              }),
              'edit-purchase-order/:id',
              () => import('../features/orders/pages/edit-purchase-order-page'),
            ),
            page(
              staffPage('orderScreens.deliveries.title', { access: may('read', 'Delivery') }),
              'deliveries',
              () => import('../features/orders/pages/deliveries-page'),
            ),
            page(
              staffPage('orderScreens.deliveries.page', {
                access: may('read', 'Delivery'),
                nav: '/deliveries',
              }),
              'deliveries/:id',
              () => import('../features/orders/pages/delivery-page'),
            ),
            page(
              staffPage('materials.catalogue.title', {
                access: may('read', 'Material'),
                intro: 'materials.catalogue.subtitle',
              }),
              'materials',
              () => import('../features/materials/pages/materials-page'),
            ),
            page(
              staffPage('materials.heats.title', { access: may('read', 'Material') }),
              'heats',
              () => import('../features/materials/pages/heats-page'),
            ),
            page(staffPage('pages.machineData'), 'machine-data', () => import('../features/machine-data/pages/machine-data-page')),
            page(
              staffPage('quality.title', { nav: '/machine-data', intro: 'quality.intro' }),
              'machine-data/quality',
              () => import('../features/quality/pages/quality-page'),
            ),
            page(
              staffPage('quality.heldUnits.title', { nav: '/machine-data', intro: 'quality.heldUnits.intro' }),
              'machine-data/held-units',
              () => import('../features/quality/pages/held-units-page'),
            ),
            page(
              staffPage('machineScreens.record.title', { nav: '/machine-data' }),
              'machine-data/:id',
              () => import('../features/machine-data/pages/record-page'),
            ),
            page(
              staffPage('machineScreens.units.title', { nav: '/machine-data' }),
              'units/:serial',
              () => import('../features/machine-data/pages/unit-history-page'),
            ),
            page(
              staffPage('alerts.title', { access: may('read', 'Alert'), intro: 'alerts.inbox.describe' }),
              'alerts',
              () => import('../features/alerts/pages/alerts-page'),
            ),
            page(
              staffPage('machineScreens.benches.title', { access: ADMIN, intro: 'machineScreens.benches.subtitle' }),
              'machines',
              () => import('../features/machines/pages/machines-page'),
            ),
            page(staffPage('pages.searches'), 'searches', () => import('../features/searches/pages/searches-page')),
            page(
              staffPage('audit.title', { access: ADMIN, intro: 'audit.intro' }),
              'audit-log',
              () => import('../features/audit/pages/audit-page'),
            ),
            page(staffPage('pages.staffs', { access: ADMIN }), 'staffs', () => import('../features/staff/pages/staffs-page')),
            page(
              staffPage('pages.addStaff', { access: ADMIN, nav: '/staffs', intro: 'staffScreens.addSubtitle' }),
              'add-staff',
              () => import('../features/staff/pages/add-staff-page'),
            ),
            page(
              staffPage('pages.accessControl', { access: may('read', 'AclDemo') }),
              'access-control',
              () => import('../features/misc/pages/access-control-page'),
            ),
            page(
              staffPage('settingsScreen.title', { access: may('read', 'Settings') }),
              'settings',
              () => import('../features/settings/pages/settings-page'),
            ),
            page(
              staffPage('webhooks.screen.title', {
                access: may('read', 'Webhook'),
                nav: '/settings',
                intro: 'webhooks.screen.subtitle',
              }),
              'settings/webhooks',
              () => import('../features/settings/pages/webhooks-page'),
            ),
            page(
              staffPage('pages.accountSettings'),
              'account-settings/:tab',
              () => import('../features/account/pages/account-settings-page'),
            ),
          ],
        },
      ],
    },
  ];
}

type AppRouter = ReturnType<typeof createBrowserRouter>;

let current: AppRouter | undefined;

/** The staff app's router, once startRouter has made it. */
export function appRouter(): AppRouter {
  if (!current) throw new Error('the router has not started');
  return current;
}

/** Makes the staff app's router. */
export function startRouter(): AppRouter {
  // Read before the app's first drawing removes the frame.
  current = createBrowserRouter(appRoutes(new AppStart(document.getElementById(STAFF_SHELL_ID) !== null)));
  return current;
}
