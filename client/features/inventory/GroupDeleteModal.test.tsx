/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GROUP_LABELS } from '../../../shared/constants/groupLabels';
import type { Group } from '../../../shared/contracts/groups';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { renderPortal, seriousViolations, stubApi, type ApiCall, loadDialogs } from '../../testing/renderPortal';
import { GroupDeleteModal } from './GroupDeleteModal';
import GroupsPage from './GroupsPage';

beforeAll(loadDialogs);

const L = GROUP_LABELS;
const at = '2025-03-01T12:00:00.000Z';
const group = (id: number, name: string, deviceCount: number, preEnrolledCount = 0): Group => ({
  id,
  name,
  description: null,
  deviceCount: deviceCount + preEnrolledCount,
  enrolledCount: deviceCount,
  preEnrolledCount,
  createdAt: at,
  updatedAt: at,
});
const NORTE = group(1, 'Norte', 3);
const SUR = group(2, 'Sur', 0);
const ESTE = group(3, 'Este', 1250, 71);

function setup(target: Group, groups: Group[]) {
  const onConfirm = jest.fn();
  const onClose = jest.fn();
  render(<GroupDeleteModal group={target} groups={groups} loading={false} onClose={onClose} onConfirm={onConfirm} />);
  return { onConfirm, onClose, user: userEvent.setup() };
}

describe('GroupDeleteModal', () => {
  test('an empty group: a plain confirmation, deleted without a destination', async () => {
    const { onConfirm, user } = setup(SUR, [NORTE, SUR]);
    const dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
    expect(dialog.textContent).toContain(L.confirmDelete('Sur'));
    expect(within(dialog).queryByRole('combobox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: L.delete }));
    expect(onConfirm).toHaveBeenCalledWith(undefined);
  });

  test('a group with devices explains it and requires another group to move them to', async () => {
    const { onConfirm, user } = setup(NORTE, [NORTE, SUR, ESTE]);
    const dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
    expect(dialog.textContent).toContain(M.groups.notEmpty(3));
    const select = within(dialog).getByRole('combobox', { name: L.moveTo }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([L.selectGroup, 'Sur', 'Este']);

    await user.click(within(dialog).getByRole('button', { name: L.delete }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(select.getAttribute('aria-describedby')!)?.textContent).toBe(L.moveToRequired);

    await user.selectOptions(select, 'Este');
    expect(select.getAttribute('aria-invalid')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: L.delete }));
    expect(onConfirm).toHaveBeenCalledWith(3);
  });

  test('a group with devices and no other group cannot be deleted', async () => {
    const { onConfirm, user } = setup(NORTE, [NORTE]);
    const dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
    expect(dialog.textContent).toContain(L.noOtherGroup);
    await user.click(within(dialog).getByRole('button', { name: L.delete }));
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

// The page, over the real store and API slice (axios answers from a stub).
const renderGroupsPage = (allowed: string[]) =>
  renderPortal(<GroupsPage title="Grupos de dispositivos" path="/inventory-management/devices-group" />, { allowed });

describe('GroupsPage', () => {
  let calls: ApiCall[] = [];
  beforeEach(() => {
    calls = stubApi((call) =>
      call.method === 'GET' ? { data: [NORTE, SUR, ESTE], total: 3, ungrouped: { enrolledCount: 622, preEnrolledCount: 5 } } : null,
    );
  });
  afterEach(() => jest.restoreAllMocks());

  test('rows with es-MX counts linking to the filtered devices; deleting a non-empty group sends moveTo', async () => {
    const { user } = renderGroupsPage([
      '/inventory-management/devices-group',
      '/inventory-management/devices',
      '/inventory-management/devices-pre-enrolled',
    ]);
    const row = await screen.findByTestId('group-row-Este');
    // Enrolled and pre-enrolled apart, each linking to the list that totals it.
    const link = within(row).getByRole('link', { name: L.viewEnrolled(1250, L.ofGroup('Este')) });
    expect(link.textContent).toBe('1,250');
    expect(link.getAttribute('href')).toBe('/inventory-management/devices?groupId=3');
    const pre = within(row).getByRole('link', { name: L.viewPreEnrolled(71, L.ofGroup('Este')) });
    expect([pre.textContent, pre.getAttribute('href')]).toEqual(['71', '/inventory-management/devices-pre-enrolled?groupId=3']);
    // The devices in no group: a last row, with the same two links and no group actions.
    const none = screen.getByTestId('group-row-none');
    expect(none.textContent).toContain(L.noGroup);
    expect(
      within(none)
        .getByRole('link', { name: L.viewEnrolled(622, L.withoutGroup) })
        .getAttribute('href'),
    ).toBe('/inventory-management/devices?groupId=none');
    expect(
      within(none)
        .getByRole('link', { name: L.viewPreEnrolled(5, L.withoutGroup) })
        .getAttribute('href'),
    ).toBe('/inventory-management/devices-pre-enrolled?groupId=none');
    expect(within(none).queryByRole('button', { name: /Eliminar|Renombrar/ })).toBeNull();
    const rowsInOrder = screen.getAllByTestId(/^group-row-/).map((r) => r.getAttribute('data-testid'));
    expect(rowsInOrder.at(-1)).toBe('group-row-none');

    await user.click(within(screen.getByTestId('group-row-Norte')).getByRole('button', { name: L.deleteOf('Norte') }));
    const dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
    await user.click(within(dialog).getByRole('button', { name: L.delete }));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: L.moveTo }), 'Sur');
    await user.click(within(dialog).getByRole('button', { name: L.delete }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({ url: '/v5/groups/1', params: { moveTo: 2 } });
  });

  test('without the devices page the counts are plain numbers', async () => {
    renderGroupsPage(['/inventory-management/devices-group']);
    const row = await screen.findByTestId('group-row-Norte');
    expect(within(row).queryByRole('link')).toBeNull();
    expect(row.textContent).toContain('3');
  });
});

test('axe: no serious violations on the groups page, the create modal and the delete modal', async () => {
  stubApi(() => ({ data: [NORTE, SUR], total: 2 }));
  const { user } = renderGroupsPage(['/inventory-management/devices']);
  await screen.findByTestId('group-row-Norte');
  expect(await seriousViolations()).toEqual([]);
  await user.click(screen.getByRole('button', { name: L.create }));
  const create = await screen.findByRole('dialog', { name: L.createTitle });
  expect(await seriousViolations()).toEqual([]);
  // The shared schema's message under the empty name.
  await user.click(within(create).getByRole('button', { name: 'Guardar' }));
  const name = within(create).getByRole('textbox', { name: L.name });
  await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
  await user.click(within(create).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await user.click(within(screen.getByTestId('group-row-Norte')).getByRole('button', { name: L.deleteOf('Norte') }));
  await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(await seriousViolations()).toEqual([]);
});
