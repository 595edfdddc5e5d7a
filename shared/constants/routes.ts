/**
 * The one route and menu table (specification §2). SSR, the client router, the sidebar,
 * the role editor and the API's authorization all derive from it.
 */

/** How a route is framed: the signed-in layout, the bare sign-in page, or nothing at all. */
export type RouteFrame = 'app' | 'public' | 'bare';

export interface PortalRoute {
  path: string;
  /** Spanish title shown on the page and in the menu. */
  title: string;
  frame: RouteFrame;
  /** bootstrap-icons name (without the `bi-` prefix) for menu modules and entries. */
  icon?: string;
}

export interface MenuModule {
  path: string;
  title: string;
  icon: string;
  submodules: readonly { path: string; title: string; icon: string }[];
}

/** Sidebar menu, in the specification's order. Module paths are grantable too. */
export const MENU: readonly MenuModule[] = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    icon: 'speedometer2',
    submodules: [
      { path: '/dashboard/general', title: 'General', icon: 'bar-chart-line' },
      { path: '/dashboard/android', title: 'Android', icon: 'android2' },
    ],
  },
  {
    path: '/agent-settings',
    title: 'Configuración de agente Smartphone',
    icon: 'phone',
    submodules: [
      { path: '/agent-settings/restrictions-enrollment', title: 'Restricciones de enrolamiento', icon: 'person-plus' },
      { path: '/agent-settings/restrictions-lock', title: 'Restricciones de bloqueo', icon: 'lock' },
      { path: '/agent-settings/restrictions-release', title: 'Liberación', icon: 'unlock' },
      { path: '/agent-settings/screen-design', title: 'Diseño de pantalla', icon: 'palette' },
      { path: '/agent-settings/business-app', title: 'Apps de negocio', icon: 'grid-3x3-gap' },
      { path: '/agent-settings/app-lock', title: 'App de bloqueo', icon: 'shield-lock' },
    ],
  },
  {
    path: '/agent-settings-tv',
    title: 'Configuración de agente TV',
    icon: 'tv',
    submodules: [
      { path: '/agent-settings-tv/restrictions-enrollment-tv', title: 'Restricciones de enrolamiento', icon: 'person-plus' },
      { path: '/agent-settings-tv/restrictions-lock-tv', title: 'Restricciones de bloqueo', icon: 'lock' },
      { path: '/agent-settings-tv/restrictions-release-tv', title: 'Liberación', icon: 'unlock' },
      { path: '/agent-settings-tv/app-lock-tv', title: 'App de bloqueo', icon: 'shield-lock' },
    ],
  },
  {
    path: '/inventory-management',
    title: 'Gestión de inventario',
    icon: 'box-seam',
    submodules: [
      { path: '/inventory-management/add-device', title: 'Registro de dispositivos', icon: 'plus-square' },
      { path: '/inventory-management/devices', title: 'Dispositivos enrolados', icon: 'phone-vibrate' },
      { path: '/inventory-management/devices-pre-enrolled', title: 'Dispositivos pre-enrolados', icon: 'hourglass-split' },
      { path: '/inventory-management/devices-group', title: 'Grupos de dispositivos', icon: 'collection' },
    ],
  },
  {
    path: '/admin-settings',
    title: 'Configuración de administradores',
    icon: 'people',
    submodules: [
      { path: '/admin-settings/admins', title: 'Administradores', icon: 'person-badge' },
      { path: '/admin-settings/roles', title: 'Roles', icon: 'person-lock' },
      // Beyond the specification's route table (product design: the audit log).
      { path: '/admin-settings/audit', title: 'Auditoría', icon: 'journal-text' },
    ],
  },
];

/** Every route of the specification §2 (plus the documented additions), in one flat list. */
export const ROUTES: readonly PortalRoute[] = [
  { path: '/', title: 'Inicio', frame: 'app', icon: 'house' },
  { path: '/login', title: 'Iniciar sesión', frame: 'public' },
  ...MENU.flatMap((m): PortalRoute[] => [
    { path: m.path, title: m.title, frame: 'app', icon: m.icon },
    ...m.submodules.map((s): PortalRoute => ({ path: s.path, title: s.title, frame: 'app', icon: s.icon })),
  ]),
  { path: '/account', title: 'Mi Perfil', frame: 'app', icon: 'person-circle' },
  { path: '/google', title: 'Google', frame: 'bare' },
];

/** Paths a profile can be granted: every module and submodule of the menu. */
export const GRANTABLE_PATHS: readonly string[] = MENU.flatMap((m) => [m.path, ...m.submodules.map((s) => s.path)]);

/** Normalises a URL path for lookups: no query, no trailing slash (but `/` itself). */
export function normalisePath(pathname: string): string {
  const path = pathname.split(/[?#]/, 1)[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/';
}

const byPath = new Map(ROUTES.map((r) => [r.path, r]));

/** The route of a URL path, or undefined when the path is outside the route table. */
export function findRoute(pathname: string): PortalRoute | undefined {
  return byPath.get(normalisePath(pathname));
}
