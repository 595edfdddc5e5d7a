/**
 * Credits: money in exact cents, calendar dates in the company's time zone, working days,
 * installment schedules, how payments cover them, and where a credit stands. Pure functions,
 * for the server and the browser alike.
 */
export { MAX_AMOUNT_CENTS, formatAmount, formatMoney, isCents, parseAmount, splitCents } from './money';
export { addDays, calendarDate, dateParts, dayOfWeek, daysBetween, isCalendarDate, lastDayOfMonth, type DateParts } from './calendarDate';
export { DEFAULT_TIME_ZONE, instantAt, isTimeZone, todayIn } from './timeZone';
export { isWorkingDay, mexicanHolidays, nextWorkingDay, type WorkingCalendar } from './workingDays';
export { MAX_INSTALLMENTS, SCHEDULE_KINDS, buildSchedule, type Installment, type ScheduleInput, type ScheduleKind } from './schedule';
export { allocate, compareInstallments, type AllocatedInstallment, type Allocation } from './allocation';
export { CREDIT_STATES, standing, type CreditState, type Standing, type StandingInput } from './standing';
export {
  LADDER_KINDS,
  RELEASE_MODES,
  planCollection,
  renderTemplate,
  stepKey,
  type CollectionPolicy,
  type LadderKind,
  type Plan,
  type PlanCredit,
  type PlannedStep,
  type ReleaseMode,
  type Reminder,
  type Rung,
  type SkippedStep,
  type TemplateValues,
} from './collectionPlan';
export {
  DEFAULT_COLLECTION_POLICY,
  POLICY_KEYS,
  effectiveSettings,
  resolvePolicy,
  type CollectionPolicySettings,
  type PolicyKey,
} from './policySettings';
