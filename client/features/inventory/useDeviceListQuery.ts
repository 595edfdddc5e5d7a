import { useCallback, useMemo } from 'react';
import { DEVICE_TYPES, findStatusFilter, type LockType } from '../../../shared/constants/domain';
import {
  AGENT_VERSION_MAX,
  DEVICE_SORTS,
  DEVICES_DEFAULT_PER_PAGE,
  LOCK_TYPE_KEYS,
  SEARCH_MAX,
  type DeviceSort,
} from '../../../shared/constants/limits';
import type { DeviceFilterInput } from '../../../shared/contracts/devices';
import { acceptsDateParam, acceptsTextParam } from '../../../shared/paramChecks';
import { listParam, listParams, nextSort, useListParams } from '../../components/useListParams';
import type { DeviceFilterArgs, DeviceListArgs } from './inventoryApi';

/** An action the URL asks to open on the device's detail (`action`, and `lockType` for a LOCK). */
export interface OpenAction {
  action: number;
  lockType?: LockType;
}

/** Page sizes of the device lists (the default is 25). */
export const DEVICE_PER_PAGE_OPTIONS = [25, 50, 100] as const;

export type DeviceFilterKey =
  'status' | 'deviceType' | 'groupId' | 'search' | 'inFlight' | 'locked' | 'agentVersion' | 'agentVersionNot' | 'releasedFrom';

/** A group filter: a group id, or 'none' (devices without a group). */
export const GROUP_FILTER_PATTERN = /^(none|[1-9]\d{0,9})$/;

/** The URL of the enrolled devices list: only values the API accepts (no 400 from a hand-edited URL). */
const devicesListParams = listParams({
  page: listParam.page(),
  perPage: listParam.perPage(DEVICE_PER_PAGE_OPTIONS, DEVICES_DEFAULT_PER_PAGE),
  sort: listParam.oneOf(DEVICE_SORTS),
  order: listParam.order(),
  status: listParam.satisfying((v) => findStatusFilter(v) !== undefined),
  deviceType: listParam.matching(new RegExp(`^(${DEVICE_TYPES.map((t) => t.code).join('|')})$`)),
  groupId: listParam.matching(GROUP_FILTER_PATTERN),
  search: listParam.text(SEARCH_MAX),
  /** Only 'true' (a command in flight): the one value a link sets. */
  inFlight: listParam.matching(/^true$/),
  /** Only 'true' (locked or being locked: the dashboard's Bloqueados card). */
  locked: listParam.matching(/^true$/),
  // The API's own checks (shared/paramChecks): a version it would refuse (too long, control characters) reads as none.
  agentVersion: listParam.trimmed((v) => acceptsTextParam(v, AGENT_VERSION_MAX)),
  agentVersionNot: listParam.trimmed((v) => acceptsTextParam(v, AGENT_VERSION_MAX)),
  // A day or an instant the API accepts, kept as written (the chip shows it, the API reads it).
  releasedFrom: listParam.satisfying(acceptsDateParam),
  device: listParam.matching(/^[1-9]\d{0,15}$/),
  /** A device action to open on the detail once (Conciliación's fix: Bloquear, Desbloquear, Liberar), and a LOCK's lock type to start on. */
  action: listParam.matching(/^[0-2]$/),
  lockType: listParam.oneOf(LOCK_TYPE_KEYS),
});

/**
 * The enrolled devices list as the URL holds it (page, perPage, sort, order, status,
 * deviceType, groupId, search, inFlight, agentVersion, agentVersionNot, releasedFrom and the open detail
 * `device`), the API arguments built from it, and the setters that change it.
 */
export function useDeviceListQuery() {
  const { params, set } = useListParams(devicesListParams);
  const { page, perPage, sort } = params;
  const order = sort ? (params.order ?? 'asc') : undefined;
  const status = params.status ?? '';
  const deviceType = params.deviceType ?? '';
  const groupId = params.groupId ?? '';
  const search = params.search;
  const inFlight = params.inFlight ?? '';
  const locked = params.locked ?? '';
  const agentVersion = params.agentVersion ?? '';
  const agentVersionNot = params.agentVersionNot ?? '';
  const releasedFrom = params.releasedFrom ?? '';
  const device = params.device ? Number(params.device) : null;
  const openAction = useMemo<OpenAction | null>(
    () => (params.action ? { action: Number(params.action), lockType: params.lockType } : null),
    [params.action, params.lockType],
  );
  const filters: Record<DeviceFilterKey, string> = {
    status,
    deviceType,
    groupId,
    search,
    inFlight,
    locked,
    agentVersion,
    agentVersionNot,
    releasedFrom,
  };

  /** The filter the list, the export and a bulk selection share. */
  const filter = useMemo<DeviceFilterArgs>(
    () => ({
      stage: 'enrolled',
      status: status || undefined,
      deviceType: deviceType || undefined,
      groupId: groupId || undefined,
      search: search || undefined,
      inFlight: inFlight || undefined,
      locked: locked || undefined,
      agentVersion: agentVersion || undefined,
      agentVersionNot: agentVersionNot || undefined,
      releasedFrom: releasedFrom || undefined,
    }),
    [status, deviceType, groupId, search, inFlight, locked, agentVersion, agentVersionNot, releasedFrom],
  );
  const args: DeviceListArgs = { ...filter, sort, order, page, perPage };
  /** A key that changes whenever the set of matching devices may change (the selection resets with it). */
  const filterKey = JSON.stringify(filter);
  const filtersActive = Object.values(filters).some(Boolean);

  const setFilter = useCallback((key: DeviceFilterKey, value: string) => set({ [key]: value }), [set]);
  const clearFilters = useCallback(
    () =>
      set({ status: '', deviceType: '', groupId: '', search: '', inFlight: '', locked: '', agentVersion: '', agentVersionNot: '', releasedFrom: '' }),
    [set],
  );
  /** Ascending, then descending, then back to the default order (newest first). */
  const toggleSort = useCallback((column: DeviceSort) => set(nextSort({ sort, order }, column, { clearable: true })), [sort, order, set]);
  const setPage = useCallback((p: number) => set({ page: p }), [set]);
  const setPerPage = useCallback((n: number) => set({ perPage: n }), [set]);
  const openDevice = useCallback((id: number) => set({ device: id }, { keepPage: true }), [set]);
  const closeDevice = useCallback(() => set({ device: '' }, { keepPage: true }), [set]);
  const clearAction = useCallback(() => set({ action: '', lockType: '' }, { keepPage: true, replace: true }), [set]);

  return {
    args,
    filter,
    filterKey,
    filters,
    filtersActive,
    sort,
    order,
    page,
    perPage,
    device,
    openAction,
    clearAction,
    setFilter,
    clearFilters,
    toggleSort,
    setPage,
    setPerPage,
    openDevice,
    closeDevice,
  };
}

/** The list filter as a bulk selection carries it in the JSON body. */
export function selectionFilter(filter: DeviceFilterArgs): DeviceFilterInput {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== '')) as DeviceFilterInput;
}
