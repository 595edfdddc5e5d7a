import { DEVICE_TYPE_SLUGS, SETTINGS_SECTIONS, type SettingsSection } from '../../../shared/agentSettings';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS, type RoutePath } from '../../../shared/constants/routes';

const TYPES = Object.keys(DEVICE_TYPE_SLUGS).map(Number) as DeviceTypeCode[];

/** The section page a path is, and its device type (undefined for any other path). */
export function sectionOfPath(path: string): { section: SettingsSection; deviceType: DeviceTypeCode } | undefined {
  for (const section of SETTINGS_SECTIONS) {
    const deviceType = TYPES.find((t) => section.paths[t] === path);
    if (deviceType !== undefined) return { section, deviceType };
  }
  return undefined;
}

/** The overview page of each device type. */
export const OVERVIEW_PATHS = { 1: PATHS.agentSettings, 2: PATHS.agentSettingsTv } as const satisfies Record<DeviceTypeCode, RoutePath>;

/** The lock-app page of each device type. */
export const LOCK_APP_PATHS = { 1: PATHS.appLock, 2: PATHS.appLockTv } as const satisfies Record<DeviceTypeCode, RoutePath>;

/** The device type of an overview path. */
export function deviceTypeOfOverview(path: string): DeviceTypeCode | undefined {
  return TYPES.find((t) => OVERVIEW_PATHS[t] === path);
}
