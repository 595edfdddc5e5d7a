import { useCallback, useMemo } from 'react';
import { STATUS_FILTERS } from '../../../shared/constants/domain';
import {
  DEVICE_SORTS,
  DEVICES_DEFAULT_PER_PAGE,
  SEARCH_MAX,
  type DeviceFilterInput,
  type DeviceSort,
} from '../../../shared/contracts/devices';
import { useUrlQuery } from '../../components/useUrlQuery';
import type { DeviceFilterArgs, DeviceListArgs } from './inventoryApi';

/** Page sizes of the device lists (the default is 25). */
export const DEVICE_PER_PAGE_OPTIONS = [25, 50, 100] as const;

const KEYS = ['sort', 'order', 'status', 'deviceType', 'groupId', 'search', 'device'] as const;
const FILTER_KEYS = ['status', 'deviceType', 'groupId', 'search'] as const;
export type DeviceFilterKey = (typeof FILTER_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

/** The URL's values that the API accepts; anything else is ignored rather than sent (no 400 from a hand-edited URL). */
function parse(raw: Record<(typeof KEYS)[number], string>) {
  const sort = (DEVICE_SORTS as readonly string[]).includes(raw.sort) ? (raw.sort as DeviceSort) : undefined;
  const order: SortOrder | undefined = raw.order === 'asc' || raw.order === 'desc' ? raw.order : undefined;
  const status = STATUS_FILTERS.some((f) => f.value === raw.status) ? raw.status : '';
  const deviceType = raw.deviceType === '1' || raw.deviceType === '2' ? raw.deviceType : '';
  const groupId = raw.groupId === 'none' || /^[1-9]\d{0,9}$/.test(raw.groupId) ? raw.groupId : '';
  const search = raw.search.trim().slice(0, SEARCH_MAX);
  const device = /^[1-9]\d{0,15}$/.test(raw.device) ? Number(raw.device) : null;
  return { sort, order, filters: { status, deviceType, groupId, search } as Record<DeviceFilterKey, string>, device };
}

/**
 * The enrolled devices list as the URL holds it (page, perPage, sort, order, status,
 * deviceType, groupId, search and the open detail `device`), the API arguments built from it,
 * and the setters that change it.
 */
export function useDeviceListQuery() {
  const { page, perPage, filters: raw, update } = useUrlQuery(KEYS, {
    perPageOptions: DEVICE_PER_PAGE_OPTIONS,
    defaultPerPage: DEVICES_DEFAULT_PER_PAGE,
  });
  const { sort, order, filters, device } = parse(raw);
  const { status, deviceType, groupId, search } = filters;

  /** The filter the list, the export and a bulk selection share. */
  const filter = useMemo<DeviceFilterArgs>(
    () => ({
      stage: 'enrolled',
      status: status || undefined,
      deviceType: deviceType || undefined,
      groupId: groupId || undefined,
      search: search || undefined,
    }),
    [status, deviceType, groupId, search],
  );
  const args: DeviceListArgs = { ...filter, sort, order: sort ? (order ?? 'asc') : undefined, page, perPage };
  /** A key that changes whenever the set of matching devices may change (the selection resets with it). */
  const filterKey = JSON.stringify(filter);
  const filtersActive = Boolean(status || deviceType || groupId || search);

  const setFilter = useCallback((key: DeviceFilterKey, value: string) => update({ [key]: value }), [update]);
  const clearFilters = useCallback(() => update({ status: '', deviceType: '', groupId: '', search: '' }), [update]);
  /** Ascending, then descending, then back to the default order (newest first). */
  const toggleSort = useCallback(
    (column: DeviceSort) => {
      if (sort !== column) update({ sort: column, order: 'asc' });
      else if ((order ?? 'asc') === 'asc') update({ sort: column, order: 'desc' });
      else update({ sort: '', order: '' });
    },
    [sort, order, update],
  );
  const setPage = useCallback((p: number) => update({ page: p }), [update]);
  const setPerPage = useCallback((n: number) => update({ perPage: n }), [update]);
  const openDevice = useCallback((id: number) => update({ device: id }, { keepPage: true }), [update]);
  const closeDevice = useCallback(() => update({ device: '' }, { keepPage: true }), [update]);

  return {
    args,
    filter,
    filterKey,
    filters,
    filtersActive,
    sort,
    order: sort ? (order ?? 'asc') : undefined,
    page,
    perPage,
    device,
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
