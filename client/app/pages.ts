import type { ReactNode } from 'react';
import { findRoute, type PortalRoute } from '../../shared/constants/routes';
import { lazyChunk, lazyPage, type LazyChunk, type LazyPage } from './lazyPage';

/** Every page chunk. Each id is the page's source path: the build checks them. */
export const PAGES = {
  login: lazyPage('client/features/login/LoginPage.tsx', () => import('../features/login/LoginPage')),
  google: lazyPage('client/features/google/GooglePage.tsx', () => import('../features/google/GooglePage')),
  account: lazyPage('client/features/account/AccountPage.tsx', () => import('../features/account/AccountPage')),
  section: lazyPage('client/features/section/SectionPage.tsx', () => import('../features/section/SectionPage')),
  adminSettings: lazyPage('client/features/admin-settings/AdminSettingsIndex.tsx', () => import('../features/admin-settings/AdminSettingsIndex')),
  admins: lazyPage('client/features/admin-settings/AdminsPage.tsx', () => import('../features/admin-settings/AdminsPage')),
  roles: lazyPage('client/features/admin-settings/RolesPage.tsx', () => import('../features/admin-settings/RolesPage')),
  audit: lazyPage('client/features/admin-settings/AuditPage.tsx', () => import('../features/admin-settings/AuditPage')),
  inventory: lazyPage('client/features/inventory/InventoryIndex.tsx', () => import('../features/inventory/InventoryIndex')),
  devices: lazyPage('client/features/inventory/DevicesPage.tsx', () => import('../features/inventory/DevicesPage')),
  preEnrolled: lazyPage('client/features/inventory/PreEnrolledPage.tsx', () => import('../features/inventory/PreEnrolledPage')),
  addDevice: lazyPage('client/features/inventory/AddDevicePage.tsx', () => import('../features/inventory/AddDevicePage')),
  groups: lazyPage('client/features/inventory/GroupsPage.tsx', () => import('../features/inventory/GroupsPage')),
} satisfies Record<string, LazyPage>;

/** The signed-in frame (session check, user load, header, menu) in its own chunk: /login skips it. */
export const APP_FRAME: LazyChunk<{ path: string; children: ReactNode }> = lazyChunk(
  'client/layout/AppFrame.tsx',
  () => import('../layout/AppFrame'),
);

/** Every lazily loaded chunk (the build gives each its own file and checks the ids). */
export const CHUNKS: readonly LazyChunk<never>[] = [...Object.values(PAGES), APP_FRAME] as LazyChunk<never>[];

/** The page that renders a route of the table. */
export function pageForRoute(route: PortalRoute): LazyPage {
  if (route.path === '/login') return PAGES.login;
  if (route.path === '/google') return PAGES.google;
  if (route.path === '/account') return PAGES.account;
  if (route.path === '/admin-settings') return PAGES.adminSettings;
  if (route.path === '/admin-settings/admins') return PAGES.admins;
  if (route.path === '/admin-settings/roles') return PAGES.roles;
  if (route.path === '/admin-settings/audit') return PAGES.audit;
  if (route.path === '/inventory-management') return PAGES.inventory;
  if (route.path === '/inventory-management/devices') return PAGES.devices;
  if (route.path === '/inventory-management/devices-pre-enrolled') return PAGES.preEnrolled;
  if (route.path === '/inventory-management/add-device') return PAGES.addDevice;
  if (route.path === '/inventory-management/devices-group') return PAGES.groups;
  return PAGES.section;
}

/** The chunks a URL path renders with (frame and page), if the path is in the route table. */
export function chunksForPath(pathname: string): LazyChunk<never>[] {
  const route = findRoute(pathname);
  if (!route) return [];
  const page = pageForRoute(route) as LazyChunk<never>;
  return route.frame === 'app' ? [APP_FRAME as LazyChunk<never>, page] : [page];
}

export function loadAllChunks(): Promise<void[]> {
  return Promise.all(CHUNKS.map((c) => c.load()));
}
