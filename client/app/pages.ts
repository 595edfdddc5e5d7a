import type { ReactNode } from 'react';
import { APP_MODAL } from '../components/AppModal';
import { PATHS, type PortalRoute, type RoutePath } from '../../shared/constants/routes';
import { DASHBOARD_CHART } from '../features/dashboard/chartChunk';
import { ADMIN_FORM, ROLE_FORM } from '../features/admin-settings/dialogChunks';
import { BUSINESS_APP_FORM, LOCK_APP_FORM, LOGO_FIELD, SCREEN_PREVIEW } from '../features/agent-settings/dialogChunks';
import { API_KEY_FORM, WEBHOOK_FORM } from '../features/integration/dialogChunks';
import { DEVICE_FORM, ENROLLMENT_QR, GROUP_FORM } from '../features/inventory/dialogChunks';
import { lazyChunk, lazyPage, type LazyChunk, type LazyPage } from './lazyPage';
import { routeChunks, type PageTable } from './pageTable';

/** Every page chunk. Each id is the page's source path: the build checks them. */
export const PAGES = {
  login: lazyPage('client/features/login/LoginPage.tsx', () => import('../features/login/LoginPage')),
  google: lazyPage('client/features/google/GooglePage.tsx', () => import('../features/google/GooglePage')),
  account: lazyPage('client/features/account/AccountPage.tsx', () => import('../features/account/AccountPage')),
  section: lazyPage('client/features/section/SectionPage.tsx', () => import('../features/section/SectionPage')),
  dashboard: lazyPage('client/features/dashboard/DashboardIndex.tsx', () => import('../features/dashboard/DashboardIndex')),
  dashboardGeneral: lazyPage('client/features/dashboard/GeneralDashboardPage.tsx', () => import('../features/dashboard/GeneralDashboardPage')),
  dashboardAndroid: lazyPage('client/features/dashboard/AndroidDashboardPage.tsx', () => import('../features/dashboard/AndroidDashboardPage')),
  adminSettings: lazyPage('client/features/admin-settings/AdminSettingsIndex.tsx', () => import('../features/admin-settings/AdminSettingsIndex')),
  admins: lazyPage('client/features/admin-settings/AdminsPage.tsx', () => import('../features/admin-settings/AdminsPage')),
  roles: lazyPage('client/features/admin-settings/RolesPage.tsx', () => import('../features/admin-settings/RolesPage')),
  audit: lazyPage('client/features/admin-settings/AuditPage.tsx', () => import('../features/admin-settings/AuditPage')),
  apiKeys: lazyPage('client/features/integration/ApiKeysPage.tsx', () => import('../features/integration/ApiKeysPage')),
  webhooks: lazyPage('client/features/integration/WebhooksPage.tsx', () => import('../features/integration/WebhooksPage')),
  apiReference: lazyPage('client/features/integration/ApiReferencePage.tsx', () => import('../features/integration/ApiReferencePage')),
  inventory: lazyPage('client/features/inventory/InventoryIndex.tsx', () => import('../features/inventory/InventoryIndex')),
  devices: lazyPage('client/features/inventory/DevicesPage.tsx', () => import('../features/inventory/DevicesPage')),
  preEnrolled: lazyPage('client/features/inventory/PreEnrolledPage.tsx', () => import('../features/inventory/PreEnrolledPage')),
  addDevice: lazyPage('client/features/inventory/AddDevicePage.tsx', () => import('../features/inventory/AddDevicePage')),
  groups: lazyPage('client/features/inventory/GroupsPage.tsx', () => import('../features/inventory/GroupsPage')),
  creditPortfolio: lazyPage('client/features/credits/CreditPortfolioPage.tsx', () => import('../features/credits/CreditPortfolioPage')),
  collectionPolicy: lazyPage('client/features/credits/CollectionPolicyPage.tsx', () => import('../features/credits/CollectionPolicyPage')),
  reconciliation: lazyPage('client/features/credits/ReconciliationPage.tsx', () => import('../features/credits/ReconciliationPage')),
  settingsOverview: lazyPage(
    'client/features/agent-settings/SettingsOverviewPage.tsx',
    () => import('../features/agent-settings/SettingsOverviewPage'),
  ),
  settingsSection: lazyPage('client/features/agent-settings/SettingsSectionPage.tsx', () => import('../features/agent-settings/SettingsSectionPage')),
  screenDesign: lazyPage('client/features/agent-settings/ScreenDesignPage.tsx', () => import('../features/agent-settings/ScreenDesignPage')),
  businessApps: lazyPage('client/features/agent-settings/BusinessAppsPage.tsx', () => import('../features/agent-settings/BusinessAppsPage')),
  lockApp: lazyPage('client/features/agent-settings/LockAppPage.tsx', () => import('../features/agent-settings/LockAppPage')),
} satisfies Record<string, LazyPage>;

/** The signed-in frame (session check, user load, header, menu) in its own chunk: /login skips it. */
export const APP_FRAME: LazyChunk<{ path: RoutePath; children: ReactNode }> = lazyChunk(
  'client/layout/AppFrame.tsx',
  () => import('../layout/AppFrame'),
);

/**
 * Dialogs, dialogs' forms and the parts of a page it can show a moment later (the screen design's logo upload and preview),
 * each in a chunk of its own, loaded once the page has shown (useIdlePrefetch). The server loads
 * them before its first render.
 */
export const DIALOGS: readonly LazyChunk<never>[] = [
  APP_MODAL,
  API_KEY_FORM,
  WEBHOOK_FORM,
  ADMIN_FORM,
  ROLE_FORM,
  GROUP_FORM,
  DEVICE_FORM,
  ENROLLMENT_QR,
  LOCK_APP_FORM,
  BUSINESS_APP_FORM,
  LOGO_FIELD,
  SCREEN_PREVIEW,
] as LazyChunk<never>[];

/** Every lazily loaded chunk (the build gives each its own file and checks the ids). */
export const CHUNKS: readonly LazyChunk<never>[] = [...Object.values(PAGES), APP_FRAME, DASHBOARD_CHART, ...DIALOGS] as LazyChunk<never>[];

/**
 * The page of every route of the table. Typed `Record<RoutePath, LazyPage>`: a route added to the
 * table without a page here fails the type check. The menu modules show the section page (the
 * module's menu, or its title).
 */
export const PAGE_BY_PATH = {
  [PATHS.home]: PAGES.section,
  [PATHS.login]: PAGES.login,
  [PATHS.account]: PAGES.account,
  [PATHS.google]: PAGES.google,
  [PATHS.dashboard]: PAGES.dashboard,
  [PATHS.dashboardGeneral]: PAGES.dashboardGeneral,
  [PATHS.dashboardAndroid]: PAGES.dashboardAndroid,
  [PATHS.agentSettings]: PAGES.settingsOverview,
  [PATHS.restrictionsEnrollment]: PAGES.settingsSection,
  [PATHS.restrictionsLock]: PAGES.settingsSection,
  [PATHS.restrictionsRelease]: PAGES.settingsSection,
  [PATHS.screenDesign]: PAGES.screenDesign,
  [PATHS.businessApp]: PAGES.businessApps,
  [PATHS.appLock]: PAGES.lockApp,
  [PATHS.agentSettingsTv]: PAGES.settingsOverview,
  [PATHS.restrictionsEnrollmentTv]: PAGES.settingsSection,
  [PATHS.restrictionsLockTv]: PAGES.settingsSection,
  [PATHS.restrictionsReleaseTv]: PAGES.settingsSection,
  [PATHS.appLockTv]: PAGES.lockApp,
  [PATHS.inventory]: PAGES.inventory,
  [PATHS.addDevice]: PAGES.addDevice,
  [PATHS.devices]: PAGES.devices,
  [PATHS.preEnrolled]: PAGES.preEnrolled,
  [PATHS.groups]: PAGES.groups,
  [PATHS.credits]: PAGES.section,
  // A credit's page is the portfolio's URL with ?credit= (as the devices list opens a device).
  [PATHS.creditPortfolio]: PAGES.creditPortfolio,
  [PATHS.collectionPolicy]: PAGES.collectionPolicy,
  [PATHS.reconciliation]: PAGES.reconciliation,
  [PATHS.adminSettings]: PAGES.adminSettings,
  [PATHS.admins]: PAGES.admins,
  [PATHS.roles]: PAGES.roles,
  [PATHS.audit]: PAGES.audit,
  [PATHS.apiKeys]: PAGES.apiKeys,
  [PATHS.webhooks]: PAGES.webhooks,
  [PATHS.apiReference]: PAGES.apiReference,
} satisfies Record<RoutePath, LazyPage>;

/** The page that renders a route of the table. */
export function pageForRoute(route: PortalRoute): LazyPage {
  return PAGE_BY_PATH[route.path];
}

/** Every page of the portal, each in its own chunk: the signed-in app's entry and the server render with it. */
export const PORTAL_PAGES: PageTable = { page: pageForRoute, frame: APP_FRAME };

/**
 * The chunks a URL path renders with (frame and page), if the path is in the route table. The
 * dashboards' chart chunk is not one of them: the charts load after the page is interactive (the
 * numbers come first, in cards and tables), so chart.js counts in no page's first load.
 */
export function chunksForPath(pathname: string): LazyChunk<never>[] {
  return routeChunks(PORTAL_PAGES, pathname);
}

export function loadAllChunks(): Promise<void[]> {
  return Promise.all(CHUNKS.map((c) => c.load()));
}
