import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export const PER_PAGE_OPTIONS = [10, 25, 50] as const;

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The list state kept in the URL query: page, perPage and the named text filters. */
export function useUrlQuery<K extends string>(filterKeys: readonly K[]) {
  const [search, setSearch] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const perPageRaw = positiveInt(search.get('perPage'), PER_PAGE_OPTIONS[0]);
  const perPage = (PER_PAGE_OPTIONS as readonly number[]).includes(perPageRaw) ? perPageRaw : PER_PAGE_OPTIONS[0];
  const filters = Object.fromEntries(filterKeys.map((k) => [k, search.get(k) ?? ''])) as Record<K, string>;

  /** Sets values (empty removes them); any change other than the page goes back to page 1. */
  const update = useCallback(
    (changes: Partial<Record<K | 'page' | 'perPage', string | number>>) => {
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value === '' || value === undefined) next.delete(key);
            else next.set(key, String(value));
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: false },
      );
    },
    [setSearch],
  );

  return { page, perPage, filters, update };
}
