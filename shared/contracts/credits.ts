import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { INSTALLMENT_STATES, OVERDUE_BUCKETS, PAYMENT_SOURCES, RECONCILIATION_KINDS } from '../constants/creditLabels';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { CREDIT_MESSAGES as M } from '../areaMessages/credit';
import { CREDIT_STATES, LADDER_KINDS, MAX_INSTALLMENTS, RELEASE_MODES, isCalendarDate, parseAmount } from '../credits';
import { deviceResponse, groupFilterParam, imeiField } from './devices';
import {
  booleanParam,
  csvZoneFields,
  fieldError,
  intParam,
  listResponse,
  oneOfParam,
  pagingParams,
  paramError,
  textField,
  textParam,
} from './fields';
import { CREDIT_SORTS, CREDITS_DEFAULT_PER_PAGE, DEVICE_TEXT_MAX, RECONCILIATION_DEFAULT_PER_PAGE, SEARCH_MAX } from '../constants/limits';
import { DATE_PARAM_MAX, DATE_PARAM_MIN } from '../paramChecks';

/**
 * Credits: the loans that finance devices, their installments and payments. Money travels as
 * decimal strings ('1250.00': exact, never a float) and is parsed into integer cents
 * (shared/credits parseAmount); due dates are calendar dates 'YYYY-MM-DD' in the company's time
 * zone; instants are ISO 8601. A credit is named by its reference (what devices carry as
 * Referencia de crédito), compared ignoring case.
 */

const F = ADMIN_API_MESSAGES.field;
const L = FIELD_LABELS.credits;
const P = FIELD_LABELS.payments;
const Q = FIELD_LABELS.creditFilter;

export const CUSTOMER_NAME_MAX = DEVICE_TEXT_MAX.customerName;
/** IMEIs one credit body may name (a phone and a TV is the common case). */
export const CREDIT_IMEIS_MAX = 50;
export const EXTERNAL_ID_MAX = 100;
export const DEFAULT_CURRENCY = 'MXN';
/** Payments are not dated before this instant (both databases store every instant after it). */
export const PAID_AT_MIN = '2000-01-01T00:00:00Z';

// Fields ---------------------------------------------------------------------------------

/** A credit reference in a path: trimmed, 1 to 64 characters (as devices carry it), no control characters. */
export const creditReferenceParam = z
  .string({ error: paramError(L.reference, M.field.reference(L.reference, DEVICE_TEXT_MAX.creditReference)) })
  .trim()
  .min(1, { error: M.field.reference(L.reference, DEVICE_TEXT_MAX.creditReference) })
  .max(DEVICE_TEXT_MAX.creditReference, { error: M.field.reference(L.reference, DEVICE_TEXT_MAX.creditReference) })
  // eslint-disable-next-line no-control-regex -- a reference is one line: no control characters
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { error: F.badCharacters(L.reference) });

/** An amount greater than zero: a decimal string with up to two decimals, parsed into cents. */
export const amountField = (label: string) =>
  z.string({ error: fieldError(label, M.field.amount(label)) }).transform((v, ctx) => {
    const cents = parseAmount(v);
    if (cents === null || cents === 0) {
      ctx.addIssue({ code: 'custom', message: M.field.amount(label) });
      return z.NEVER;
    }
    return cents;
  });

/** A due date: a real calendar date, between DATE_PARAM_MIN and DATE_PARAM_MAX (both databases store it). */
const dueDateField = (label: string) =>
  z
    .string({ error: fieldError(label, M.field.dueDate(label, DATE_PARAM_MIN, DATE_PARAM_MAX)) })
    .refine((v) => isCalendarDate(v) && v >= DATE_PARAM_MIN && v <= DATE_PARAM_MAX, {
      error: M.field.dueDate(label, DATE_PARAM_MIN, DATE_PARAM_MAX),
    });

/** A phone: 10 to 15 digits, an optional leading +; spaces, dashes, dots and parentheses typed by people are dropped. */
const phoneField = (label: string) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? null : v),
    z
      .string({ error: fieldError(label, M.field.phone(label)) })
      .transform((v) => v.replace(/[\s().-]/g, ''))
      .refine((v) => v === '' || /^\+?\d{10,15}$/.test(v), { error: M.field.phone(label) })
      .transform((v) => (v === '' ? null : v))
      .nullable(),
  );

const installmentField = z.object(
  {
    number: z.int({ error: fieldError(L.number, F.positiveInteger(L.number)) }).min(1, { error: F.positiveInteger(L.number) }),
    dueDate: dueDateField(L.dueDate),
    amount: amountField(L.amount),
  },
  { error: fieldError(L.installments, M.field.installment(L.installments)) },
);

// Requests -------------------------------------------------------------------------------

/** PUT /api/integration/v1/credits/{reference}: the reference. */
export const creditParams = z.object({ reference: creditReferenceParam });
export type CreditParams = z.infer<typeof creditParams>;

/**
 * PUT /api/integration/v1/credits/{reference}: the whole credit, created or replaced. Installments
 * are numbered 1…n in order, without gaps, their due dates strictly increasing; amounts are
 * decimal strings. `imeis` name devices that get the credit's reference; `cancelled` marks the
 * credit cancelled (no more payments; nothing overdue).
 */
export const creditBody = z
  .object(
    {
      customerName: textField(L.customerName, { min: 1, max: CUSTOMER_NAME_MAX }),
      customerPhone: phoneField(L.customerPhone).default(null),
      currency: z
        .string({ error: fieldError(L.currency, M.field.currency(L.currency)) })
        .regex(/^[A-Z]{3}$/, { error: M.field.currency(L.currency) })
        .default(DEFAULT_CURRENCY),
      cancelled: z.boolean({ error: fieldError(L.cancelled, M.field.boolean(L.cancelled)) }).default(false),
      imeis: z
        .array(imeiField(L.imeis), { error: fieldError(L.imeis, M.field.imeis(L.imeis, CREDIT_IMEIS_MAX)) })
        .max(CREDIT_IMEIS_MAX, { error: M.field.imeis(L.imeis, CREDIT_IMEIS_MAX) })
        .default([]),
      installments: z
        .array(installmentField, { error: fieldError(L.installments, M.field.installments(L.installments, MAX_INSTALLMENTS)) })
        .min(1, { error: M.field.installments(L.installments, MAX_INSTALLMENTS) })
        .max(MAX_INSTALLMENTS, { error: M.field.installments(L.installments, MAX_INSTALLMENTS) }),
    },
    { error: F.body },
  )
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.imeis.forEach((imei, i) => {
      if (seen.has(imei)) ctx.addIssue({ code: 'custom', path: ['imeis', i], message: M.field.imeiRepeated(L.imeis, imei) });
      seen.add(imei);
    });
    body.installments.forEach((inst, i) => {
      if (inst.number !== i + 1) ctx.addIssue({ code: 'custom', path: ['installments', i, 'number'], message: M.field.number(L.number, i + 1) });
      const previous = body.installments[i - 1];
      if (previous && inst.dueDate <= previous.dueDate) {
        ctx.addIssue({ code: 'custom', path: ['installments', i, 'dueDate'], message: M.field.dueDateOrder(L.dueDate) });
      }
    });
  });
export type CreditBody = z.infer<typeof creditBody>;
export type CreditBodyInput = z.input<typeof creditBody>;

/** A payment's id in the lender's (or the portal's) system: 1 to 100 visible ASCII characters. */
const externalIdField = (label: string, error: typeof fieldError) =>
  z
    .string({ error: error(label, M.field.externalId(label, EXTERNAL_ID_MAX)) })
    .regex(new RegExp(`^[\\x21-\\x7e]{1,${EXTERNAL_ID_MAX}}$`), { error: M.field.externalId(label, EXTERNAL_ID_MAX) });

/**
 * POST …/credits/{reference}/payments: a payment, applied to the oldest installments first. The
 * same externalId with the same data is a retry (the first answer again); with other data, 409.
 * `paidAt` may not be later than the server's clock (checked by the service).
 */
export const paymentBody = z.object(
  {
    externalId: externalIdField(P.externalId, fieldError),
    amount: amountField(P.amount),
    paidAt: z
      .string({ error: fieldError(P.paidAt, M.field.instant(P.paidAt, PAID_AT_MIN)) })
      .refine((v) => z.iso.datetime({ offset: true }).safeParse(v).success && Date.parse(v) >= Date.parse(PAID_AT_MIN), {
        error: M.field.instant(P.paidAt, PAID_AT_MIN),
      })
      .transform((v) => new Date(v)),
  },
  { error: F.body },
);
export type PaymentBody = z.infer<typeof paymentBody>;
export type PaymentBodyInput = z.input<typeof paymentBody>;

/** POST …/credits/{reference}/payments/{externalId}/reversal. */
export const paymentParams = z.object({ reference: creditReferenceParam, externalId: externalIdField(P.externalId, paramError) });
export type PaymentParams = z.infer<typeof paymentParams>;

/**
 * The portfolio's filters (list, export, summary links): the state on the company's date today;
 * `overdue`, a bucket of days overdue; `dueThisWeek`, an installment not fully paid due in the
 * seven days from today (true) or none (false); `paidToday`, a payment that stands dated on the
 * company's day today (true) or none (false); `groupId`, a device of the credit in that group
 * ('none': a device of the credit without a group); `search`, the reference or the customer's
 * name (case and accents ignored).
 */
export const creditFilterFields = {
  state: oneOfParam(Q.state, CREDIT_STATES).optional(),
  overdue: oneOfParam(Q.overdue, OVERDUE_BUCKETS).optional(),
  dueThisWeek: booleanParam(Q.dueThisWeek).optional(),
  paidToday: booleanParam(Q.paidToday).optional(),
  groupId: groupFilterParam(Q.groupId).optional(),
  search: textParam(Q.search, SEARCH_MAX).optional(),
};
export const creditFilter = z.object(creditFilterFields);
export type CreditFilter = z.infer<typeof creditFilter>;

/**
 * GET /v5/credits (and /export, which ignores paging). `dueDate` sorts by the due date of the
 * oldest installment not fully paid: ascending, the most overdue first, then the next due.
 */
export const creditListQuery = z.object({
  ...creditFilterFields,
  sort: oneOfParam(Q.sort, CREDIT_SORTS).default('dueDate'),
  order: oneOfParam(Q.order, ['asc', 'desc']).default('asc'),
  ...pagingParams(CREDITS_DEFAULT_PER_PAGE),
});
export type CreditListQuery = z.infer<typeof creditListQuery>;

/** GET /v5/credits/export: the list's filters and sort, and `tz`, the zone its dates are written in. */
export const creditExportQuery = creditListQuery.extend(csvZoneFields);
export type CreditExportQuery = z.infer<typeof creditExportQuery>;

// Responses ------------------------------------------------------------------------------

const amount = z.string();
const nullableAmount = z.string().nullable();
const nullableDate = z.string().nullable();

/** Where a credit stands today (the company's date): the state and the collector's figures. */
const standingFields = {
  reference: z.string(),
  currency: z.string(),
  state: z.enum(CREDIT_STATES),
  daysOverdue: z.number().int(),
  amountOverdue: amount,
  nextDueDate: nullableDate,
  nextDueAmount: nullableAmount,
  total: amount,
  paid: amount,
  balance: amount,
};
export const creditStandingResponse = z.strictObject(standingFields);
export type CreditStanding = z.infer<typeof creditStandingResponse>;

/** A row of the portfolio (GET /v5/credits), and the credit panel of a device (GET /v5/devices/:id/credit). */
export const creditRowResponse = z.strictObject({
  ...standingFields,
  customerName: z.string(),
  deviceCount: z.number().int(),
});
export type CreditRow = z.infer<typeof creditRowResponse>;
export const creditListResponse = listResponse(creditRowResponse);
export type CreditList = z.infer<typeof creditListResponse>;

/** GET /v5/devices/:id/credit: the credit whose reference the device carries, or null. */
export const deviceCreditResponse = creditRowResponse
  .extend({
    nextStep: z.lazy(() => nextStepResponse).nullable(),
  })
  .nullable();
export type DeviceCredit = z.infer<typeof deviceCreditResponse>;

const installmentResponse = z.strictObject({ number: z.number().int(), dueDate: z.string(), amount, paid: amount });
const paymentFields = {
  externalId: z.string(),
  amount,
  paidAt: z.string(),
  source: z.enum(PAYMENT_SOURCES),
  reversedAt: z.string().nullable(),
};
export const paymentResponse = z.strictObject(paymentFields);
export type Payment = z.infer<typeof paymentResponse>;
const creditDeviceResponse = z.strictObject({
  id: z.number().int(),
  imei: z.string(),
  deviceType: deviceResponse.shape.deviceType,
  status: deviceResponse.shape.status,
});
export type CreditDevice = z.infer<typeof creditDeviceResponse>;

/** GET /api/integration/v1/credits/{reference} (and the answer of its PUT). */
export const integrationCreditResponse = z.strictObject({
  ...standingFields,
  customerName: z.string(),
  customerPhone: z.string().nullable(),
  installments: z.array(installmentResponse),
  payments: z.array(paymentResponse),
  devices: z.array(creditDeviceResponse),
});
export type IntegrationCredit = z.infer<typeof integrationCreditResponse>;

/** GET /v5/credits/:reference: the credit, each installment's state today, who recorded and reversed each payment. */
export const creditDetailResponse = z.strictObject({
  ...integrationCreditResponse.shape,
  /** The company's date the figures are computed for. */
  today: z.string(),
  cancelled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  installments: z.array(installmentResponse.extend({ state: z.enum(INSTALLMENT_STATES) })),
  payments: z.array(paymentResponse.extend({ recordedAt: z.string(), recordedBy: z.string().nullable(), reversedBy: z.string().nullable() })),
  /** What the collection policy does next, its last steps (newest first), its pause (Promesa de pago). */
  nextStep: z.lazy(() => nextStepResponse).nullable(),
  steps: z.array(z.lazy(() => creditStepResponse)),
  pause: z.lazy(() => pauseResponse).nullable(),
});
export type CreditDetail = z.infer<typeof creditDetailResponse>;

/** A payment registered or reversed: the payment and the credit's new standing. */
export const paymentResultResponse = z.strictObject({ payment: paymentResponse, credit: creditStandingResponse });
export type PaymentResult = z.infer<typeof paymentResultResponse>;

const count = z.number().int();
const byCurrency = z.array(z.strictObject({ currency: z.string(), amount }));

/**
 * GET /v5/credits/summary: the portfolio's figures on the company's date `today`. Each equals the
 * total of the list filtered the matching way: byState (state=…), overdueBuckets (overdue=…),
 * dueThisWeek (dueThisWeek=true), amountOverdue the sum of amountOverdue over state=overdue, per
 * currency; paymentsToday counts the payments dated today (company date) that stand (the credits
 * they paid: paidToday=true; a credit paid twice today counts once there).
 */
export const creditSummaryResponse = z.strictObject({
  today: z.string(),
  timeZone: z.string(),
  total: count,
  byState: z.strictObject({ current: count, overdue: count, paid_off: count, cancelled: count }),
  overdueBuckets: z.strictObject({ '1-7': count, '8-30': count, '31+': count }),
  dueThisWeek: count,
  amountOverdue: byCurrency,
  paymentsToday: z.strictObject({ count, amounts: byCurrency }),
});
export type CreditSummary = z.infer<typeof creditSummaryResponse>;

// The collection policy ----------------------------------------------------------------------

const CP = FIELD_LABELS.collectionPolicy;
const TEMPLATE_MAX = 500;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const intField = (label: string, min: number, max: number) =>
  z
    .int({ error: fieldError(label, M.field.integer(label, min, max)) })
    .min(min, { error: M.field.integer(label, min, max) })
    .max(max, { error: M.field.integer(label, min, max) });
const boolField = (label: string) => z.boolean({ error: fieldError(label, M.field.boolean(label)) });
const timeField = (label: string) => z.string({ error: fieldError(label, M.field.time(label)) }).regex(HHMM, { error: M.field.time(label) });
const templateField = (label: string) => textField(label, { max: TEMPLATE_MAX });

/** The largest unlock threshold: 1,000,000.00 in the credit's currency. */
export const UNLOCK_THRESHOLD_MAX_CENTS = 100_000_000;

/** The policy's settings as an administrator saves them (each key optional: a group overrides some). */
export const collectionPolicyValues = z
  .strictObject(
    {
      reminders: z
        .array(
          z.strictObject(
            {
              offsetDays: intField(CP.offsetDays, -30, 30),
              message: textField(CP.reminderMessage, { min: 1, max: TEMPLATE_MAX }),
              barcode: boolField(CP.barcode),
            },
            { error: M.field.object(CP.reminders) },
          ),
          { error: fieldError(CP.reminders, M.field.list(CP.reminders, 10)) },
        )
        .max(10, { error: M.field.list(CP.reminders, 10) }),
      ladder: z
        .array(
          z.strictObject(
            {
              daysOverdue: intField(CP.daysOverdue, 1, 365),
              kind: z.enum(LADDER_KINDS, { error: fieldError(CP.kind, M.field.oneOf(CP.kind, LADDER_KINDS)) }),
              message: templateField(CP.rungMessage),
            },
            { error: M.field.object(CP.ladder) },
          ),
          { error: fieldError(CP.ladder, M.field.list(CP.ladder, 10)) },
        )
        .max(10, { error: M.field.list(CP.ladder, 10) }),
      lock: z.strictObject(
        {
          enabled: boolField(CP.lockEnabled),
          daysOverdue: intField(CP.lockDays, 1, 365),
          message: textField(CP.lockMessage, { min: 1, max: TEMPLATE_MAX }),
        },
        { error: M.field.object(CP.lock) },
      ),
      hours: z
        .strictObject({ from: timeField(CP.hoursFrom), to: timeField(CP.hoursTo) }, { error: M.field.object(CP.hours) })
        .refine((h) => h.from < h.to, { error: M.field.hoursOrder(CP.hoursFrom, CP.hoursTo), path: ['to'] }),
      nonWorkingWeekdays: z
        .array(intField(CP.nonWorkingWeekdays, 0, 6), { error: fieldError(CP.nonWorkingWeekdays, M.field.list(CP.nonWorkingWeekdays, 6)) })
        .max(6, { error: M.field.list(CP.nonWorkingWeekdays, 6) }),
      mexicanHolidays: boolField(CP.mexicanHolidays),
      holidays: z
        .array(
          z
            .string({ error: fieldError(CP.holidays, M.field.calendarDate(CP.holidays)) })
            .refine(isCalendarDate, { error: M.field.calendarDate(CP.holidays) }),
          { error: fieldError(CP.holidays, M.field.list(CP.holidays, 100)) },
        )
        .max(100, { error: M.field.list(CP.holidays, 100) }),
      shiftDueDates: boolField(CP.shiftDueDates),
      unlockThresholdCents: intField(`${CP.unlockThresholdCents} (centavos)`, 0, UNLOCK_THRESHOLD_MAX_CENTS),
      release: z.enum(RELEASE_MODES, { error: fieldError(CP.release, M.field.oneOf(CP.release, RELEASE_MODES)) }),
      manualUnlockHoldHours: intField(CP.manualUnlockHoldHours, 0, 720),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? M.field.unknownKeys(issue.keys) : M.field.object(CP.values)) },
  )
  .partial();
export type CollectionPolicyValues = z.infer<typeof collectionPolicyValues>;

/**
 * A rung of the ladder on or after the lock's day would never act (the device is locked first):
 * the API and the page refuse it, under that rung's day.
 */
export function rungAfterLock(s: {
  lock: { enabled: boolean; daysOverdue: number };
  ladder: readonly { daysOverdue: number }[];
}): { index: number; message: string } | null {
  if (!s.lock.enabled) return null;
  const index = s.ladder.findIndex((r) => r.daysOverdue >= s.lock.daysOverdue);
  return index < 0 ? null : { index, message: M.field.integer(CP.daysOverdue, 1, s.lock.daysOverdue - 1) };
}

/** PUT /v5/collection-policy?groupId=: `version` is the one the page loaded (null: a group without overrides yet). */
export const collectionPolicyBody = z.object({
  version: z
    .int({ error: fieldError(CP.version, M.field.version(CP.version)) })
    .min(0, { error: M.field.version(CP.version) })
    .nullable(),
  values: collectionPolicyValues,
});
export type CollectionPolicyBody = z.infer<typeof collectionPolicyBody>;

export const collectionPolicyScopeQuery = z.object({ groupId: intParam(CP.groupId, 1, 2_147_483_647).optional() });

const policyChange = z.strictObject({
  version: z.number().int(),
  changedAt: z.string(),
  changedBy: z.string().nullable(),
  changes: z.array(z.strictObject({ key: z.string(), before: z.unknown().optional(), after: z.unknown().optional() })),
});

/** GET /v5/collection-policy?groupId=: the scope's effective values, what it overrides, the version to send back, its history. */
export const collectionPolicyResponse = z.strictObject({
  groupId: z.number().int().nullable(),
  groupName: z.string().nullable(),
  /** The scope row's version; null: the group has no overrides yet. */
  version: z.number().int().nullable(),
  values: z.record(z.string(), z.unknown()),
  /** The global values (what a group inherits). */
  globalValues: z.record(z.string(), z.unknown()),
  /** The keys the group overrides (the global scope: none). */
  overridden: z.array(z.string()),
  /** The groups with an override. */
  overrides: z.array(z.strictObject({ groupId: z.number().int(), groupName: z.string(), version: z.number().int() })),
  history: z.array(policyChange),
});
export type CollectionPolicyAnswer = z.infer<typeof collectionPolicyResponse>;

// The pause, the steps, the approvals -------------------------------------------------------

export const PAUSE_REASON_MAX = 500;
/** POST /v5/credits/:reference/pause: Promesa de pago until the end of `until` (a company date), and why. */
export const pauseBody = z.object({
  until: z
    .string({ error: fieldError(CP.pauseUntil, M.field.calendarDate(CP.pauseUntil)) })
    .refine(isCalendarDate, { error: M.field.calendarDate(CP.pauseUntil) }),
  reason: textField(CP.pauseReason, { min: 1, max: PAUSE_REASON_MAX }),
});
export type PauseBody = z.infer<typeof pauseBody>;

export const pauseResponse = z.strictObject({ until: z.string(), by: z.string().nullable(), reason: z.string().nullable() });
export type Pause = z.infer<typeof pauseResponse>;

export const NEXT_STEP_KINDS = [
  'reminder',
  'notification',
  'persistent_notification',
  'restrictions',
  'lock',
  'unlock',
  'release',
  'release_request',
  'paused',
] as const;
/** What the policy does next for a credit: its kind, when (null: when an administrator approves), in Spanish. */
export const nextStepResponse = z.strictObject({ kind: z.enum(NEXT_STEP_KINDS), at: z.string().nullable(), text: z.string() });
export type NextStep = z.infer<typeof nextStepResponse>;

/** A step the policy took or skipped. */
export const creditStepResponse = z.strictObject({
  key: z.string(),
  installment: z.number().int(),
  kind: z.string(),
  outcome: z.enum(['done', 'skipped']),
  action: z.number().int().nullable(),
  devices: z.array(z.number().int()),
  skippedDevices: z.array(z.strictObject({ id: z.number().int(), reason: z.string() })),
  reason: z.string(),
  at: z.string(),
});
export type CreditStep = z.infer<typeof creditStepResponse>;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const approvalsQuery = z.object({
  status: oneOfParam(CP.approvalStatus, APPROVAL_STATUSES).default('pending'),
  ...pagingParams(CREDITS_DEFAULT_PER_PAGE),
});
export type ApprovalsQuery = z.infer<typeof approvalsQuery>;
export const approvalParams = z.object({ id: intParam(CP.approvalId, 1, Number.MAX_SAFE_INTEGER) });
export const approvalResponse = z.strictObject({
  id: z.number().int(),
  reference: z.string(),
  customerName: z.string(),
  requestedAt: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type Approval = z.infer<typeof approvalResponse>;
export const approvalListResponse = listResponse(approvalResponse);
export type ApprovalList = z.infer<typeof approvalListResponse>;

// The collection policy's webhook events -------------------------------------------------------

/** credit.overdue: a credit became overdue (once each time it does). */
export const creditOverdueEvent = z.strictObject({
  reference: z.string().describe('Referencia del crédito'),
  currency: z.string().describe('Moneda'),
  daysOverdue: z.number().int().describe('Días de atraso'),
  amountOverdue: z.string().describe('Importe vencido, como texto decimal ("1250.00")'),
  oldestUnpaidDue: z.string().nullable().describe('Vencimiento de la cuota impaga más antigua (AAAA-MM-DD)'),
});
export type CreditOverdueEvent = z.infer<typeof creditOverdueEvent>;

/** collection.step: what the collection policy did (or passed over) for a credit, and why. */
export const collectionStepEvent = z.strictObject({
  reference: z.string().describe('Referencia del crédito'),
  step: z
    .string()
    .describe('Clave del paso: <cuota>:reminder:<días>, <cuota>:ladder:<días>:<tipo>, <cuota>:lock:<instante>, 0:unlock:<instante>, 0:release…'),
  kind: z
    .string()
    .describe('reminder, notification, persistent_notification, restrictions, lock, unlock, lift_restrictions, release o release_request'),
  outcome: z.enum(['done', 'skipped']).describe('done: se aplicó; skipped: no se aplicará'),
  action: z.number().int().nullable().describe('Código de la acción enviada a los dispositivos, si hubo una'),
  reason: z.string().describe('Por qué, en español: "vencido 5 días, 1,250.00 MXN, política Global v7"'),
  devices: z.array(z.number().int()).describe('Dispositivos a los que se envió la acción'),
  skippedDevices: z.array(z.strictObject({ id: z.number().int(), reason: z.string() })).describe('Dispositivos omitidos y por qué'),
  policy: z.string().describe('Política y versión aplicadas'),
});
export type CollectionStepEvent = z.infer<typeof collectionStepEvent>;

// Conciliación ------------------------------------------------------------------------------

/** The rows a daily reconciliation.summary carries at most (the counts are complete). */
export const RECONCILIATION_SUMMARY_ROWS = 20;

/** GET /v5/credits/reconciliation and /api/integration/v1/reconciliation: one kind or all, a page. */
export const reconciliationQuery = z.object({
  kind: oneOfParam(FIELD_LABELS.reconciliation.kind, RECONCILIATION_KINDS).optional(),
  ...pagingParams(RECONCILIATION_DEFAULT_PER_PAGE),
});
export type ReconciliationQuery = z.infer<typeof reconciliationQuery>;

/** GET /v5/credits/reconciliation/export: the kind, and `tz`, the zone its dates are written in. */
export const reconciliationExportQuery = reconciliationQuery.extend(csvZoneFields);
export type ReconciliationExportQuery = z.infer<typeof reconciliationExportQuery>;

/**
 * A contradiction between a device and its credit. `fix`: the device action that resolves it
 * (Desbloquear, Bloquear Por Crédito, Liberar), null when none does (a reference to correct).
 */
export const reconciliationRowResponse = z.strictObject({
  kind: z.enum(RECONCILIATION_KINDS).describe('Tipo de contradicción'),
  creditReference: z.string().nullable().describe('Referencia del crédito (la del dispositivo cuando no hay crédito)'),
  deviceId: z.number().int().nullable().describe('Id del dispositivo (null: un crédito sin dispositivo)'),
  imei: z.string().nullable().describe('IMEI del dispositivo'),
  deviceType: z.number().int().nullable().describe('Tipo de dispositivo (1 smartphone, 2 TV)'),
  groupId: z.number().int().nullable().describe('Grupo del dispositivo'),
  customerName: z.string().nullable().describe('Cliente'),
  detail: z.string().describe('Qué contradice, en español'),
  daysOverdue: z.number().int().nullable().describe('Días de atraso del crédito (vencido sin bloquear)'),
  lockDays: z.number().int().nullable().describe('Día de bloqueo de la política del grupo del dispositivo'),
  releasedAt: z.string().nullable().describe('Cuándo se confirmó la liberación (ISO 8601)'),
  lastSeenAt: z.string().nullable().describe('Último reporte del dispositivo (ISO 8601)'),
  fix: z.number().int().nullable().describe('Acción de dispositivo que lo corrige: 1 Desbloquear, 0 Bloquear, 2 Liberar; null si ninguna'),
});
export type ReconciliationRow = z.infer<typeof reconciliationRowResponse>;

const reconciliationCounts = z.strictObject(
  Object.fromEntries(RECONCILIATION_KINDS.map((k) => [k, z.number().int()])) as {
    [K in (typeof RECONCILIATION_KINDS)[number]]: z.ZodNumber;
  },
);
export type ReconciliationCounts = z.infer<typeof reconciliationCounts>;

/** The page of rows, their total under the filter, and the count of every kind. */
export const reconciliationListResponse = listResponse(reconciliationRowResponse).extend({
  counts: reconciliationCounts.describe('Filas por tipo, sin filtrar'),
});
export type ReconciliationList = z.infer<typeof reconciliationListResponse>;

/** reconciliation.summary: once a day per company, the counts per kind and the first rows. */
export const reconciliationSummaryEvent = z.strictObject({
  date: z.string().describe('Fecha de la compañía del resumen (AAAA-MM-DD)'),
  total: z.number().int().describe('Filas en total'),
  counts: reconciliationCounts.describe('Filas por tipo'),
  rows: z.array(reconciliationRowResponse).describe(`Las primeras filas (a lo más ${RECONCILIATION_SUMMARY_ROWS})`),
});
export type ReconciliationSummaryEvent = z.infer<typeof reconciliationSummaryEvent>;
