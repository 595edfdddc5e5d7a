/**
 * Spanish labels of the credits area: the state of a credit and of an installment, where a
 * payment came from, the overdue buckets of the portfolio, the kinds of schedule.
 */
import type { CreditState } from '../credits/standing';
import type { ScheduleKind } from '../credits/schedule';

/** An installment's state on a day: fully paid, partly paid and not yet due, due before the day and not fully paid, nothing paid yet. */
export const INSTALLMENT_STATES = ['paid', 'partial', 'overdue', 'pending'] as const;
export type InstallmentState = (typeof INSTALLMENT_STATES)[number];

/** Where a payment was registered: the lender's system (integration API), a CSV file, the portal. */
export const PAYMENT_SOURCES = ['integration', 'csv', 'portal'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** The portfolio's overdue buckets, by days overdue (1–7, 8–30, 31 or more). */
export const OVERDUE_BUCKETS = ['1-7', '8-30', '31+'] as const;
export type OverdueBucket = (typeof OVERDUE_BUCKETS)[number];

export const CREDIT_LABELS = {
  states: {
    current: 'Al corriente',
    overdue: 'Vencido',
    paid_off: 'Liquidado',
    cancelled: 'Cancelado',
  } satisfies Record<CreditState, string>,
  installmentStates: {
    paid: 'Pagada',
    partial: 'Parcial',
    overdue: 'Vencida',
    pending: 'Pendiente',
  } satisfies Record<InstallmentState, string>,
  paymentSources: {
    integration: 'Integración',
    csv: 'Archivo CSV',
    portal: 'Portal',
  } satisfies Record<PaymentSource, string>,
  overdueBuckets: {
    '1-7': '1 a 7 días',
    '8-30': '8 a 30 días',
    '31+': '31 días o más',
  } satisfies Record<OverdueBucket, string>,
  scheduleKinds: {
    weekly: 'Semanal',
    biweekly: 'Catorcenal',
    monthly: 'Mensual',
    quincena: 'Quincenal',
  } satisfies Record<ScheduleKind, string>,
} as const;

/** Who the audit log and the device history show for what the collection policy did. */
export const COLLECTION_POLICY_ACTOR = 'Política de cobranza';

const MONTHS_SHORT = ['ene.', 'feb.', 'mar.', 'abr.', 'may.', 'jun.', 'jul.', 'ago.', 'sept.', 'oct.', 'nov.', 'dic.'] as const;

/** '2026-12-03' → '3 dic.': the dates the policy's texts show, written by hand so browser and server agree. */
export function shortDate(date: string): string {
  const [, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${day} ${MONTHS_SHORT[month - 1]}`;
}

/** What the policy's steps are called, in the credit's history and the reasons. */
export const COLLECTION_STEP_KINDS = {
  reminder: 'Recordatorio',
  notification: 'Aviso de atraso',
  persistent_notification: 'Aviso persistente',
  restrictions: 'Restricciones',
  lock: 'Bloqueo',
  unlock: 'Desbloqueo',
  lift_restrictions: 'Quitar restricciones',
  release: 'Liberación',
  release_request: 'Liberación por aprobar',
} as const;
export type CollectionStepKind = keyof typeof COLLECTION_STEP_KINDS;

/** The texts of the collection policy's engine: notification titles, the reasons it records, the next step. */
export const COLLECTION_TEXTS = {
  titles: {
    reminder: 'Recordatorio de pago',
    notification: 'Pago vencido',
    persistent_notification: 'Aviso importante de pago',
  },
  /** The policy's name in a reason: 'Global v7', 'Tiendas Norte v9'. */
  policy: (scope: string | null, version: number) => `${scope ?? 'Global'} v${version}`,
  overdue: (days: number, amount: string, policy: string) => `vencido ${days} ${days === 1 ? 'día' : 'días'}, ${amount}, política ${policy}`,
  reminder: (offsetDays: number, dueDate: string, amount: string, policy: string) =>
    `${offsetDays === 0 ? 'vence hoy' : offsetDays < 0 ? `vence en ${-offsetDays} ${offsetDays === -1 ? 'día' : 'días'}` : `vencido ${offsetDays} días`} (${shortDate(dueDate)}), ${amount}, política ${policy}`,
  settled: (policy: string) => `sin adeudo vencido, política ${policy}`,
  paidOff: (policy: string) => `crédito liquidado, política ${policy}`,
  skipped: {
    paused: 'cobranza pausada (promesa de pago)',
    late: 'su horario pasó sin que se tomara',
    superseded: 'superado por un paso posterior',
    hours: (from: string, to: string) => `bloqueo aplazado: fuera del horario permitido (${from}–${to})`,
    nonWorkingDay: 'bloqueo aplazado: día no laborable',
  },
  device: {
    released: 'dispositivo liberado',
    alreadyLocked: 'ya está bloqueado',
    otherLock: 'bloqueado por otro motivo: la política no lo toca',
    notLocked: 'no está bloqueado por crédito',
  },
  next: {
    reminder: (at: string) => `Se enviará un recordatorio el ${at}`,
    notification: (at: string) => `Se enviará un aviso de atraso el ${at}, si no se registra el pago`,
    persistent_notification: (at: string) => `Se enviará un aviso persistente el ${at}, si no se registra el pago`,
    restrictions: (at: string) => `Se aplicarán restricciones el ${at}, si no se registra el pago`,
    lock: (at: string) => `Se bloqueará el ${at}, si no se registra el pago`,
    unlock: 'Se desbloqueará en cuanto el servidor lo procese',
    release: 'Se liberará en cuanto el servidor lo procese',
    release_request: 'La liberación espera la aprobación de un administrador',
    paused: (until: string) => `Cobranza pausada hasta el ${until}`,
  },
} as const;

/**
 * Conciliación: the contradictions between a financed device's state and its credit. A credit up
 * to date (or paid off) whose device is locked Por Crédito; a credit overdue past the lock day of
 * the device's group's policy whose device is not locked; a credit paid off whose device is not
 * released; a released device that checked in after its release was confirmed; a credit whose
 * reference no device carries; a device whose reference matches no credit.
 */
export const RECONCILIATION_KINDS = [
  'paid_locked',
  'overdue_active',
  'paid_not_released',
  'released_reporting',
  'credit_without_device',
  'device_without_credit',
] as const;
export type ReconciliationKind = (typeof RECONCILIATION_KINDS)[number];

export const RECONCILIATION_LABELS = {
  kinds: {
    paid_locked: 'Al corriente pero bloqueado',
    overdue_active: 'Vencido sin bloquear',
    paid_not_released: 'Liquidado sin liberar',
    released_reporting: 'Liberado y sigue reportando',
    credit_without_device: 'Crédito sin dispositivo',
    device_without_credit: 'Dispositivo sin crédito',
  } satisfies Record<ReconciliationKind, string>,
  /** Each row's detail, in the list, the CSV and the webhook. */
  detail: {
    paid_locked: () => 'El crédito no tiene pagos vencidos y el dispositivo está bloqueado Por Crédito',
    overdue_active: (days: number, lockDays: number) =>
      `Vencido ${days} ${days === 1 ? 'día' : 'días'}; la política bloquea a partir de ${lockDays} ${lockDays === 1 ? 'día' : 'días'}`,
    paid_not_released: () => 'El crédito está liquidado y el dispositivo no está liberado',
    released_reporting: () => 'El dispositivo se reportó después de confirmarse su liberación',
    credit_without_device: () => 'Ningún dispositivo lleva la referencia de este crédito',
    device_without_credit: () => 'La referencia del dispositivo no corresponde a ningún crédito',
  },
} as const;
