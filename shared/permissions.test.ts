import { GRANTABLE_PATHS } from './constants/routes';
import { allowedPaths, canAccess, detailsFromPaths, filterMenu, firstAllowedPath } from './permissions';

describe('permissions', () => {
  test('allowed paths are every module path plus every submodule path', () => {
    const paths = allowedPaths({
      details: [
        { modulo: [{ path: '/dashboard', submodules: [{ path: '/dashboard/general' }] }] },
        { modulo: [{ path: '/admin-settings', submodules: [] }] },
      ],
    });
    expect([...paths].sort()).toEqual(['/admin-settings', '/dashboard', '/dashboard/general']);
    expect(allowedPaths(null).size).toBe(0);
  });

  test('detailsFromPaths round-trips through allowedPaths, in menu order', () => {
    const granted = ['/inventory-management/devices', '/dashboard', '/dashboard/android', '/inventory-management'];
    const details = detailsFromPaths(granted);
    expect(details).toEqual([
      {
        modulo: [
          { path: '/dashboard', submodules: [{ path: '/dashboard/android' }] },
          { path: '/inventory-management', submodules: [{ path: '/inventory-management/devices' }] },
        ],
      },
    ]);
    expect([...allowedPaths({ details })].sort()).toEqual([...granted].sort());
    expect([...allowedPaths({ details: detailsFromPaths(GRANTABLE_PATHS) })].sort()).toEqual([...GRANTABLE_PATHS].sort());
    expect(detailsFromPaths([])).toEqual([]);
  });

  test('filterMenu: a module shows only when its path is allowed; its children are filtered the same way', () => {
    const allowed = new Set(['/dashboard', '/dashboard/android', '/inventory-management/devices', '/admin-settings']);
    expect(filterMenu(allowed).map((m) => [m.path, m.submodules.map((s) => s.path)])).toEqual([
      ['/dashboard', ['/dashboard/android']],
      ['/admin-settings', []],
    ]);
  });

  test('firstAllowedPath: the general dashboard when allowed, else the first allowed page', () => {
    expect(firstAllowedPath(new Set(GRANTABLE_PATHS))).toBe('/dashboard/general');
    expect(firstAllowedPath(new Set(['/inventory-management', '/inventory-management/devices']))).toBe('/inventory-management/devices');
    expect(firstAllowedPath(new Set(['/admin-settings']))).toBe('/admin-settings');
    expect(firstAllowedPath(new Set())).toBe('/account');
  });

  test('canAccess: / and /account for everyone signed in, the rest by grant', () => {
    const allowed = new Set(['/dashboard']);
    expect(canAccess(allowed, '/account')).toBe(true);
    expect(canAccess(allowed, '/')).toBe(true);
    expect(canAccess(allowed, '/dashboard')).toBe(true);
    expect(canAccess(allowed, '/dashboard/general')).toBe(false);
  });
});
