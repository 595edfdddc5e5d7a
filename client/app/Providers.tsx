import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import { AuthProvider, type AuthLoader } from '../auth/AuthContext';
import { PortalConfigProvider } from './PortalConfigContext';
import type { AppStore } from './store';

/** Everything both entries wrap around `<App/>` (the router comes from the entry). */
export function Providers({
  store,
  config,
  auth,
  children,
}: {
  store: AppStore;
  config: PublicConfig;
  /** Loads the browser's session client; null on the server. */
  auth: AuthLoader | null;
  children: ReactNode;
}) {
  return (
    <Provider store={store}>
      <PortalConfigProvider value={config}>
        <AuthProvider value={auth}>{children}</AuthProvider>
      </PortalConfigProvider>
    </Provider>
  );
}
