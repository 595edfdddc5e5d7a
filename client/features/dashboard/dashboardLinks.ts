import { COLLECTION_POLICY_ACTOR, type OverdueBucket } from '../../../shared/constants/creditLabels';
import { DEVICE_STATUS, DEVICE_TYPE, type DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';

/**
 * Filters of the enrolled devices page as its URL carries them (useDeviceListQuery), so the
 * list's total is the number the dashboard shows.
 */
export interface DeviceListFilter {
  status?: number;
  deviceType?: DeviceTypeCode;
  /** A group, or 'none': devices without a group. */
  groupId?: number | 'none';
  /** Devices with a command in flight. */
  inFlight?: boolean;
  /** Devices locked or being locked (Bloqueado, Configurado bloqueado, Bloqueando). */
  locked?: boolean;
  /** Devices reporting this agent version. */
  agentVersion?: string;
  /** Devices reporting an agent version other than this one. */
  agentVersionNot?: string;
  /** Released devices released at or after this instant. */
  releasedFrom?: string;
}

/** The enrolled devices page with a filter applied. */
export function devicesHref(filter: DeviceListFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter) as [string, string | number | boolean | undefined][]) {
    if (value !== undefined) params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${PATHS.devices}?${query}` : PATHS.devices;
}

/** The enrolled devices page with one device's detail open. */
export const deviceDetailHref = (deviceId: number): string => `${PATHS.devices}?device=${deviceId}`;

/** What each card of the general dashboard opens. */
export const CARD_FILTERS = {
  devices: {},
  smartphones: { deviceType: DEVICE_TYPE.SMARTPHONE },
  tvs: { deviceType: DEVICE_TYPE.TV },
  locked: { locked: true },
  offline: { status: DEVICE_STATUS.sin_conexion },
  inFlight: { inFlight: true },
  /** 'Liberados este mes' adds releasedFrom: the month's first instant the answer gives. */
  released: { status: DEVICE_STATUS.liberado },
} as const satisfies Record<string, DeviceListFilter>;

/** Filters of the credit portfolio as its URL carries them (CreditPortfolioPage), so the list's total is the dashboard's number. */
export interface PortfolioFilter {
  state?: 'overdue';
  overdue?: OverdueBucket;
  /** Credits with a payment dated today (company day). */
  paidToday?: 'true';
}

/** The credit portfolio with a filter applied. */
export function portfolioHref(filter: PortfolioFilter): string {
  const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return query ? `${PATHS.creditPortfolio}?${query}` : PATHS.creditPortfolio;
}

/**
 * The audit log of what the collection policy did to devices on a day (the actor *Política de
 * cobranza*, one row per device and action). The audit page reads a bare date as a UTC day.
 */
export function policyAuditHref(action: 'lock' | 'unlock', day: string): string {
  const params = new URLSearchParams({ actor: COLLECTION_POLICY_ACTOR, entity: 'device', action, from: day, to: day });
  return `${PATHS.audit}?${params.toString()}`;
}
