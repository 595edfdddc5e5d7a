import { PATHS } from '../../shared/constants/routes';
import { requireAction, requireBodyAction, requirePath } from './authorize';

describe('permissions name paths of the route table', () => {
  test('requirePath, requireAction and requireBodyAction take RoutePath values', () => {
    expect(requirePath(PATHS.devices, PATHS.preEnrolled)).toEqual({
      kind: 'path',
      paths: ['/inventory-management/devices', '/inventory-management/devices-pre-enrolled'],
    });
    expect(requireAction(PATHS.devices, 3)).toEqual({ kind: 'action', paths: ['/inventory-management/devices'], action: 3 });
    expect(requireAction([PATHS.devices, PATHS.preEnrolled], 3)).toEqual({ kind: 'action', paths: [PATHS.devices, PATHS.preEnrolled], action: 3 });
    expect(requireBodyAction(PATHS.devices)).toEqual({ kind: 'bodyAction', paths: ['/inventory-management/devices'] });
  });

  test('a path outside the table fails the type check', () => {
    // @ts-expect-error a typo is not a route of the table
    const typo = requirePath('/inventory-management/device');
    // @ts-expect-error nor is an API path
    const api = requireAction('/v5/devices', 3);
    expect([typo.kind, api.kind]).toEqual(['path', 'action']);
  });
});
