import { GRANTABLE_PATHS } from './constants/routes';
import { allowedPaths, detailsFromPaths } from './permissions';

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
});
