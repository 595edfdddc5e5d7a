import { scrollAction } from './scrollAction';

const at = (pathname: string, hash = '') => ({ pathname, hash });

describe('scrollAction', () => {
  test('a link to another page opens it at the top', () => {
    expect(scrollAction(at('/dashboard/general'), at('/admin-settings/audit'), 'PUSH')).toBe('top');
  });

  test('a redirect to another page (replace) opens it at the top', () => {
    expect(scrollAction(at('/'), at('/dashboard/general'), 'REPLACE')).toBe('top');
  });

  test('Back and Forward restore the position the entry was left at', () => {
    expect(scrollAction(at('/admin-settings/audit'), at('/dashboard/general'), 'POP')).toBe('restore');
  });

  test("a change of the query string alone (a table's filters or page) keeps the position", () => {
    expect(scrollAction(at('/inventory-management/devices'), at('/inventory-management/devices'), 'REPLACE')).toBe('none');
    expect(scrollAction(at('/inventory-management/devices'), at('/inventory-management/devices'), 'PUSH')).toBe('none');
  });

  test('a link to an anchor keeps the position (the browser scrolls to the anchor)', () => {
    expect(scrollAction(at('/account'), at('/admin-settings/admins', '#roles'), 'PUSH')).toBe('none');
  });
});
