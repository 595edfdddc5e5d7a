/**
 * The settings an agent applies, per device type: global values with optional per-group
 * overrides (table `agent_settings`, each row holding only what it sets). Until an administrator
 * saves a value, the defaults below apply. The agent reads the merged result
 * (GET /agent/v1/settings); the server reads the enrollment and SIM rules from it too.
 */
import type { DeviceTypeCode, RestrictionFlag } from './constants/domain';

export type AgentSettings = Record<RestrictionFlag, boolean> & {
  /** A group token may enroll a device nobody registered (it is created in the token's group). */
  allow_unregistered_enrollment: boolean;
};

const OFF: Record<RestrictionFlag, boolean> = {
  disable_incoming_calls: false,
  disable_outgoing_calls: false,
  lock_sim_change: false,
  disable_sms: false,
  disable_camera: false,
  disable_screen_capture: false,
  require_QR_validation: false,
  require_sim_for_enroll: false,
  enabled_lock_for_remove_sim: false,
  disable_tv_hospitality_mode: false,
  disable_media_player: false,
  disable_streaming: false,
};

/** What applies before anything is saved: enrollment by QR code; phones lock when their SIM is changed. */
export const AGENT_SETTINGS_DEFAULTS: Record<DeviceTypeCode, AgentSettings> = {
  1: { ...OFF, require_QR_validation: true, lock_sim_change: true, allow_unregistered_enrollment: false },
  2: { ...OFF, require_QR_validation: true, allow_unregistered_enrollment: false },
};

/** The settings of a device: the defaults of its type, then the global row, then its group's row. */
export function effectiveSettings(
  deviceType: DeviceTypeCode,
  global: Record<string, unknown> | undefined,
  group: Record<string, unknown> | undefined,
): AgentSettings {
  const merged: Record<string, unknown> = { ...AGENT_SETTINGS_DEFAULTS[deviceType] };
  for (const layer of [global, group]) {
    for (const [k, v] of Object.entries(layer ?? {})) if (k in merged && typeof v === typeof merged[k]) merged[k] = v;
  }
  return merged as AgentSettings;
}
