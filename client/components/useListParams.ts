import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import * as z from 'zod/mini';

/** The page sizes of the administrator lists (the default is the first). */
export const PER_PAGE_OPTIONS = [10, 25, 50] as const;

export type SortOrder = 'asc' | 'desc';

/** An optional text that must pass `check`; anything else reads as undefined. */
const optionalText = (...checks: z.core.$ZodCheck<string>[]) => z.catch(z.optional(z.string().check(...checks)), undefined);

/**
 * The fields of a list's URL schema (zod/mini: a list page loads no more of zod than these). Each
 * one catches: a hand-edited or stale URL never breaks the page nor reaches the API as a 400; the
 * bad value reads as the default.
 */
export const listParam = {
  /** `page`: a whole number from 1; anything else is page 1. */
  page: () => z.catch(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), 1),
  /** `perPage`: one of the offered sizes; anything else is the default (the first option unless given). */
  perPage: (options: readonly number[], fallback: number = options[0] ?? PER_PAGE_OPTIONS[0]) =>
    z.catch(z.coerce.number().check(z.refine((n) => options.includes(n))), fallback),
  /** One of `values`, or undefined. */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) => z.catch(z.optional(z.enum(values)), undefined),
  /** One of `values`, or `fallback` (a sort column with a default). */
  oneOfOr: <const T extends readonly [string, ...string[]], const D extends T[number]>(values: T, fallback: D) => z.catch(z.enum(values), fallback),
  /** A value matching `pattern` (ids, 'none'…), or undefined. */
  matching: (pattern: RegExp) => optionalText(z.regex(pattern)),
  /** A value `accepts` takes (a status filter, a version the API would take…), or undefined. */
  satisfying: (accepts: (value: string) => boolean) => optionalText(z.refine(accepts)),
  /** Free text (the search): trimmed and cut to `max`; '' when absent. */
  text: (max: number) =>
    z.catch(
      z.pipe(
        z.string(),
        z.transform((s: string) => s.trim().slice(0, max)),
      ),
      '',
    ),
  /** `order`: 'asc' or 'desc', or undefined. */
  order: () => z.catch(z.optional(z.enum(['asc', 'desc'])), undefined),
};

/** A list's URL schema: its `listParam` fields by name. */
export const listParams = <const F extends Record<string, z.core.$ZodType>>(fields: F) => z.object(fields);

export interface ListParamsSetOptions {
  /** Keep the current page (by default any change other than the page goes back to page 1). */
  keepPage?: boolean;
  /** Replace the history entry instead of pushing a new one. */
  replace?: boolean;
}

type UrlValue = string | number | boolean | null | undefined;

/**
 * A list's state in the URL query, read through `schema` (`listParams` of `listParam` fields, or
 * any fields that catch) and written back by `set`. The one search parameter is `search`.
 */
export function useListParams<S extends z.ZodMiniObject>(schema: S) {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = searchParams.toString();
  const params = useMemo(() => {
    const raw: Record<string, string> = {};
    for (const name of Object.keys(schema.shape)) {
      const value = new URLSearchParams(key).get(name);
      if (value !== null) raw[name] = value;
    }
    return schema.parse(raw) as z.output<S>;
  }, [schema, key]);

  /** Sets values ('', null and undefined remove them); any change other than the page goes back to page 1 unless `keepPage`. */
  const set = useCallback(
    (changes: Partial<Record<keyof z.output<S> & string, UrlValue>>, opts: ListParamsSetOptions = {}) => {
      setSearchParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [name, value] of Object.entries(changes) as [string, UrlValue][]) {
            if (value === '' || value === undefined || value === null) next.delete(name);
            else next.set(name, String(value));
          }
          if (!('page' in changes) && !opts.keepPage) next.delete('page');
          return next;
        },
        { replace: opts.replace ?? false },
      );
    },
    [setSearchParams],
  );

  return { params, set };
}

/**
 * The next sort after a click on `column`: a new column starts at its first order (ascending
 * unless `firstOrder`); the same column flips; with `clearable`, a third click goes back to the
 * default (no sort in the URL).
 */
export function nextSort<C extends string>(
  current: { sort: C | undefined; order: SortOrder | undefined },
  column: C,
  { firstOrder = 'asc', clearable = false }: { firstOrder?: SortOrder; clearable?: boolean } = {},
): { sort: C | undefined; order: SortOrder | undefined } {
  if (current.sort !== column) return { sort: column, order: firstOrder };
  const order = current.order ?? firstOrder;
  if (clearable && order !== firstOrder) return { sort: undefined, order: undefined };
  return { sort: column, order: order === 'asc' ? 'desc' : 'asc' };
}
