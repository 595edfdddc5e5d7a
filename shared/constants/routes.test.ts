import { GRANTABLE_PATHS, MENU, ROUTES, findRoute, normalisePath } from './routes';

/** Specification §2, route table, copied literally. */
const SPEC_ROUTES = [
  '/', '/login', '/dashboard', '/dashboard/general', '/dashboard/android',
  '/agent-settings', '/agent-settings/restrictions-enrollment', '/agent-settings/restrictions-lock',
  '/agent-settings/restrictions-release', '/agent-settings/screen-design', '/agent-settings/business-app',
  '/agent-settings/app-lock', '/agent-settings-tv', '/agent-settings-tv/restrictions-enrollment-tv',
  '/agent-settings-tv/restrictions-lock-tv', '/agent-settings-tv/restrictions-release-tv',
  '/agent-settings-tv/app-lock-tv', '/inventory-management', '/inventory-management/add-device',
  '/inventory-management/devices', '/inventory-management/devices-pre-enrolled',
  '/inventory-management/devices-group', '/admin-settings', '/admin-settings/admins',
  '/admin-settings/roles', '/account', '/google',
];

describe('route table', () => {
  test('has exactly the routes of the specification', () => {
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...SPEC_ROUTES].sort());
  });

  test('menu follows the specification: modules and their entries in order', () => {
    expect(MENU.map((m) => [m.path, m.submodules.length])).toEqual([
      ['/dashboard', 2],
      ['/agent-settings', 6],
      ['/agent-settings-tv', 4],
      ['/inventory-management', 4],
      ['/admin-settings', 2],
    ]);
    for (const m of MENU) for (const s of m.submodules) expect(s.path.startsWith(`${m.path}/`)).toBe(true);
    expect(GRANTABLE_PATHS).toHaveLength(5 + 18);
  });

  test('frames: /login public, /google bare, everything else in the layout', () => {
    expect(findRoute('/login')?.frame).toBe('public');
    expect(findRoute('/google')?.frame).toBe('bare');
    expect(ROUTES.filter((r) => r.frame === 'app')).toHaveLength(SPEC_ROUTES.length - 2);
  });

  test('lookups ignore query, hash and trailing slashes', () => {
    expect(normalisePath('/login/?x=1')).toBe('/login');
    expect(normalisePath('/#a')).toBe('/');
    expect(findRoute('/admin-settings/roles//')?.title).toBe('Roles');
    expect(findRoute('/admin-settings/rolesx')).toBeUndefined();
  });
});
