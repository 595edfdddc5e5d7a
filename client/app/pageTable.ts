import type { ReactNode } from 'react';
import { findRoute, type PortalRoute, type RoutePath } from '../../shared/constants/routes';
import type { LazyChunk, LazyPage } from './lazyPage';

/**
 * What `<App/>` renders each route with: the route's page and, for the signed-in routes, the frame
 * around it. Each client entry brings its own table, so that an entry's build holds only the pages
 * it can render (client/app/pages.ts for the signed-in app and the server, client/app/publicPages.tsx
 * for the public pages' own entry).
 */
export interface PageTable {
  page(route: PortalRoute): LazyPage;
  frame: LazyChunk<{ path: RoutePath; children: ReactNode }>;
}

/** The chunks a URL path renders with in a table (frame, page), if the path is in the route table. */
export function routeChunks(table: PageTable, pathname: string): LazyChunk<never>[] {
  const route = findRoute(pathname);
  if (!route) return [];
  const page = table.page(route) as LazyChunk<never>;
  return route.frame === 'app' ? [table.frame as LazyChunk<never>, page] : [page];
}
