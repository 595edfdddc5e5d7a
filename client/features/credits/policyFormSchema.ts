import * as z from 'zod';
import { CREDIT_MESSAGES as M } from '../../../shared/areaMessages/credit';
import { collectionPolicyValues, rungAfterLock, UNLOCK_THRESHOLD_MAX_CENTS } from '../../../shared/contracts/credits';
import { parseAmount } from '../../../shared/credits/money';
import { DEFAULT_COLLECTION_POLICY, POLICY_KEYS, type PolicyKey } from '../../../shared/credits/policySettings';
import { policyLabel, type PolicyFormOutput, type PolicyFormValues } from './policyForm';

/** An input's value as the API takes it: the holidays' text split into dates, the threshold in cents (undefined: not an amount). */
function toApiValue(key: PolicyKey, value: unknown): unknown {
  if (key === 'unlockThresholdCents') {
    const cents = typeof value === 'string' ? parseAmount(value.trim()) : null;
    return cents !== null && cents <= UNLOCK_THRESHOLD_MAX_CENTS ? cents : undefined;
  }
  if (key !== 'holidays') return value;
  return typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value;
}

/** Where a contract's issue shows: a list of plain values (weekdays, holidays) under its one input. */
function formPath(path: readonly PropertyKey[]): PropertyKey[] {
  const [key] = path;
  return key === 'holidays' || key === 'nonWorkingWeekdays' ? ['values', key] : ['values', ...path];
}

/**
 * The form's schema: the values (Global: all; a group: the keys it overrides) through the API's
 * own contract, so the page's messages are the server's and name the field; then, on the values
 * that will apply (a group's over Global's), the rule across keys the API checks too.
 */
export function policyFormSchema(group: boolean, globalValues: Record<string, unknown>) {
  return z.object({ values: z.custom<PolicyFormValues>(), overridden: z.array(z.string()) }).transform((form, ctx): PolicyFormOutput => {
    const own = new Set(form.overridden);
    const keys = POLICY_KEYS.filter((k) => !group || own.has(k));
    const sent = Object.fromEntries(keys.map((k) => [k, toApiValue(k, form.values[k])]));
    // Not an amount: said in pesos under its input, and the other keys still checked.
    if (keys.includes('unlockThresholdCents') && sent.unlockThresholdCents === undefined) {
      const message = M.field.threshold(policyLabel('unlockThresholdCents'));
      ctx.issues.push({ code: 'custom', message, input: undefined, path: ['values', 'unlockThresholdCents'] });
      delete sent.unlockThresholdCents;
    }
    const parsed = collectionPolicyValues.safeParse(sent);
    if (parsed.success) {
      const applied = { ...DEFAULT_COLLECTION_POLICY, ...(group ? globalValues : {}), ...parsed.data };
      const late = rungAfterLock(applied);
      if (late) ctx.issues.push({ code: 'custom', message: late.message, input: undefined, path: ['values', 'ladder', late.index, 'daysOverdue'] });
      return { values: parsed.data };
    }
    for (const issue of parsed.error.issues)
      ctx.issues.push({ code: 'custom', message: issue.message, input: undefined, path: formPath(issue.path) });
    return { values: {} };
  });
}
