import { findRoute, type PortalRoute } from '../../shared/constants/routes';
import { lazyPage, type LazyPage } from './lazyPage';

/** Every page chunk. Each id is the page's source path: the build checks them. */
export const PAGES = {
  login: lazyPage('client/features/login/LoginPage.tsx', () => import('../features/login/LoginPage')),
  google: lazyPage('client/features/google/GooglePage.tsx', () => import('../features/google/GooglePage')),
  section: lazyPage('client/features/section/SectionPage.tsx', () => import('../features/section/SectionPage')),
} satisfies Record<string, LazyPage>;

/** The page that renders a route of the table. */
export function pageForRoute(route: PortalRoute): LazyPage {
  if (route.path === '/login') return PAGES.login;
  if (route.path === '/google') return PAGES.google;
  return PAGES.section;
}

/** The page for a URL path, if the path is in the route table. */
export function pageForPath(pathname: string): LazyPage | undefined {
  const route = findRoute(pathname);
  return route ? pageForRoute(route) : undefined;
}

export function loadAllPages(): Promise<void[]> {
  return Promise.all(Object.values(PAGES).map((p) => p.load()));
}
