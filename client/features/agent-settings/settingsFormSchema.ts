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
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { sectionValues } from '../../../shared/contracts/agentSettings';
import type { SettingsFormOutput } from './settingsForm';

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
