import { Suspense, useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { findRoute, type PortalRoute } from '../../shared/constants/routes';
import { PageSpinner } from '../components/PageSpinner';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { ScrollOnNavigate } from '../layout/ScrollOnNavigate';
import type { PageTable } from './pageTable';

function RouteElement({ route, pages }: { route: PortalRoute; pages: PageTable }) {
  const { Component } = pages.page(route);
  const page = (
    <Suspense fallback={<PageSpinner />}>
      <Component title={route.title} path={route.path} />
    </Suspense>
  );
  return route.frame === 'app' ? <pages.frame.Component path={route.path}>{page}</pages.frame.Component> : page;
}

/**
 * The route table's page for the location, or the not-found page: the same lookup as the server's
 * (status code, entry), so a path renders what its status says. React Router keeps the location
 * and the navigation; it is given no route table to rank and match on each render.
 */
function CurrentRoute({ pages }: { pages: PageTable }) {
  const route = findRoute(useLocation().pathname);
  return route ? <RouteElement route={route} pages={pages} /> : <NotFoundPage />;
}

/**
 * The same tree on the server (StaticRouter) and in the browser (BrowserRouter). `pages` is the
 * entry's page table: the server and the signed-in app render every page (client/app/pages.ts), the
 * public pages' entry only its own (client/app/publicPages.tsx); a route renders the same markup with either.
 */
export function App({ pages }: { pages: PageTable }) {
  useLayoutEffect(() => {
    // Marks the page as interactive: hydration has committed (layout effects run right after).
    // End-to-end tests wait for the attribute; the user-timing mark serves real-user monitoring.
    document.documentElement.dataset.hydrated = 'true';
    performance.mark('portal:hydrated');
  }, []);
  return (
    <>
      <ScrollOnNavigate />
      <CurrentRoute pages={pages} />
    </>
  );
}
