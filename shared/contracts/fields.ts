import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { ADMIN_API_MESSAGES as M } from '../areaMessages/admin';
import { CONTROL, DATE_PARAM_MAX, DATE_PARAM_MIN, dateBoundsInRange, dayOrInstantBounds, isDayOrInstant, type DateBounds } from '../paramChecks';

/**
 * Every builder takes the field's Spanish label (FIELD_LABELS), which its messages name; the
 * error answer carries the field's path separately (`field`).
 */

/** The message of a wrong type: the field is obligatory when absent, else `message`. */
export const fieldError =
  (label: string, message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? M.field.required(label) : message;

/** The same for a query or route parameter. */
export const paramError =
  (label: string, message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? M.field.requiredParam(label) : message;

/** A one-line text field of a body, trimmed; `min` 1 means it may not be empty. */
export const textField = (label: string, opts: { min?: number; max: number }) =>
  z
    .string({ error: fieldError(label, M.field.text(label)) })
    .trim()
    .min(opts.min ?? 0, { error: M.field.empty(label) })
    .max(opts.max, { error: M.field.tooLong(label, opts.max) })
    .refine((v) => !CONTROL.test(v), { error: M.field.badCharacters(label) });

/** An e-mail field, trimmed and lower-cased (the identity user name is the lower-cased e-mail). */
export const emailField = (label: string) =>
  z
    .string({ error: fieldError(label, M.field.email(label)) })
    .trim()
    .toLowerCase()
    .max(254, { error: M.field.tooLong(label, 254) })
    .pipe(z.email({ error: M.field.email(label) }));

/** A database id in a body: a positive integer that fits PostgreSQL's integer. */
export const idField = (label: string) =>
  z
    .int({ error: fieldError(label, M.field.positiveInteger(label)) })
    .min(1, { error: M.field.positiveInteger(label) })
    .max(2_147_483_647, { error: M.field.positiveInteger(label) });

/** An integer query or route parameter (always a string on the wire). */
export const intParam = (label: string, min: number, max: number) =>
  z
    .string({ error: paramError(label, M.param.integer(label, min, max)) })
    .regex(/^\d{1,10}$/, { error: M.param.integer(label, min, max) })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: M.param.integer(label, min, max) })
        .max(max, { error: M.param.integer(label, min, max) }),
    );

/** A one-line text query parameter, trimmed; empty means absent. */
export const textParam = (label: string, max: number) =>
  z
    .string({ error: paramError(label, M.param.text(label, max)) })
    .trim()
    .max(max, { error: M.param.text(label, max) })
    .refine((v) => !CONTROL.test(v), { error: M.param.badCharacters(label) })
    .transform((v) => (v === '' ? undefined : v));

/** A query parameter with a fixed set of values. */
export const oneOfParam = <const T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.enum(values, { error: paramError(label, M.param.oneOf(label, values)) });

/** `true`/`false` in a query string. */
export const booleanParam = (label: string) => oneOfParam(label, ['true', 'false']).transform((v) => v === 'true');

/**
 * A day (`AAAA-MM-DD`, UTC) or an instant (ISO 8601 with its zone) between DATE_PARAM_MIN and
 * DATE_PARAM_MAX; empty means absent. A day spans 24 hours, an instant one millisecond.
 */
export const dateParam = (label: string) =>
  z
    .string({ error: paramError(label, M.param.date(label)) })
    .trim()
    .refine((v) => v === '' || isDayOrInstant(v), { error: M.param.date(label), abort: true })
    .transform((v): DateBounds | undefined => (v === '' ? undefined : dayOrInstantBounds(v)))
    .refine((b) => b === undefined || dateBoundsInRange(b), {
      error: M.param.dateRange(label, DATE_PARAM_MIN, DATE_PARAM_MAX),
    });

export const MAX_PER_PAGE = 100;

/** Paging of every list: `page` from 1, `perPage` up to 100. */
export const pagingParams = (defaultPerPage = 20) => ({
  page: intParam(FIELD_LABELS.paging.page, 1, 1_000_000).default(1),
  perPage: intParam(FIELD_LABELS.paging.perPage, 1, MAX_PER_PAGE).default(defaultPerPage),
});

/** `/:id` routes. */
export const idParams = z.object({ id: intParam(FIELD_LABELS.params.id, 1, 2_147_483_647) });
export type IdParams = z.infer<typeof idParams>;

/** The `{ data, total }` answer of every list. */
export interface ListResponse<T> {
  data: T[];
  total: number;
}

/** An optional one-line text field of a body: null, absent or empty (after trimming) is null. */
export const optionalTextField = (label: string, max: number) =>
  z.preprocess((v) => (v === null ? '' : v), textField(label, { max })).transform((v) => (v === '' ? null : v));

/** The response contract of a list: `{ data, total }` of `item`. */
export const listResponse = <T extends z.ZodType>(item: T) => z.strictObject({ data: z.array(item), total: z.number().int() });

/**
 * Zones Intl accepted, by their name in lower case (Intl's zone names are case-insensitive): building
 * an Intl.DateTimeFormat costs about 0.15 ms, and a dashboard or CSV request names its zone every
 * time. Only accepted zones are kept, so the map is as large as Intl's list of zones at most.
 */
const canonicalZones = new Map<string, string>();

/** The zone's name as Intl knows it ('america/mexico_city' → 'America/Mexico_City'), or undefined when Intl refuses it. */
export function canonicalTimeZone(zone: string): string | undefined {
  const key = zone.toLowerCase();
  const known = canonicalZones.get(key);
  if (known !== undefined) return known;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    canonicalZones.set(key, canonical);
    return canonical;
  } catch {
    return undefined;
  }
}

/** A time zone query parameter: a zone Intl accepts (IANA, e.g. America/Mexico_City), canonicalised; empty means absent. */
export const timeZoneParam = (label: string) =>
  z
    .string({ error: paramError(label, M.param.timeZone(label)) })
    .trim()
    .max(100, { error: M.param.timeZone(label) })
    .refine((v) => v === '' || canonicalTimeZone(v) !== undefined, { error: M.param.timeZone(label) })
    .transform((v) => (v === '' ? undefined : canonicalTimeZone(v)));

/** The query of a CSV download with date-time columns: `tz`, the browser's zone, which the dates are written in. */
export const csvZoneFields = { tz: timeZoneParam(FIELD_LABELS.csv.tz).optional() };
export const csvZoneQuery = z.object(csvZoneFields);
export type CsvZoneQuery = z.infer<typeof csvZoneQuery>;
