import { GRANTABLE_PATHS, MENU, PATHS, ROUTES, findRoute, normalisePath, type RoutePath } from './routes';

/** The route table of reference §2, spelled out. */
const SPEC_ROUTES = [
  '/',
  '/login',
  '/dashboard',
  '/dashboard/general',
  '/dashboard/android',
  '/agent-settings',
  '/agent-settings/restrictions-enrollment',
  '/agent-settings/restrictions-lock',
  '/agent-settings/restrictions-release',
  '/agent-settings/screen-design',
  '/agent-settings/business-app',
  '/agent-settings/app-lock',
  '/agent-settings-tv',
  '/agent-settings-tv/restrictions-enrollment-tv',
  '/agent-settings-tv/restrictions-lock-tv',
  '/agent-settings-tv/restrictions-release-tv',
  '/agent-settings-tv/app-lock-tv',
  '/inventory-management',
  '/inventory-management/add-device',
  '/inventory-management/devices',
  '/inventory-management/devices-pre-enrolled',
  '/inventory-management/devices-group',
  '/admin-settings',
  '/admin-settings/admins',
  '/admin-settings/roles',
  '/account',
  '/google',
];

/** Pages beyond the reference §2 table, which it names: credits (portfolio, collection policy, reconciliation), audit, API keys, webhooks and the API reference. */
const DOCUMENTED_ADDITIONS = [
  '/credits',
  '/credits/portfolio',
  '/credits/collection-policy',
  '/credits/reconciliation',
  '/admin-settings/audit',
  '/admin-settings/api-keys',
  '/admin-settings/webhooks',
  '/admin-settings/api-reference',
];

describe('route table', () => {
  test('has exactly the routes of reference §2 plus the documented additions', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(paths.filter((p) => !DOCUMENTED_ADDITIONS.includes(p)).sort()).toEqual([...SPEC_ROUTES].sort());
    expect(paths.filter((p) => DOCUMENTED_ADDITIONS.includes(p))).toEqual(DOCUMENTED_ADDITIONS);
  });

  test('the audit and integration pages: under /admin-settings, after the reference §2 entries', () => {
    const admin = MENU.find((m) => m.path === '/admin-settings')!;
    expect(admin.submodules.slice(2).map((s) => [s.path, s.title])).toEqual([
      ['/admin-settings/audit', 'Auditoría'],
      ['/admin-settings/api-keys', 'Claves de API'],
      ['/admin-settings/webhooks', 'Webhooks'],
      ['/admin-settings/api-reference', 'Referencia de la API'],
    ]);
    expect(findRoute('/admin-settings/audit')).toEqual({ path: '/admin-settings/audit', title: 'Auditoría', frame: 'app', icon: 'journal-text' });
    expect(GRANTABLE_PATHS).toContain('/admin-settings/audit');
  });

  test('menu follows reference §2: modules and their entries in order', () => {
    expect(MENU.map((m) => [m.path, m.submodules.length])).toEqual([
      ['/dashboard', 2],
      ['/agent-settings', 6],
      ['/agent-settings-tv', 4],
      ['/inventory-management', 4],
      ['/credits', 3],
      ['/admin-settings', 6],
    ]);
    for (const m of MENU) for (const s of m.submodules) expect(s.path.startsWith(`${m.path}/`)).toBe(true);
    expect(GRANTABLE_PATHS).toHaveLength(5 + 18 + DOCUMENTED_ADDITIONS.length);
  });

  test('frames: /login public, /google bare, everything else in the layout', () => {
    expect(findRoute('/login')?.frame).toBe('public');
    expect(findRoute('/google')?.frame).toBe('bare');
    expect(ROUTES.filter((r) => r.frame === 'app')).toHaveLength(SPEC_ROUTES.length - 2 + DOCUMENTED_ADDITIONS.length);
  });

  test('lookups ignore query, hash and trailing slashes', () => {
    expect(normalisePath('/login/?x=1')).toBe('/login');
    expect(normalisePath('/#a')).toBe('/');
    expect(findRoute('/admin-settings/roles//')?.title).toBe('Roles');
    expect(findRoute('/admin-settings/rolesx')).toBeUndefined();
  });
});

describe('PATHS', () => {
  test('names every route of the table once, and the table uses each of them', () => {
    const named = Object.values(PATHS);
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual(ROUTES.map((r) => r.path).sort());
  });

  test('a path outside the table is not a RoutePath (type check)', () => {
    // @ts-expect-error not a route of the table
    const wrong: RoutePath = '/inventory-management/device';
    const right: RoutePath = PATHS.devices;
    expect([wrong, right]).toEqual(['/inventory-management/device', '/inventory-management/devices']);
  });
});
