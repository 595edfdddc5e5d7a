import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import { PortalConfigProvider } from './PortalConfigContext';
import type { AppStore } from './store';

/** Everything both entries wrap around `<App/>` (the router comes from the entry). */
export function Providers({ store, config, children }: { store: AppStore; config: PublicConfig; children: ReactNode }) {
  return (
    <Provider store={store}>
      <PortalConfigProvider value={config}>{children}</PortalConfigProvider>
    </Provider>
  );
}
