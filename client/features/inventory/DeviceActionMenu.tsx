import Dropdown from 'react-bootstrap/Dropdown';
import { INVENTORY_LABELS as L } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import { useMenuRoom } from '../../components/useMenuRoom';
import { Fragment } from 'react';
import { cancellablePending, deliverableNow, menuGroups, reenrollable } from './deviceActionItems';

export interface DeviceActionMenuProps {
  device: Pick<Device, 'id' | 'imei' | 'status' | 'lockType' | 'pendingCommand'>;
  /** The profile's granted action codes. */
  granted: ReadonlySet<number>;
  /** An enabled action was chosen. */
  onAction: (code: number) => void;
  /** 'Ver detalle' (the detail holds the history); omitted inside the detail itself. */
  onDetail?: () => void;
  /**
   * 'Cancelar comando pendiente', offered while the pending command has not reached the device
   * and the profile grants its action; omitted where the cancel is offered otherwise.
   */
  onCancelPending?: () => void;
  /** 'Entregar ahora', offered for a release inside its cancel window when the profile grants RELEASE. */
  onDeliverNow?: () => void;
  /** The browser's clock (useNow), to tell a scheduled release from a due one. */
  now?: number | null;
  /** 'Autorizar reenrolamiento', offered for an enrolled device when the profile grants LOCK. */
  onReenroll?: () => void;
}

/**
 * A device's action menu: 'Ver detalle', then the actions the profile grants (all but HISTORY) in
 * sections (Bloqueo, Comunicación, Configuración, Códigos sin conexión; Eliminar last, in red). An
 * action the device's status or its pending command refuses (the reference §4 table) is disabled,
 * its reason one line under its name and whole in its title. Then 'Autorizar reenrolamiento' for an enrolled device
 * (LOCK granted), 'Entregar ahora' for a scheduled release, and last 'Cancelar comando pendiente'
 * while the command in flight can still be cancelled.
 */
export function DeviceActionMenu({
  device,
  granted,
  onAction,
  onDetail,
  onCancelPending,
  onDeliverNow,
  onReenroll,
  now = null,
}: DeviceActionMenuProps) {
  const groups = menuGroups(device, granted);
  const reenroll = onReenroll !== undefined && reenrollable(device, granted);
  const cancellable = onCancelPending !== undefined && cancellablePending(device, granted) !== null;
  const deliverNow = onDeliverNow !== undefined && deliverableNow(device, granted, now);
  // Taller than the room below the toggle (a row near the bottom): it opens upwards, or scrolls.
  const { setToggle, onToggle, menuStyle } = useMenuRoom();
  return (
    <Dropdown align="end" onToggle={onToggle}>
      <Dropdown.Toggle
        ref={setToggle}
        variant="outline-secondary"
        size="sm"
        className="portal-icon-toggle"
        aria-label={L.actions.menuOf(device.imei)}
        title={L.actions.menu}
        id={`device-actions-${device.id}`}
      >
        <i className="bi bi-three-dots-vertical" aria-hidden="true" />
      </Dropdown.Toggle>
      <Dropdown.Menu
        className="portal-device-menu"
        // Fixed: the menu escapes the table's scrolling box. Fixed from its first measure too, or
        // Popper places it relative to the dropdown's box (at the top of the window, over the toggle).
        popperConfig={{ strategy: 'fixed' }}
        style={{ position: 'fixed', minWidth: '16rem', maxWidth: '22rem', ...menuStyle }}
        data-testid="device-action-menu"
      >
        {onDetail && (
          <>
            <Dropdown.Item as="button" type="button" onClick={onDetail}>
              <i className="bi bi-eye me-2" aria-hidden="true" />
              {L.devices.viewDetail}
            </Dropdown.Item>
            <Dropdown.Divider />
          </>
        )}
        {groups.length === 0 && <Dropdown.ItemText className="small text-body-secondary">{L.actions.noneGranted}</Dropdown.ItemText>}
        {groups.map((group, i) => (
          <Fragment key={group.key}>
            {i > 0 && <Dropdown.Divider />}
            {group.key !== 'delete' && <Dropdown.Header aria-level={3}>{L.actions.groups[group.key]}</Dropdown.Header>}
            {group.items.map((item) => (
              <Dropdown.Item
                key={item.code}
                as="button"
                type="button"
                disabled={item.reason !== null}
                title={item.reason ?? undefined}
                className={group.key === 'delete' ? 'text-danger' : undefined}
                data-action={item.code}
                onClick={() => onAction(item.code)}
              >
                {item.label}
                {item.reason && <small className="d-block text-truncate portal-disabled-reason">{item.reason}</small>}
              </Dropdown.Item>
            ))}
          </Fragment>
        ))}
        {reenroll && (
          <>
            <Dropdown.Divider />
            <Dropdown.Item as="button" type="button" data-testid="authorize-reenrollment" onClick={onReenroll}>
              <i className="bi bi-qr-code me-2" aria-hidden="true" />
              {L.reenrollment.action}
            </Dropdown.Item>
          </>
        )}
        {deliverNow && (
          <>
            <Dropdown.Divider />
            <Dropdown.Item as="button" type="button" data-testid="deliver-release-now" onClick={onDeliverNow}>
              <i className="bi bi-send me-2" aria-hidden="true" />
              {L.actions.deliverNow}
            </Dropdown.Item>
          </>
        )}
        {cancellable && (
          <>
            {!deliverNow && <Dropdown.Divider />}
            <Dropdown.Item as="button" type="button" className="text-danger" data-testid="cancel-pending" onClick={onCancelPending}>
              <i className="bi bi-x-circle me-2" aria-hidden="true" />
              {L.actions.cancelPending}
            </Dropdown.Item>
          </>
        )}
      </Dropdown.Menu>
    </Dropdown>
  );
}
