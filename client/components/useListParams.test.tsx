/** @jest-environment jsdom */
import '../testing/textEncoderPolyfill';
import { act, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { listParam, listParams, nextSort, useListParams } from './useListParams';

const schema = listParams({
  page: listParam.page(),
  perPage: listParam.perPage([25, 50, 100], 25),
  sort: listParam.oneOf(['imei', 'createdAt']),
  order: listParam.order(),
  groupId: listParam.matching(/^(none|[1-9]\d{0,9})$/),
  search: listParam.text(10),
  status: listParam.satisfying((v) => ['3', '3:PorCredito'].includes(v)),
  version: listParam.trimmed((v) => v.length <= 5),
});

let hook: ReturnType<typeof useListParams<typeof schema>>;
let search = '';
function Probe() {
  hook = useListParams(schema);
  search = useLocation().search;
  return null;
}
const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Probe />
    </MemoryRouter>,
  );

test('reads the URL through the schema: valid values as typed', () => {
  renderAt('/x?page=3&perPage=50&sort=imei&order=desc&groupId=none&search=%20abc%20&status=3%3APorCredito');
  expect(hook.params).toEqual({
    page: 3,
    perPage: 50,
    sort: 'imei',
    order: 'desc',
    groupId: 'none',
    search: 'abc',
    status: '3:PorCredito',
    version: undefined,
  });
  renderAt('/x?version=%203.4.1%20');
  expect(hook.params.version).toBe('3.4.1');
});

test('a bad or hand-edited value reads as the default, never an error', () => {
  renderAt('/x?page=abc&perPage=7&sort=password&order=up&groupId=-1&search=0123456789xyz&status=99');
  expect(hook.params).toEqual({
    page: 1,
    perPage: 25,
    sort: undefined,
    order: undefined,
    groupId: undefined,
    search: '0123456789',
    status: undefined,
    version: undefined,
  });
  renderAt('/x?version=%20%20');
  expect(hook.params.version).toBeUndefined();
  renderAt('/x?version=3.4.10');
  expect(hook.params.version).toBeUndefined();
  renderAt('/x?page=0&perPage=1000');
  expect(hook.params).toMatchObject({ page: 1, perPage: 25 });
  renderAt('/x?page=2.5&perPage=50.5');
  expect(hook.params).toMatchObject({ page: 1, perPage: 25 });
});

test('set writes the URL, removes empty values and goes back to page 1 unless the page is set or kept', () => {
  renderAt('/x?page=4&search=abc');
  act(() => hook.set({ groupId: 2, search: '' }));
  expect(new URLSearchParams(search).toString()).toBe('groupId=2');
  act(() => hook.set({ page: 3 }));
  expect(hook.params.page).toBe(3);
  act(() => hook.set({ sort: 'imei' }, { keepPage: true }));
  expect(hook.params).toMatchObject({ page: 3, sort: 'imei', groupId: '2' });
  act(() => hook.set({ order: 'asc' }));
  expect(hook.params.page).toBe(1);
});

test('nextSort: a new column starts at its first order, the same one flips, a clearable one goes back to none', () => {
  expect(nextSort({ sort: undefined, order: undefined }, 'imei')).toEqual({ sort: 'imei', order: 'asc' });
  expect(nextSort({ sort: 'imei', order: 'asc' }, 'createdAt', { firstOrder: 'desc' })).toEqual({ sort: 'createdAt', order: 'desc' });
  expect(nextSort({ sort: 'imei', order: 'asc' }, 'imei')).toEqual({ sort: 'imei', order: 'desc' });
  expect(nextSort({ sort: 'imei', order: 'desc' }, 'imei')).toEqual({ sort: 'imei', order: 'asc' });
  expect(nextSort({ sort: 'imei', order: 'desc' }, 'imei', { clearable: true })).toEqual({ sort: undefined, order: undefined });
});
