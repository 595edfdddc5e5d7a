import { useSyncExternalStore } from 'react';
import { NARROW_BREAKPOINT_PX } from '../../shared/constants/business';

const QUERY = `(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`;

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * True below NARROW_BREAKPOINT_PX; false on the server and while hydrating. Read through
 * useSyncExternalStore, so a phone's narrow layout replaces the server's wide one synchronously,
 * in the task that hydrates, not in a later render: nothing sees (or measures) the wide menu on a phone.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
}
