import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The page sizes of the administrator lists (the default is the first). */
export const PER_PAGE_OPTIONS = [10, 25, 50] as const;

export interface UrlQueryOptions {
  /** The page sizes offered; a `perPage` in the URL outside this list falls back to the default. */
  perPageOptions?: readonly number[];
  /** The page size when the URL has none (default: the first option). */
  defaultPerPage?: number;
}

export interface UrlQueryUpdateOptions {
  /** Keep the current page (by default any change other than the page goes back to page 1). */
  keepPage?: boolean;
  /** Replace the history entry instead of pushing a new one. */
  replace?: boolean;
}

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The list state kept in the URL query: page, perPage and the named text filters. */
export function useUrlQuery<K extends string>(filterKeys: readonly K[], options: UrlQueryOptions = {}) {
  const perPageOptions = options.perPageOptions ?? PER_PAGE_OPTIONS;
  const defaultPerPage = options.defaultPerPage ?? perPageOptions[0] ?? PER_PAGE_OPTIONS[0];
  const [search, setSearch] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const perPageRaw = positiveInt(search.get('perPage'), defaultPerPage);
  const perPage = perPageOptions.includes(perPageRaw) ? perPageRaw : defaultPerPage;
  const filters = Object.fromEntries(filterKeys.map((k) => [k, search.get(k) ?? ''])) as Record<K, string>;

  /** Sets values (empty removes them); any change other than the page goes back to page 1 unless `keepPage`. */
  const update = useCallback(
    (changes: Partial<Record<K | 'page' | 'perPage', string | number>>, opts: UrlQueryUpdateOptions = {}) => {
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value === '' || value === undefined) next.delete(key);
            else next.set(key, String(value));
          }
          if (!('page' in changes) && !opts.keepPage) next.delete('page');
          return next;
        },
        { replace: opts.replace ?? false },
      );
    },
    [setSearch],
  );

  return { page, perPage, perPageOptions, filters, update };
}
