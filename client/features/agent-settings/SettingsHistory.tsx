import { settingField, type SettingsSection } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import type { SettingsChange } from '../../../shared/contracts/agentSettings';
import { HistoryCard } from '../../components/HistoryCard';
import { formatSettingValue } from './settingsForm';

const L = AGENT_SETTINGS_LABELS.history;

/** One change in words: 'Etiqueta: antes → después' (an absent value is the default, or for a group the inherited one). */
export function changeText(change: SettingsChange['changes'][number], deviceType: DeviceTypeCode, isGroup: boolean): string {
  const field = settingField(change.key);
  const unset = isGroup ? L.inheritedValue : field ? L.defaultOf(formatSettingValue(field, field.defaults[deviceType])) : L.defaultValue;
  const side = (v: SettingsChange['changes'][number]['before']) => (v === undefined ? unset : formatSettingValue(field, v));
  return `${field?.label ?? change.key}: ${side(change.before)} ${L.arrow} ${side(change.after)}`;
}

export interface SettingsHistoryProps {
  history: readonly SettingsChange[];
  deviceType: DeviceTypeCode;
  section: SettingsSection;
  isGroup: boolean;
}

/** 'Historial de cambios' of a section's scope: the changes of that section only. */
export function SettingsHistory({ history, deviceType, section, isGroup }: SettingsHistoryProps) {
  const entries = history
    .map((h) => ({ ...h, changes: h.changes.filter((c) => settingField(c.key)?.section === section.key) }))
    .filter((h) => h.changes.length > 0);
  return <HistoryCard entries={entries} describe={(c) => changeText(c, deviceType, isGroup)} />;
}
