import { lazy, Suspense, useLayoutEffect, useSyncExternalStore } from 'react';
import { Route, Routes } from 'react-router-dom';
import { ROUTES, type PortalRoute } from '../../shared/constants/routes';
import { PageSpinner } from '../components/PageSpinner';
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

const PortalToastContainer = lazy(() => import('../components/PortalToastContainer').then((m) => ({ default: m.PortalToastContainer })));

const noSubscription = () => () => undefined;
const isBrowser = () => true;
const isServer = () => false;

/**
 * The toast container, mounted once the page is interactive: the server renders nothing for it and
 * the toast library stays out of the first download (toasts raised before it mounts are queued).
 */
function DeferredToastContainer() {
  // False on the server and while hydrating (the server's snapshot), true right after.
  const hydrated = useSyncExternalStore(noSubscription, isBrowser, isServer);
  return hydrated ? (
    <Suspense fallback={null}>
      <PortalToastContainer />
    </Suspense>
  ) : null;
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
      <DeferredToastContainer />
    </>
  );
}
