import { plural } from './spanishNumbers';

/**
 * Spanish labels of the dashboards (/dashboard/general and /dashboard/android). The codes' labels
 * (statuses, device types, actions) are in domain.ts and deviceActions.ts.
 */

const numberFormat = new Intl.NumberFormat('es-MX');
/** A count as es-MX writes it: '1,234'. */
export const formatCount = (n: number): string => numberFormat.format(n);
const percentFormat = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 0 });
/** A share as es-MX writes it: '63%' (0 of 0 reads 0%). */
export const formatPercent = (part: number, whole: number): string => percentFormat.format(whole === 0 ? 0 : part / whole);

export const DASHBOARD_LABELS = {
  /** Shared by both dashboards. */
  common: {
    loading: 'Cargando el dashboard',
    chartLoading: 'Cargando la gráfica',
    /** The automatic refresh: one button that pauses and resumes it. */
    pause: 'Pausar actualización',
    resume: 'Reanudar actualización',
    paused: 'Actualización automática en pausa',
    updatedAt: (time: string) => `Actualizado: ${time}`,
    refreshFailed: 'No se pudo actualizar el dashboard; se muestran los últimos datos',
    /** A value no device reported. */
    noData: 'Sin dato',
    others: 'Otros',
    showChart: 'Ver como gráfica',
    showTable: 'Ver como tabla',
    viewOf: (title: string) => `Vista de ${title}`,
    /** The headers of the tables that stand for the charts. */
    count: 'Dispositivos',
    smartphones: 'Móviles',
    tvs: 'TVs',
    total: 'Total',
    /** The text alternative of a chart (the canvas's aria-label): its title and every value. */
    summary: (title: string, items: readonly { label: string; value: number }[]) =>
      items.length === 0 ? `${title}: sin datos` : `${title}: ${items.map((i) => `${i.label} ${formatCount(i.value)}`).join(', ')}`,
    noChartData: 'Sin datos en este periodo',
    emptyTitle: 'Aún no hay dispositivos',
    emptyText: 'Cuando registres dispositivos, aquí verás el estado de la flota.',
    addDevice: 'Agregar dispositivo',
  },

  /** The general dashboard. */
  general: {
    cards: 'Indicadores',
    devices: 'Dispositivos',
    preEnrolled: (n: number) => `${formatCount(n)} ${plural(n, 'pre-enrolado', 'pre-enrolados')}`,
    smartphones: 'Móviles',
    tvs: 'TVs',
    locked: 'Bloqueados',
    lockedHelp: 'Bloqueado, configurado bloqueado y bloqueando',
    offline: 'Sin conexión',
    offlineHelp: (hours: number) => `Sin conectarse en ${formatCount(hours)} h o más`,
    inFlight: 'Con comando en curso',
    pendingCommands: (n: number) => `${formatCount(n)} ${plural(n, 'comando pendiente', 'comandos pendientes')}`,
    releasedThisMonth: 'Liberados este mes',
    releasedTotal: (n: number) => `${formatCount(n)} ${plural(n, 'liberado', 'liberados')} en total`,
    byStatus: 'Dispositivos por estado',
    status: 'Estado',
    commandsPerDay: (days: number) => `Comandos por día (últimos ${days} días)`,
    enrollmentsPerDay: (days: number) => `Enrolamientos por día (últimos ${days} días)`,
    day: 'Día',
    topGroups: (n: number) => `Dispositivos por grupo (los ${n} con más)`,
    group: 'Grupo',
    noGroup: 'Sin grupo',
    /** The collection's figures (only for a role holding the portfolio). */
    credits: {
      title: 'Cobranza',
      today: (date: string) => `Cifras al ${date}`,
      overdue: 'Créditos vencidos',
      amountOverdue: 'Monto vencido',
      amountOverdueHelp: 'Lo no pagado de las cuotas vencidas',
      paymentsToday: 'Pagos de hoy',
      automaticLocks: 'Bloqueos automáticos hoy',
      automaticUnlocks: 'Desbloqueos automáticos hoy',
      automaticHelp: 'Dispositivos a los que la política de cobranza envió el comando hoy',
      unlockedAfterLock: (days: number) => `Desbloqueados en ${days} días`,
      unlockedAfterLockHelp: (lockDays: number, withinDays: number) =>
        `De los dispositivos bloqueados Por Crédito en los últimos ${lockDays} días, los desbloqueados o liberados en los ${withinDays} días siguientes al bloqueo`,
      unlockedOf: (unlocked: number, locked: number) => `${formatCount(unlocked)} de ${formatCount(locked)}`,
      noLocks: 'Sin bloqueos Por Crédito en el periodo',
      buckets: 'Créditos vencidos por días de atraso',
      bucket: 'Días de atraso',
      credits: 'Créditos',
      noAmount: 'Sin monto vencido',
    },
    stuck: {
      title: (hours: number) => `Comandos detenidos (más de ${hours} h en curso)`,
      caption: 'Comandos detenidos',
      device: 'Dispositivo (IMEI)',
      command: 'Comando',
      requested: 'Solicitado',
      delivered: 'Entregado',
      notDelivered: 'Aún no entregado',
      lastSeen: 'Última conexión',
      neverSeen: 'Nunca',
      deviceLink: (imei: string) => `Ver el dispositivo ${imei}`,
      empty: 'Sin comandos detenidos',
      shownOf: (shown: number, total: number) => `Se muestran los ${formatCount(shown)} más antiguos de ${formatCount(total)}`,
    },
  },

  /** The Android dashboard. */
  android: {
    osVersions: 'Versiones de Android',
    osVersion: 'Versión',
    models: (n: number) => `Modelos (los ${n} más frecuentes)`,
    model: 'Modelo',
    agentVersions: (type: string) => `Versiones del agente: ${type}`,
    version: 'Versión',
    current: 'Versión actual',
    noCurrent: 'Sin versión actual marcada',
    onCurrent: 'En la versión actual',
    outdated: 'Desactualizados',
    unknown: 'Sin versión reportada',
    currentMark: '(actual)',
    versionLink: (version: string) => `Ver los dispositivos con la versión ${version}`,
    carriers: 'Operadores SIM (móviles)',
    carrier: 'Operador',
    brands: 'TV y móvil por marca',
    brand: 'Marca',
  },
} as const;
