import type { SettingField, SettingsValues, SettingValue } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { SPEC_TEXT } from '../../../shared/messages';

const C = AGENT_SETTINGS_LABELS.common;

/**
 * What the section form holds: each setting's value as its input has it (a string for texts,
 * '' for an empty nullable value, a number for integers, a boolean for flags) and, in a group's
 * scope, the keys the group overrides.
 */
export interface SettingsFormFields {
  values: Record<string, unknown>;
  overridden: string[];
}

/** What a save sends: every value of the section (global) or the group's overrides. */
export interface SettingsFormOutput {
  values: SettingsValues;
}

/** A stored value as its input holds it (null is the empty text). */
export function toFormValue(value: SettingValue | undefined): boolean | number | string {
  return value === null || value === undefined ? '' : value;
}

/** The form's values of a scope's answer. */
export function formValuesOf(fields: readonly SettingField[], values: SettingsValues): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.key, toFormValue(values[f.key])]));
}

/** A setting's value in words: Sí/No for flags, the option's label, the number with its unit, '-' when empty. */
export function formatSettingValue(field: SettingField | undefined, value: SettingValue | undefined): string {
  if (value === undefined || value === null || value === '') return SPEC_TEXT.emptyValue;
  if (!field) return String(value);
  switch (field.kind) {
    case 'flag':
      return value === true ? C.yes : C.no;
    case 'choice':
      return field.options.find((o) => o.value === value)?.label ?? String(value);
    case 'integer':
      return `${typeof value === 'number' ? value.toLocaleString('es-MX') : String(value)} ${field.unit}`;
    case 'logo':
      return C.image;
    default:
      return String(value);
  }
}
