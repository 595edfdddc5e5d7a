/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ADMIN_LABELS } from '../../../shared/constants/adminLabels';
import { DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { ROLE_ACTIONS } from '../../../shared/constants/roleActions';
import { MENU } from '../../../shared/constants/routes';
import { PermissionTree } from './PermissionTree';

const INVENTORY = MENU.find((m) => m.path === '/inventory-management')!;

function Harness({ onChange }: { onChange: (v: { paths: string[]; actions: number[] }) => void }) {
  const [value, setValue] = useState<{ paths: string[]; actions: number[] }>({ paths: [], actions: [] });
  return (
    <PermissionTree
      idPrefix="t"
      paths={value.paths}
      actions={value.actions}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

describe('PermissionTree', () => {
  test('a checkbox per module, per page and per device action, each labelled', () => {
    render(<Harness onChange={() => undefined} />);
    for (const m of MENU) {
      expect(screen.getByRole('checkbox', { name: m.title })).toBeTruthy();
      for (const s of m.submodules) expect(screen.getByRole('checkbox', { name: `${m.title}: ${s.title}` })).toBeTruthy();
    }
    for (const a of DEVICE_ACTIONS) expect(screen.getByRole('checkbox', { name: a.label })).toBeTruthy();
    expect(DEVICE_ACTIONS).toHaveLength(14);
  });

  test('the module toggles its pages; some pages make it mixed; none clears it', async () => {
    const user = userEvent.setup();
    const onChange = jest.fn();
    render(<Harness onChange={onChange} />);
    const parent = screen.getByRole('checkbox', { name: INVENTORY.title }) as HTMLInputElement;

    await user.click(parent);
    expect(onChange).toHaveBeenLastCalledWith({ paths: [INVENTORY.path, ...INVENTORY.submodules.map((s) => s.path)], actions: [] });
    expect(parent.checked).toBe(true);
    expect(parent.indeterminate).toBe(false);

    const first = INVENTORY.submodules[0]!;
    await user.click(screen.getByRole('checkbox', { name: `${INVENTORY.title}: ${first.title}` }));
    expect(parent.checked).toBe(false);
    expect(parent.indeterminate).toBe(true);
    expect(parent.getAttribute('aria-checked')).toBe('mixed');

    await user.click(parent);
    expect(parent.checked).toBe(true);
    await user.click(parent);
    expect(onChange).toHaveBeenLastCalledWith({ paths: [], actions: [] });
    expect(parent.indeterminate).toBe(false);
  });

  test('the role actions that act on no device are a group of their own, apart from the device actions', async () => {
    const user = userEvent.setup();
    const onChange = jest.fn();
    render(<Harness onChange={onChange} />);
    const devices = screen.getByRole('group', { name: ADMIN_LABELS.roles.deviceActions });
    const others = screen.getByRole('group', { name: ADMIN_LABELS.roles.roleActions });
    expect(
      within(devices)
        .getAllByRole('checkbox')
        .map((c) => c.getAttribute('id')),
    ).toEqual(DEVICE_ACTIONS.map((a) => `t-action-${a.code}`));
    expect(
      within(others)
        .getAllByRole('checkbox')
        .map((c) => c.getAttribute('id')),
    ).toEqual(ROLE_ACTIONS.map((a) => `t-action-${a.code}`));
    await user.click(within(others).getByRole('checkbox', { name: 'Registrar y revertir pagos' }));
    await user.click(within(devices).getByRole('checkbox', { name: DEVICE_ACTIONS[0].label }));
    expect(onChange).toHaveBeenLastCalledWith({ paths: [], actions: [0, 100] });
  });

  test('device actions are kept in ascending order', async () => {
    const user = userEvent.setup();
    const onChange = jest.fn();
    render(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('checkbox', { name: DEVICE_ACTIONS[5].label }));
    await user.click(screen.getByRole('checkbox', { name: DEVICE_ACTIONS[0].label }));
    expect(onChange).toHaveBeenLastCalledWith({ paths: [], actions: [0, 5] });
  });
});
