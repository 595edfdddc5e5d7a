/** @jest-environment jsdom */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVICE_ACTION, DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { DEVICE_STATUS, STATUS_FILTERS, type LockType } from '../../../shared/constants/domain';
import type { Device, PendingCommand } from '../../../shared/contracts/devices';
import { STATEFUL_ACTIONS } from '../../../shared/deviceStatus';
import { seriousViolations } from '../../testing/renderPortal';
import { DeviceActionMenu } from './DeviceActionMenu';
import { BULK_ACTIONS, MENU_ACTIONS, MENU_GROUPS, cancellablePending } from './deviceActionItems';

/** react-bootstrap marks a disabled dropdown item with aria-disabled (and the class) and ignores its clicks. */
const disabled = (el: HTMLElement) => el.getAttribute('aria-disabled') === 'true' && el.classList.contains('disabled');

const ALL = new Set(DEVICE_ACTIONS.map((a) => a.code));

function device(status: number, opts: { lockType?: LockType | null; pending?: number | null; deliveredAt?: string | null } = {}) {
  const pendingCommand: PendingCommand | null =
    opts.pending === undefined || opts.pending === null
      ? null
      : {
          id: 9,
          action: opts.pending,
          requestedAt: '2026-03-01T10:00:00Z',
          requestedBy: 'ana@demo.local',
          deliverAfter: '2026-03-01T10:00:00Z',
          payload: {},
          deliveredAt: opts.deliveredAt ?? null,
        };
  return { id: 7, imei: '356938035643809', status: status as Device['status'], lockType: opts.lockType ?? null, pendingCommand };
}

async function openMenu(dev: ReturnType<typeof device>, granted: ReadonlySet<number> = ALL, withCancel = false) {
  const user = userEvent.setup();
  const onAction = jest.fn();
  const onDetail = jest.fn();
  const onCancelPending = jest.fn();
  render(
    <DeviceActionMenu
      device={dev}
      granted={granted}
      onAction={onAction}
      onDetail={onDetail}
      onCancelPending={withCancel ? onCancelPending : undefined}
    />,
  );
  await user.click(screen.getByRole('button', { name: 'Acciones del dispositivo 356938035643809' }));
  const menu = await screen.findByTestId('device-action-menu');
  const item = (code: number) => menu.querySelector<HTMLButtonElement>(`[data-action="${code}"]`)!;
  return { user, onAction, onDetail, onCancelPending, menu, item };
}

const CANCEL = 'Cancelar comando pendiente';

test('every reference §4 action but HISTORY; bulk leaves out HISTORY and the offline codes', () => {
  expect(MENU_ACTIONS.map((a) => a.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13]);
  expect(BULK_ACTIONS.map((a) => a.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 10, 11]);
});

test('Liberado: the reference §4 table disables Bloquear (and its row) with the reason, shown and as the title', async () => {
  const { menu, item } = await openMenu(device(DEVICE_STATUS.liberado));
  const lock = item(DEVICE_ACTION.LOCK);
  expect(disabled(lock)).toBe(true);
  const reason = 'La acción Bloquear no está disponible para dispositivos en estado Liberado';
  expect(lock.title).toBe(reason);
  expect(within(lock).getByText(reason)).toBeTruthy();
  const disabledByTable = STATUS_FILTERS.find((f) => f.value === String(DEVICE_STATUS.liberado))!.disabledActions;
  expect([...disabledByTable].sort((a, b) => a - b)).toEqual([0, 1, 4, 6, 8, 9, 12]);
  for (const code of disabledByTable) expect(disabled(item(code))).toBe(true);
  // Liberar again: refused as already released; Eliminar and Enviar notificación stay available.
  expect(item(DEVICE_ACTION.RELEASE).title).toBe('El dispositivo ya está liberado');
  expect(disabled(item(DEVICE_ACTION.DELETE_DEVICE))).toBe(false);
  // Its agent left: no command reaches a released device.
  expect(disabled(item(DEVICE_ACTION.SEND_NOTIFICATION))).toBe(true);
  expect(item(DEVICE_ACTION.SEND_NOTIFICATION).title).toBe('El dispositivo está liberado: su agente ya no recibe comandos');
  expect(menu.querySelector(`[data-action="${DEVICE_ACTION.HISTORY}"]`)).toBeNull();
});

test('Activo: only Eliminar dispositivo is disabled by the table', async () => {
  const { item } = await openMenu(device(DEVICE_STATUS.activo));
  for (const a of MENU_ACTIONS) {
    expect(disabled(item(a.code))).toBe(a.code === DEVICE_ACTION.DELETE_DEVICE);
  }
  expect(item(DEVICE_ACTION.DELETE_DEVICE).title).toBe('La acción Eliminar dispositivo no está disponible para dispositivos en estado Activo');
});

test('Bloqueado Por Crédito uses its own entry of the table (delete disabled)', async () => {
  const { item } = await openMenu(device(DEVICE_STATUS.bloqueado, { lockType: 'PorCredito' }));
  expect(disabled(item(DEVICE_ACTION.DELETE_DEVICE))).toBe(true);
  expect(disabled(item(DEVICE_ACTION.UNLOCK))).toBe(false);
});

test('a pending command disables the stateful actions (and delete) with the conflict reason; the others stay', async () => {
  const { item } = await openMenu(device(DEVICE_STATUS.fallido, { pending: DEVICE_ACTION.LOCK }));
  const reason = 'El dispositivo tiene un comando pendiente (Bloquear); espere la respuesta o cancélelo';
  for (const code of [...STATEFUL_ACTIONS, DEVICE_ACTION.DELETE_DEVICE]) {
    expect(disabled(item(code))).toBe(true);
    expect(item(code).title).toBe(reason);
  }
  for (const code of [DEVICE_ACTION.SEND_NOTIFICATION, DEVICE_ACTION.CODE_BAR, DEVICE_ACTION.UNLOCK_OFFLINE])
    expect(disabled(item(code))).toBe(false);
});

test('an action the profile does not grant is not offered; with none granted the menu says so', async () => {
  const granted = new Set([DEVICE_ACTION.UNLOCK, DEVICE_ACTION.HISTORY]);
  const { menu, item } = await openMenu(device(DEVICE_STATUS.activo), granted);
  expect([...menu.querySelectorAll('[data-action]')].map((b) => b.getAttribute('data-action'))).toEqual([String(DEVICE_ACTION.UNLOCK)]);
  expect(disabled(item(DEVICE_ACTION.UNLOCK))).toBe(false);
  // One section, its header only.
  expect([...menu.querySelectorAll('.dropdown-header')].map((h) => h.textContent)).toEqual(['Bloqueo']);
  cleanup();
  const none = await openMenu(device(DEVICE_STATUS.activo), new Set([DEVICE_ACTION.HISTORY]));
  expect(none.menu.querySelectorAll('[data-action]')).toHaveLength(0);
  expect(within(none.menu).getByText('Su perfil no permite acciones sobre los dispositivos')).toBeTruthy();
});

test('sections in order: Bloqueo, Comunicación, Configuración, Códigos sin conexión; Eliminar last, apart, in red', async () => {
  expect(MENU_GROUPS.flatMap((g) => g.codes).sort((a, b) => a - b)).toEqual(MENU_ACTIONS.map((a) => a.code));
  const { menu } = await openMenu(device(DEVICE_STATUS.fallido));
  expect([...menu.querySelectorAll('.dropdown-header')].map((h) => h.textContent)).toEqual([
    'Bloqueo',
    'Comunicación',
    'Configuración',
    'Códigos sin conexión',
  ]);
  // What follows each header up to the next divider: its actions, in order.
  const sections: string[][] = [];
  for (const el of menu.children) {
    if (el.classList.contains('dropdown-header') || el.tagName === 'HR' || el.classList.contains('dropdown-divider')) sections.push([]);
    const code = el.getAttribute('data-action');
    if (code !== null) sections[sections.length - 1]!.push(code);
  }
  expect(sections.filter((x) => x.length > 0)).toEqual([['0', '1', '2'], ['5', '6'], ['8', '3', '4', '10'], ['9', '12', '13'], ['11']]);
  // The section headers are headings with their level (axe: aria-required-attr).
  expect(await seriousViolations()).toEqual([]);
  const del = menu.querySelector<HTMLElement>(`[data-action="${DEVICE_ACTION.DELETE_DEVICE}"]`)!;
  expect(del.classList.contains('text-danger')).toBe(true);
  expect(del.previousElementSibling?.classList.contains('dropdown-divider') || del.previousElementSibling?.tagName === 'HR').toBe(true);
});

test('a disabled action says why in one line under its name, and whole in its title', async () => {
  const { item } = await openMenu(device(DEVICE_STATUS.liberado));
  const reason = within(item(DEVICE_ACTION.LOCK)).getByText('La acción Bloquear no está disponible para dispositivos en estado Liberado');
  expect(reason.classList.contains('text-truncate')).toBe(true);
});

test('keyboard: the menu opens from the keyboard, arrows skip disabled items, Enter chooses', async () => {
  const user = userEvent.setup();
  const onAction = jest.fn();
  const granted = new Set([DEVICE_ACTION.UNLOCK, DEVICE_ACTION.SEND_NOTIFICATION]);
  render(<DeviceActionMenu device={device(DEVICE_STATUS.bloqueado)} granted={granted} onAction={onAction} />);
  const toggle = screen.getByRole('button', { name: 'Acciones del dispositivo 356938035643809' });
  toggle.focus();
  await user.keyboard('{Enter}');
  await screen.findByTestId('device-action-menu');
  await user.keyboard('{ArrowDown}');
  expect(document.activeElement?.getAttribute('data-action')).toBe(String(DEVICE_ACTION.UNLOCK));
  await user.keyboard('{ArrowDown}');
  expect(document.activeElement?.getAttribute('data-action')).toBe(String(DEVICE_ACTION.SEND_NOTIFICATION));
  await user.keyboard('{Enter}');
  expect(onAction).toHaveBeenCalledWith(DEVICE_ACTION.SEND_NOTIFICATION);
});

test('clicking an enabled action or "Ver detalle" reports it; a disabled one does nothing', async () => {
  const { user, item, onAction, onDetail } = await openMenu(device(DEVICE_STATUS.liberado));
  await user.click(item(DEVICE_ACTION.LOCK));
  expect(onAction).not.toHaveBeenCalled();
  await user.click(item(DEVICE_ACTION.DELETE_DEVICE));
  expect(onAction).toHaveBeenCalledWith(DEVICE_ACTION.DELETE_DEVICE);
  await user.click(screen.getByRole('button', { name: 'Acciones del dispositivo 356938035643809' }));
  await user.click(await screen.findByRole('button', { name: 'Ver detalle' }));
  expect(onDetail).toHaveBeenCalledTimes(1);
});

describe('Cancelar comando pendiente', () => {
  test('offered for a pending command the device has not received, whose action the profile grants', async () => {
    const { user, menu, onAction, onCancelPending } = await openMenu(device(DEVICE_STATUS.bloqueando, { pending: DEVICE_ACTION.LOCK }), ALL, true);
    const cancel = within(menu).getByRole('button', { name: CANCEL });
    expect(disabled(cancel)).toBe(false);
    // The last item, after every action.
    expect(menu.querySelectorAll('button').item(menu.querySelectorAll('button').length - 1)).toBe(cancel);
    await user.click(cancel);
    expect(onCancelPending).toHaveBeenCalledTimes(1);
    expect(onAction).not.toHaveBeenCalled();
  });

  test('a RELEASE inside its window is offered too (it is not delivered yet)', async () => {
    const { menu } = await openMenu(device(DEVICE_STATUS.liberando, { pending: DEVICE_ACTION.RELEASE }), ALL, true);
    expect(within(menu).getByRole('button', { name: CANCEL })).toBeTruthy();
  });

  test('not offered once delivered, without the action granted, without a pending command, or without the handler', async () => {
    const delivered = await openMenu(
      device(DEVICE_STATUS.bloqueando, { pending: DEVICE_ACTION.LOCK, deliveredAt: '2026-03-01T10:00:05Z' }),
      ALL,
      true,
    );
    expect(within(delivered.menu).queryByRole('button', { name: CANCEL })).toBeNull();
    cleanup();

    const notGranted = await openMenu(device(DEVICE_STATUS.bloqueando, { pending: DEVICE_ACTION.LOCK }), new Set([DEVICE_ACTION.UNLOCK]), true);
    expect(within(notGranted.menu).queryByRole('button', { name: CANCEL })).toBeNull();
    cleanup();

    const none = await openMenu(device(DEVICE_STATUS.activo), ALL, true);
    expect(within(none.menu).queryByRole('button', { name: CANCEL })).toBeNull();
    cleanup();

    const noHandler = await openMenu(device(DEVICE_STATUS.bloqueando, { pending: DEVICE_ACTION.LOCK }), ALL, false);
    expect(within(noHandler.menu).queryByRole('button', { name: CANCEL })).toBeNull();
  });

  test('cancellablePending: the command, or null when delivered or not granted', () => {
    const waiting = device(DEVICE_STATUS.bloqueando, { pending: DEVICE_ACTION.LOCK });
    expect(cancellablePending(waiting, ALL)).toBe(waiting.pendingCommand);
    expect(cancellablePending(waiting, new Set([DEVICE_ACTION.LOCK]))).toBe(waiting.pendingCommand);
    expect(cancellablePending(waiting, new Set([DEVICE_ACTION.RELEASE]))).toBeNull();
    expect(
      cancellablePending(device(DEVICE_STATUS.bloqueando, { pending: DEVICE_ACTION.LOCK, deliveredAt: '2026-03-01T10:00:05Z' }), ALL),
    ).toBeNull();
    expect(cancellablePending(device(DEVICE_STATUS.activo), ALL)).toBeNull();
  });
});
