/**
 * The one route and menu table (reference §2). SSR, the client router, the sidebar,
 * the role editor and the API's authorization all derive from it.
 */

/**
 * Every portal path, written once (reference §2 plus the documented additions). Code names a
 * path by its key (`PATHS.devices`); `RoutePath` is the union of them all.
 */
export const PATHS = {
  home: '/',
  login: '/login',
  account: '/account',
  google: '/google',
  dashboard: '/dashboard',
  dashboardGeneral: '/dashboard/general',
  dashboardAndroid: '/dashboard/android',
  agentSettings: '/agent-settings',
  restrictionsEnrollment: '/agent-settings/restrictions-enrollment',
  restrictionsLock: '/agent-settings/restrictions-lock',
  restrictionsRelease: '/agent-settings/restrictions-release',
  screenDesign: '/agent-settings/screen-design',
  businessApp: '/agent-settings/business-app',
  appLock: '/agent-settings/app-lock',
  agentSettingsTv: '/agent-settings-tv',
  restrictionsEnrollmentTv: '/agent-settings-tv/restrictions-enrollment-tv',
  restrictionsLockTv: '/agent-settings-tv/restrictions-lock-tv',
  restrictionsReleaseTv: '/agent-settings-tv/restrictions-release-tv',
  appLockTv: '/agent-settings-tv/app-lock-tv',
  inventory: '/inventory-management',
  addDevice: '/inventory-management/add-device',
  devices: '/inventory-management/devices',
  preEnrolled: '/inventory-management/devices-pre-enrolled',
  groups: '/inventory-management/devices-group',
  credits: '/credits',
  creditPortfolio: '/credits/portfolio',
  collectionPolicy: '/credits/collection-policy',
  reconciliation: '/credits/reconciliation',
  adminSettings: '/admin-settings',
  admins: '/admin-settings/admins',
  roles: '/admin-settings/roles',
  audit: '/admin-settings/audit',
  apiKeys: '/admin-settings/api-keys',
  webhooks: '/admin-settings/webhooks',
  apiReference: '/admin-settings/api-reference',
} as const;

/** A path of the route table: guards, links and the page map take this, never a bare string. */
export type RoutePath = (typeof PATHS)[keyof typeof PATHS];

/** How a route is framed: the signed-in layout, the bare sign-in page, or nothing at all. */
export type RouteFrame = 'app' | 'public' | 'bare';

export interface PortalRoute {
  path: RoutePath;
  /** Spanish title shown on the page and in the menu. */
  title: string;
  frame: RouteFrame;
  /** bootstrap-icons name (without the `bi-` prefix) for menu modules and entries. */
  icon?: string;
}

export interface MenuModule {
  path: RoutePath;
  title: string;
  icon: string;
  submodules: readonly { path: RoutePath; title: string; icon: string }[];
}

/** Sidebar menu, in the order of reference §2. Module paths are grantable too. */
export const MENU: readonly MenuModule[] = [
  {
    path: PATHS.dashboard,
    title: 'Dashboard',
    icon: 'speedometer2',
    submodules: [
      { path: PATHS.dashboardGeneral, title: 'General', icon: 'bar-chart-line' },
      { path: PATHS.dashboardAndroid, title: 'Android', icon: 'android2' },
    ],
  },
  {
    path: PATHS.agentSettings,
    title: 'Configuración de agente Smartphone',
    icon: 'phone',
    submodules: [
      { path: PATHS.restrictionsEnrollment, title: 'Restricciones de enrolamiento', icon: 'person-plus' },
      { path: PATHS.restrictionsLock, title: 'Restricciones de bloqueo', icon: 'lock' },
      { path: PATHS.restrictionsRelease, title: 'Liberación', icon: 'unlock' },
      { path: PATHS.screenDesign, title: 'Diseño de pantalla', icon: 'palette' },
      { path: PATHS.businessApp, title: 'Apps de negocio', icon: 'grid-3x3-gap' },
      { path: PATHS.appLock, title: 'App de bloqueo', icon: 'shield-lock' },
    ],
  },
  {
    path: PATHS.agentSettingsTv,
    title: 'Configuración de agente TV',
    icon: 'tv',
    submodules: [
      { path: PATHS.restrictionsEnrollmentTv, title: 'Restricciones de enrolamiento', icon: 'person-plus' },
      { path: PATHS.restrictionsLockTv, title: 'Restricciones de bloqueo', icon: 'lock' },
      { path: PATHS.restrictionsReleaseTv, title: 'Liberación', icon: 'unlock' },
      { path: PATHS.appLockTv, title: 'App de bloqueo', icon: 'shield-lock' },
    ],
  },
  {
    path: PATHS.inventory,
    title: 'Gestión de inventario',
    icon: 'box-seam',
    submodules: [
      { path: PATHS.addDevice, title: 'Registro de dispositivos', icon: 'plus-square' },
      { path: PATHS.devices, title: 'Dispositivos enrolados', icon: 'phone-vibrate' },
      { path: PATHS.preEnrolled, title: 'Dispositivos pre-enrolados', icon: 'hourglass-split' },
      { path: PATHS.groups, title: 'Grupos de dispositivos', icon: 'collection' },
    ],
  },
  {
    // The lender's loans (product design): the credits that finance the devices and their payments.
    path: PATHS.credits,
    title: 'Créditos',
    icon: 'cash-coin',
    submodules: [
      { path: PATHS.creditPortfolio, title: 'Cartera de créditos', icon: 'wallet2' },
      { path: PATHS.collectionPolicy, title: 'Política de cobranza', icon: 'calendar-check' },
      { path: PATHS.reconciliation, title: 'Conciliación', icon: 'clipboard-check' },
    ],
  },
  {
    path: PATHS.adminSettings,
    title: 'Configuración de administradores',
    icon: 'people',
    submodules: [
      { path: PATHS.admins, title: 'Administradores', icon: 'person-badge' },
      { path: PATHS.roles, title: 'Roles', icon: 'person-lock' },
      // Beyond the route table of reference §2 (the additions it names): the audit log.
      { path: PATHS.audit, title: 'Auditoría', icon: 'journal-text' },
      // The lender's integration (docs/integration.md): keys, webhooks and the API's reference.
      { path: PATHS.apiKeys, title: 'Claves de API', icon: 'key' },
      { path: PATHS.webhooks, title: 'Webhooks', icon: 'broadcast' },
      { path: PATHS.apiReference, title: 'Referencia de la API', icon: 'book' },
    ],
  },
];

/** Every route of reference §2 (plus the documented additions), in one flat list. */
export const ROUTES: readonly PortalRoute[] = [
  { path: PATHS.home, title: 'Inicio', frame: 'app', icon: 'house' },
  { path: PATHS.login, title: 'Iniciar sesión', frame: 'public' },
  ...MENU.flatMap((m): PortalRoute[] => [
    { path: m.path, title: m.title, frame: 'app', icon: m.icon },
    ...m.submodules.map((s): PortalRoute => ({ path: s.path, title: s.title, frame: 'app', icon: s.icon })),
  ]),
  { path: PATHS.account, title: 'Mi Perfil', frame: 'app', icon: 'person-circle' },
  { path: PATHS.google, title: 'Google', frame: 'bare' },
];

/** Paths a profile can be granted: every module and submodule of the menu. */
export const GRANTABLE_PATHS: readonly RoutePath[] = MENU.flatMap((m) => [m.path, ...m.submodules.map((s) => s.path)]);

/** Normalises a URL path for lookups: no query, no trailing slash (but `/` itself). */
export function normalisePath(pathname: string): string {
  const path = pathname.split(/[?#]/, 1)[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/';
}

const byPath = new Map<string, PortalRoute>(ROUTES.map((r) => [r.path, r]));

/** The route of a URL path, or undefined when the path is outside the route table. */
export function findRoute(pathname: string): PortalRoute | undefined {
  return byPath.get(normalisePath(pathname));
}

/**
 * True for a path outside the signed-in frame: the sign-in page, the bare pages and unknown paths
 * (the not-found page). Their documents load the public pages' entry, not the signed-in app.
 */
export function isPublicPath(pathname: string): boolean {
  return findRoute(pathname)?.frame !== 'app';
}
