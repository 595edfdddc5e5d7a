import { assertKeptByOthers, beyond, canonicalGrant, describeGrant, isEmptyGrant, minus } from './grantChecks';

describe('grant computation', () => {
  const held = { paths: new Set(['/dashboard', '/dashboard/general']), actions: new Set([5, 7]) };

  test('beyond: what a wanted grant holds that the holder does not', () => {
    expect(beyond({ paths: ['/dashboard', '/admin-settings/roles'], actions: [7, 0] }, held)).toEqual({
      paths: ['/admin-settings/roles'],
      actions: [0],
    });
    expect(isEmptyGrant(beyond({ paths: ['/dashboard/general'], actions: [5] }, held))).toBe(true);
    expect(isEmptyGrant(beyond({ paths: [], actions: [1] }, held))).toBe(false);
  });

  test('canonical form: menu order, actions ascending, each once', () => {
    expect(canonicalGrant({ paths: ['/admin-settings/roles', '/dashboard', '/dashboard', '/admin-settings'], actions: [7, 0, 7] })).toEqual({
      paths: ['/dashboard', '/admin-settings', '/admin-settings/roles'],
      actions: [0, 7],
    });
  });

  test('Spanish description of a grant for messages', () => {
    expect(describeGrant({ paths: ['/admin-settings/roles'], actions: [0, 5] })).toBe(
      '/admin-settings/roles, acción Bloquear, acción Enviar notificación',
    );
  });

  test('minus: what one grant holds that another does not (what a change takes away)', () => {
    expect(minus({ paths: ['/dashboard', '/admin-settings/roles'], actions: [0, 7] }, { paths: ['/dashboard'], actions: [7] })).toEqual({
      paths: ['/admin-settings/roles'],
      actions: [0],
    });
  });

  test('the last holder keeps a grant: refused unless someone else enabled holds all of it', () => {
    const others = { paths: new Set(['/dashboard']), actions: new Set([7]) };
    expect(() => assertKeptByOthers({ paths: ['/dashboard'], actions: [7] }, others)).not.toThrow();
    expect(() => assertKeptByOthers({ paths: ['/dashboard', '/admin-settings/audit'], actions: [0] }, others)).toThrow(
      expect.objectContaining({
        status: 409,
        code: 'LAST_HOLDER',
        message: 'Ningún otro administrador habilitado conserva estos permisos, que no se pueden quitar: /admin-settings/audit, acción Bloquear',
      }),
    );
    expect(() => assertKeptByOthers({ paths: ['/admin-settings/roles'], actions: [] }, others)).toThrow(
      expect.objectContaining({ status: 409, code: 'LAST_ROLE_MANAGER' }),
    );
  });
});
