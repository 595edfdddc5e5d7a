import { Suspense, useLayoutEffect } from 'react';
import { Route, Routes } from 'react-router-dom';
import { ROUTES, type PortalRoute } from '../../shared/constants/routes';
import { PageSpinner } from '../components/PageSpinner';
import { PortalToastContainer } from '../components/PortalToastContainer';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { ScrollOnNavigate } from '../layout/ScrollOnNavigate';
import { APP_FRAME, pageForRoute } from './pages';

function RouteElement({ route }: { route: PortalRoute }) {
  const { Component } = pageForRoute(route);
  const page = (
    <Suspense fallback={<PageSpinner />}>
      <Component title={route.title} path={route.path} />
    </Suspense>
  );
  return route.frame === 'app' ? <APP_FRAME.Component path={route.path}>{page}</APP_FRAME.Component> : page;
}

/** The same tree on the server (StaticRouter) and in the browser (BrowserRouter). */
export function App() {
  useLayoutEffect(() => {
    // Marks the page as interactive: hydration has committed (layout effects run right after).
    // End-to-end tests wait for the attribute; the user-timing mark serves real-user monitoring.
    document.documentElement.dataset.hydrated = 'true';
    performance.mark('portal:hydrated');
  }, []);
  return (
    <>
      <ScrollOnNavigate />
      <Routes>
        {ROUTES.map((route) => (
          <Route key={route.path} path={route.path} element={<RouteElement route={route} />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
      <PortalToastContainer />
    </>
  );
}
