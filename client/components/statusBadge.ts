import { DEVICE_STATUS, deviceStatusLabel } from '../../shared/constants/domain';

/**
 * Bootstrap `text-bg-*` classes per status family (each pairs its background with a text colour
 * of sufficient contrast): locked, failed, in progress, working, released, offline or suspended,
 * not yet working. `color` is the family's Bootstrap 5.3 colour for what cannot read a class (the
 * dashboard's canvas charts); the light family takes gray-300 so it shows on a white page.
 */
const FAMILIES: readonly { className: string; color: string; statuses: readonly number[] }[] = [
  { className: 'text-bg-danger', color: '#dc3545', statuses: [DEVICE_STATUS.bloqueado, DEVICE_STATUS.configurado_bloqueado] },
  { className: 'text-bg-dark', color: '#212529', statuses: [DEVICE_STATUS.fallido] },
  {
    className: 'text-bg-warning',
    color: '#ffc107',
    statuses: [
      DEVICE_STATUS.enrolando,
      DEVICE_STATUS.bloqueando,
      DEVICE_STATUS.desbloqueando,
      DEVICE_STATUS.liberando,
      DEVICE_STATUS.configurando,
      DEVICE_STATUS.TEMPORARY_UNLOCKING,
    ],
  },
  {
    className: 'text-bg-success',
    color: '#198754',
    statuses: [
      DEVICE_STATUS.activo,
      DEVICE_STATUS.desbloqueado,
      DEVICE_STATUS.desbloqueado_offline,
      DEVICE_STATUS.configurado_activo,
      DEVICE_STATUS.TEMPORARY_ACTIVE,
    ],
  },
  { className: 'text-bg-info', color: '#0dcaf0', statuses: [DEVICE_STATUS.liberado] },
  { className: 'text-bg-secondary', color: '#6c757d', statuses: [DEVICE_STATUS.sin_conexion, DEVICE_STATUS.SUSPENDED] },
  { className: 'text-bg-light border', color: '#dee2e6', statuses: [DEVICE_STATUS.enrolado, DEVICE_STATUS.configurado, DEVICE_STATUS.PRE_ENROLLED] },
];

const LIGHT = FAMILIES.at(-1)!;
const familyOf = (status: number) => FAMILIES.find((f) => f.statuses.includes(status)) ?? LIGHT;

/** The badge classes of a status code. */
export function statusBadgeClass(status: number): string {
  return `badge ${familyOf(status).className}`;
}

/** The colour of a status code's family (a CSS colour), the same family its badge has. */
export function statusColor(status: number): string {
  return familyOf(status).color;
}

/** The Spanish label of a status code (the code itself when unknown). */
export function statusLabel(status: number): string {
  return deviceStatusLabel(status) ?? String(status);
}
