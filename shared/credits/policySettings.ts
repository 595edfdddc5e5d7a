/**
 * The collection policy as an administrator edits it (*Política de cobranza*): global settings with
 * per-group overrides, key by key, like the agent settings. `resolvePolicy` turns the effective
 * settings into what the plan reads, with Mexico's official rest days filled in for the years
 * around the given date when the policy takes them.
 */
import { COLLECTION_POLICY_DEFAULT_TEXTS as T } from '../constants/collectionPolicyDefaults';
import { dateParts } from './calendarDate';
import type { CollectionPolicy, ReleaseMode, Reminder, Rung } from './collectionPlan';
import { mexicanHolidays } from './workingDays';

export interface CollectionPolicySettings {
  reminders: Reminder[];
  ladder: Rung[];
  lock: { enabled: boolean; daysOverdue: number; message: string };
  hours: { from: string; to: string };
  /** Days of the week nobody works, 0 Sunday … 6 Saturday. */
  nonWorkingWeekdays: number[];
  /** Mexico's official rest days (Ley Federal del Trabajo, art. 74) count as holidays. */
  mexicanHolidays: boolean;
  /** The company's own holidays, 'YYYY-MM-DD'. */
  holidays: string[];
  shiftDueDates: boolean;
  unlockThresholdCents: number;
  release: ReleaseMode;
  manualUnlockHoldHours: number;
}

/** The keys a group may override, each as a whole (a group's ladder replaces the global ladder). */
export const POLICY_KEYS = [
  'reminders',
  'ladder',
  'lock',
  'hours',
  'nonWorkingWeekdays',
  'mexicanHolidays',
  'holidays',
  'shiftDueDates',
  'unlockThresholdCents',
  'release',
  'manualUnlockHoldHours',
] as const satisfies readonly (keyof CollectionPolicySettings)[];
export type PolicyKey = (typeof POLICY_KEYS)[number];

/** What a new portal starts with: reminders 3 days before and on the day, a ladder, the lock at 7 days, 08:00–20:00 Monday to Saturday. */
export const DEFAULT_COLLECTION_POLICY: CollectionPolicySettings = {
  reminders: [
    { offsetDays: -3, message: T.reminderBefore, barcode: false },
    { offsetDays: 0, message: T.reminderDue, barcode: true },
  ],
  ladder: [
    { daysOverdue: 1, kind: 'notification', message: T.overdue },
    { daysOverdue: 3, kind: 'persistent_notification', message: T.persistent },
    { daysOverdue: 5, kind: 'restrictions', message: '' },
  ],
  lock: { enabled: true, daysOverdue: 7, message: T.lock },
  hours: { from: '08:00', to: '20:00' },
  nonWorkingWeekdays: [0],
  mexicanHolidays: true,
  holidays: [],
  shiftDueDates: false,
  unlockThresholdCents: 0,
  release: 'approval',
  manualUnlockHoldHours: 24,
};

/** The settings a scope sees: the group's overrides over the global ones over the defaults. */
export function effectiveSettings(
  global: Partial<CollectionPolicySettings>,
  group: Partial<CollectionPolicySettings> = {},
): CollectionPolicySettings {
  return { ...DEFAULT_COLLECTION_POLICY, ...global, ...group };
}

/** Years of official rest days a resolved policy carries: the one before `today`'s and the two after, enough for any plan made today. */
const HOLIDAY_YEARS = [-1, 0, 1, 2];

/** What the plan reads, on `today` (the company's date). */
export function resolvePolicy(s: CollectionPolicySettings, today: string): CollectionPolicy {
  const { year } = dateParts(today);
  const official = s.mexicanHolidays ? HOLIDAY_YEARS.flatMap((d) => mexicanHolidays(year + d)) : [];
  return {
    reminders: s.reminders,
    ladder: s.ladder,
    lock: s.lock,
    hours: s.hours,
    calendar: { nonWorkingWeekdays: s.nonWorkingWeekdays, holidays: [...new Set([...official, ...s.holidays])].sort() },
    shiftDueDates: s.shiftDueDates,
    unlockThresholdCents: s.unlockThresholdCents,
    release: s.release,
    manualUnlockHoldHours: s.manualUnlockHoldHours,
  };
}
