import * as z from 'zod';
import {
  crossFieldIssues,
  fieldsOf,
  isActive,
  type SettingField,
  type SettingsSectionKey,
  type SettingsValues,
  type SettingValue,
} from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { SPEC_TEXT } from '../../../shared/messages';
import { sectionValues } from '../../../shared/contracts/agentSettings';

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

/**
 * The section form's schema: each value through the API's own schema of the setting
 * (`sectionValues`, so the messages are the server's), then the rules across fields
 * (`crossFieldIssues`) on the values that will apply. A field hidden by its `when`, or a value a
 * group inherits, cannot be corrected on the page: when it does not pass, the loaded value is
 * kept instead of blocking the save. A group's save sends only the keys it overrides.
 */
export function settingsFormSchema(
  deviceType: DeviceTypeCode,
  section: SettingsSectionKey,
  scope: { group: boolean; loaded: SettingsValues; globalValues: SettingsValues },
) {
  const fields = fieldsOf(deviceType, section);
  const shape = sectionValues(deviceType, section).shape as Record<string, z.ZodType<SettingValue | undefined>>;
  return z.object({ values: z.record(z.string(), z.unknown()), overridden: z.array(z.string()) }).transform((form, ctx): SettingsFormOutput => {
    const own = new Set(form.overridden);
    const parsed: SettingsValues = {};
    const failed: { field: SettingField; message: string }[] = [];
    for (const f of fields) {
      const raw = form.values[f.key];
      // The logo's input holds '' for none; its schema takes null.
      const result = shape[f.key]!.safeParse(f.kind === 'logo' && raw === '' ? null : raw);
      if (result.success) parsed[f.key] = result.data ?? null;
      else {
        failed.push({ field: f, message: result.error.issues[0]?.message ?? '' });
        parsed[f.key] = scope.loaded[f.key] ?? null;
      }
    }
    const counts = (f: SettingField) => isActive(f, parsed) && (!scope.group || own.has(f.key));
    for (const { field, message } of failed) {
      if (counts(field)) ctx.issues.push({ code: 'custom', message, input: form.values[field.key], path: ['values', field.key] });
    }
    const sent: SettingsValues = scope.group ? Object.fromEntries(fields.filter((f) => own.has(f.key)).map((f) => [f.key, parsed[f.key]!])) : parsed;
    const applied = scope.group ? { ...scope.globalValues, ...sent } : parsed;
    for (const issue of crossFieldIssues(deviceType, section, applied)) {
      ctx.issues.push({ code: 'custom', message: issue.message, input: form.values[issue.field], path: ['values', issue.field] });
    }
    return { values: sent };
  });
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
