/** What a route change does to the page's scroll position and focus. */
export type ScrollAction = 'top' | 'restore' | 'none';

export interface NavigationStep {
  pathname: string;
  hash: string;
}

/**
 * A new page (a link, a redirect) opens at the top with focus on its heading; Back and Forward
 * return to where that entry was left. A change of the query string alone (a table's filters,
 * its page) or a link to an anchor keeps the position.
 */
export function scrollAction(prev: NavigationStep, next: NavigationStep, navigationType: 'POP' | 'PUSH' | 'REPLACE'): ScrollAction {
  if (navigationType === 'POP') return 'restore';
  if (next.hash) return 'none';
  return prev.pathname === next.pathname ? 'none' : 'top';
}
