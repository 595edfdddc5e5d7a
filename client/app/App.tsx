import { Suspense, useEffect } from 'react';
import { Route, Routes } from 'react-router';
import { ROUTES, type PortalRoute } from '../../shared/constants/routes';
import { AppLayout } from '../layout/AppLayout';
import { PageSpinner } from '../components/PageSpinner';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { pageForRoute } from './pages';

function RouteElement({ route }: { route: PortalRoute }) {
  const { Component } = pageForRoute(route);
  const page = (
    <Suspense fallback={<PageSpinner />}>
      <Component title={route.title} path={route.path} />
    </Suspense>
  );
  return route.frame === 'app' ? <AppLayout>{page}</AppLayout> : page;
}

/** The same tree on the server (StaticRouter) and in the browser (BrowserRouter). */
export function App() {
  useEffect(() => {
    // Marks the page as interactive (hydrated); end-to-end tests and monitoring wait for it.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <Routes>
      {ROUTES.map((route) => (
        <Route key={route.path} path={route.path} element={<RouteElement route={route} />} />
      ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
