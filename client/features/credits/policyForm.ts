import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { COLLECTION_POLICY_LABELS } from '../../../shared/constants/collectionPolicyLabels';
import { COLLECTION_POLICY_FIELD_LABELS } from '../../../shared/constants/collectionPolicyFieldLabels';
import type { CollectionPolicyValues } from '../../../shared/contracts/credits';
import { formatAmount } from '../../../shared/credits/money';
import { DEFAULT_COLLECTION_POLICY, POLICY_KEYS, type CollectionPolicySettings, type PolicyKey } from '../../../shared/credits/policySettings';

const P = COLLECTION_POLICY_LABELS;
const C = AGENT_SETTINGS_LABELS.common;
const H = AGENT_SETTINGS_LABELS.history;

/**
 * What the policy's form holds: the settings as their inputs have them (the company's holidays as
 * one text, a date a line) and, in a group's scope, the keys the group overrides.
 */
export type PolicyFormValues = Omit<CollectionPolicySettings, 'holidays' | 'unlockThresholdCents'> & {
  holidays: string;
  /** An amount as people write it ('500.00'); the API takes cents. */
  unlockThresholdCents: string;
};

export interface PolicyFormFields {
  values: PolicyFormValues;
  overridden: string[];
}

/** What a save sends: every value (Global) or the group's overrides. */
export interface PolicyFormOutput {
  values: CollectionPolicyValues;
}

/** A key's Spanish label (the API's, so the page and its errors name fields alike). */
export const policyLabel = (key: PolicyKey): string => COLLECTION_POLICY_FIELD_LABELS[key];

/** A stored value of `key` as its inputs hold it. */
export function toFormValue<K extends PolicyKey>(key: K, value: unknown): PolicyFormValues[K] {
  const v = value === undefined ? DEFAULT_COLLECTION_POLICY[key] : value;
  if (key === 'holidays') return (v as string[]).join('\n') as PolicyFormValues[K];
  if (key === 'unlockThresholdCents') return formatAmount(v as number) as PolicyFormValues[K];
  return v as PolicyFormValues[K];
}

/** The form's values of a scope's answer (any key it lacks takes the default). */
export function formValuesOf(values: Record<string, unknown>): PolicyFormValues {
  return Object.fromEntries(POLICY_KEYS.map((k) => [k, toFormValue(k, values[k])])) as PolicyFormValues;
}

const list = (items: string[]) => (items.length === 0 ? P.none : items.join('; '));

/** A value in words (the inherited markers, the history). */
export function policyValueText(key: PolicyKey, value: unknown): string {
  const s = { [key]: value } as Partial<CollectionPolicySettings>;
  switch (key) {
    case 'reminders':
      return list(s.reminders!.map((r) => `${P.days(r.offsetDays)}${r.barcode ? ` ${P.withBarcode}` : ''}`));
    case 'ladder':
      return list(s.ladder!.map((r) => `${P.days(r.daysOverdue)}: ${P.kinds[r.kind]}`));
    case 'lock':
      return s.lock!.enabled ? P.lockAt(P.days(s.lock!.daysOverdue)) : P.lockOff;
    case 'hours':
      return `${s.hours!.from}–${s.hours!.to}`;
    case 'nonWorkingWeekdays':
      return list(s.nonWorkingWeekdays!.map((d) => P.weekdays[d] ?? String(d)));
    case 'holidays':
      return list(s.holidays!);
    case 'mexicanHolidays':
    case 'shiftDueDates':
      return value === true ? C.yes : C.no;
    case 'unlockThresholdCents':
      return formatAmount(s.unlockThresholdCents!);
    case 'release':
      return P.releaseModes[s.release!];
    case 'manualUnlockHoldHours':
      return P.hoursValue(s.manualUnlockHoldHours!);
  }
}

/** One change of the history in words: 'Etiqueta: antes → después' (absent: the default, or for a group the inherited value). */
export function policyChangeText(change: { key: string; before?: unknown; after?: unknown }, isGroup: boolean): string {
  const key = POLICY_KEYS.find((k) => k === change.key);
  if (!key) return change.key;
  const side = (v: unknown) =>
    v !== undefined ? policyValueText(key, v) : isGroup ? H.inheritedValue : H.defaultOf(policyValueText(key, DEFAULT_COLLECTION_POLICY[key]));
  return `${policyLabel(key)}: ${side(change.before)} ${H.arrow} ${side(change.after)}`;
}
