import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The page sizes of the administrator lists (the default is the first). */
export const PER_PAGE_OPTIONS = [10, 25, 50] as const;

export type SortOrder = 'asc' | 'desc';

/** One URL parameter: its raw value (undefined when absent) read as the page uses it; a bad value reads as the default. */
export type ListParam<T> = (raw: string | undefined) => T;

/** The fields of a list's URL schema, by name. */
export type ListParamsSchema = Record<string, ListParam<unknown>>;

/** What a page reads from the URL with `schema`. */
export type ListParamsOf<S extends ListParamsSchema> = { [K in keyof S]: ReturnType<S[K]> };

const optional =
  (accepts: (value: string) => boolean): ListParam<string | undefined> =>
  (raw) =>
    raw !== undefined && accepts(raw) ? raw : undefined;

/**
 * The fields of a list's URL schema. Each one catches: a hand-edited or stale URL never breaks
 * the page nor reaches the API as a 400; the bad value reads as the default. Plain functions, not
 * zod: a list page's first load carries no validation library for its URL.
 */
export const listParam = {
  /** `page`: a whole number from 1; anything else is page 1. */
  page: (): ListParam<number> => (raw) => {
    const n = raw === undefined ? NaN : Number(raw);
    return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
  },
  /** `perPage`: one of the offered sizes; anything else is the default (the first option unless given). */
  perPage:
    (options: readonly number[], fallback: number = options[0] ?? PER_PAGE_OPTIONS[0]): ListParam<number> =>
    (raw) => {
      const n = raw === undefined ? NaN : Number(raw);
      return options.includes(n) ? n : fallback;
    },
  /** One of `values`, or undefined. */
  oneOf:
    <const T extends readonly [string, ...string[]]>(values: T): ListParam<T[number] | undefined> =>
    (raw) =>
      raw !== undefined && values.includes(raw) ? (raw as T[number]) : undefined,
  /** One of `values`, or `fallback` (a sort column with a default). */
  oneOfOr:
    <const T extends readonly [string, ...string[]], const D extends T[number]>(values: T, fallback: D): ListParam<T[number]> =>
    (raw) =>
      raw !== undefined && values.includes(raw) ? (raw as T[number]) : fallback,
  /** A value matching `pattern` (ids, 'none'…), or undefined. */
  matching: (pattern: RegExp) => optional((v) => pattern.test(v)),
  /** A value `accepts` takes (a status filter, a day the API would take…), or undefined. */
  satisfying: (accepts: (value: string) => boolean) => optional(accepts),
  /** A value trimmed (as the API trims its text parameters) that `accepts` takes, or undefined; empty is undefined. */
  trimmed:
    (accepts: (value: string) => boolean): ListParam<string | undefined> =>
    (raw) => {
      const v = raw?.trim();
      return v !== undefined && v !== '' && accepts(v) ? v : undefined;
    },
  /** Free text (the search): trimmed and cut to `max`; '' when absent. */
  text:
    (max: number): ListParam<string> =>
    (raw) =>
      raw === undefined ? '' : raw.trim().slice(0, max),
  /** `order`: 'asc' or 'desc', or undefined. */
  order: (): ListParam<SortOrder | undefined> => (raw) => (raw === 'asc' || raw === 'desc' ? raw : undefined),
};

/** A list's URL schema: its `listParam` fields by name. */
export const listParams = <const S extends ListParamsSchema>(fields: S): S => fields;

export interface ListParamsSetOptions {
  /** Keep the current page (by default any change other than the page goes back to page 1). */
  keepPage?: boolean;
  /** Replace the history entry instead of pushing a new one. */
  replace?: boolean;
}

type UrlValue = string | number | boolean | null | undefined;

/**
 * A list's state in the URL query, read through `schema` (`listParams` of `listParam` fields) and written back by `set`. The one search parameter is `search`.
 */
export function useListParams<S extends ListParamsSchema>(schema: S) {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = searchParams.toString();
  const params = useMemo(() => {
    const query = new URLSearchParams(key);
    return Object.fromEntries(Object.entries(schema).map(([name, read]) => [name, read(query.get(name) ?? undefined)])) as ListParamsOf<S>;
  }, [schema, key]);

  /** Sets values ('', null and undefined remove them); any change other than the page goes back to page 1 unless `keepPage`. */
  const set = useCallback(
    (changes: Partial<Record<keyof S & string, UrlValue>>, opts: ListParamsSetOptions = {}) => {
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
