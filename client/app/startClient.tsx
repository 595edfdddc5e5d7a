import { StrictMode, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { CONFIG_ELEMENT_ID, ROOT_ELEMENT_ID, STATE_ELEMENT_ID } from '../../shared/constants/document';
import { PATHS } from '../../shared/constants/routes';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import type { AuthClient } from '../auth/authClient';
import { App } from './App';
import type { PageTable } from './pageTable';
import { Providers } from './Providers';
import { createStore, type AppStore } from './store';

function readJson(id: string): unknown {
  const text = document.getElementById(id)?.textContent;
  return text ? JSON.parse(text) : undefined;
}

export interface Client {
  store: AppStore;
  /**
   * Hydrates the server's markup with `<App/>` and the entry's page table; `after` is rendered beside
   * it and must render nothing while hydrating (the server did not render it).
   */
  hydrate(pages: PageTable, after?: ReactNode): void;
}

/**
 * What both client entries (client/entry.client.tsx, client/entry.public.tsx) start with: the
 * configuration and the state the server wrote into the document, the store, and the session client.
 */
export function startClient(): Client {
  // Written by our own server from the validated configuration; zod stays out of the entry chunk.
  const config = readJson(CONFIG_ELEMENT_ID) as PublicConfig;
  // The sign-in library and the session helpers load on first use (not part of the first download).
  let authClient: Promise<AuthClient> | undefined;
  const auth = () =>
    (authClient ??= import('../auth/authClient').then((m) => new m.AuthClient(config.cognito, window.localStorage, window.location.origin)));
  const session = () => import('../auth/session');
  const store = createStore(readJson(STATE_ELEMENT_ID) as Parameters<typeof createStore>[0], {
    apiBase: config.apiBase,
    getAuthHeaders: async () => (await session()).sessionHeaders(await auth(), config.apiSendRefreshToken),
    onUnauthorized: () => {
      void Promise.all([session(), auth()]).then(([s, a]) => s.endSession(a, `${PATHS.login}?current_session_expire=1`));
    },
  });
  return {
    store,
    hydrate: (pages, after) => {
      hydrateRoot(
        document.getElementById(ROOT_ELEMENT_ID)!,
        <StrictMode>
          <Providers store={store} config={config} auth={auth}>
            <BrowserRouter>
              <App pages={pages} />
              {after}
            </BrowserRouter>
          </Providers>
        </StrictMode>,
      );
    },
  };
}
