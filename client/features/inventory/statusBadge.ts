import { DEVICE_STATUS, deviceStatusLabel } from '../../../shared/constants/domain';

/**
 * Bootstrap `text-bg-*` classes per status family (each pairs its background with a text colour
 * of sufficient contrast): locked, failed, in progress, working, released, offline or suspended,
 * not yet working.
 */
const FAMILIES: readonly { className: string; statuses: readonly number[] }[] = [
  { className: 'text-bg-danger', statuses: [DEVICE_STATUS.bloqueado, DEVICE_STATUS.configurado_bloqueado] },
  { className: 'text-bg-dark', statuses: [DEVICE_STATUS.fallido] },
  {
    className: 'text-bg-warning',
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
    statuses: [
      DEVICE_STATUS.activo,
      DEVICE_STATUS.desbloqueado,
      DEVICE_STATUS.desbloqueado_offline,
      DEVICE_STATUS.configurado_activo,
      DEVICE_STATUS.TEMPORARY_ACTIVE,
    ],
  },
  { className: 'text-bg-info', statuses: [DEVICE_STATUS.liberado] },
  { className: 'text-bg-secondary', statuses: [DEVICE_STATUS.sin_conexion, DEVICE_STATUS.SUSPENDED] },
  { className: 'text-bg-light border', statuses: [DEVICE_STATUS.enrolado, DEVICE_STATUS.configurado, DEVICE_STATUS.PRE_ENROLLED] },
];

/** The badge classes of a status code. */
export function statusBadgeClass(status: number): string {
  return `badge ${FAMILIES.find((f) => f.statuses.includes(status))?.className ?? 'text-bg-light border'}`;
}

/** The Spanish label of a status code (the code itself when unknown). */
export function statusLabel(status: number): string {
  return deviceStatusLabel(status) ?? String(status);
}
