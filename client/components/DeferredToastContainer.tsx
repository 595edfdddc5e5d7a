import { Suspense, useSyncExternalStore } from 'react';
import { lazyChunk } from '../app/lazyPage';

const TOASTS = lazyChunk<object>('client/components/PortalToastContainer.tsx', () =>
  import('./PortalToastContainer').then((m) => ({ default: m.PortalToastContainer })),
);

const noSubscription = () => () => undefined;
const isBrowser = () => true;
const isServer = () => false;

/**
 * The toast container, mounted once the page is interactive (the signed-in app's entry renders it
 * beside `<App/>`): it renders nothing while hydrating, and the toast library stays out of the first
 * download (toasts raised before it mounts are queued). The public pages raise no toast and have none.
 */
export function DeferredToastContainer() {
  // False while hydrating (the server's snapshot), true right after.
  const hydrated = useSyncExternalStore(noSubscription, isBrowser, isServer);
  return hydrated ? (
    <Suspense fallback={null}>
      <TOASTS.Component />
    </Suspense>
  ) : null;
}
