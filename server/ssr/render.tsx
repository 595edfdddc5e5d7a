import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import { App } from '../../client/app/App';
import { PORTAL_PAGES } from '../../client/app/pages';
import { Providers } from '../../client/app/Providers';
import { makeStore } from '../../client/app/makeStore';

export interface RenderedApp {
  markup: string;
  /** The store's state after rendering: the client's preloaded state. */
  state: unknown;
}

/** Renders the same `<App/>` the client hydrates, with a fresh store for this render. */
export function renderApp(url: string, config: PublicConfig): RenderedApp {
  // Nothing calls the API while rendering on the server: no session, no headers.
  const store = makeStore(undefined, {
    apiBase: config.apiBase,
    getAuthHeaders: () => Promise.reject(new Error('no session on the server')),
    onUnauthorized: () => undefined,
  });
  const markup = renderToString(
    <StrictMode>
      <Providers store={store} config={config} auth={null}>
        <StaticRouter location={url}>
          <App pages={PORTAL_PAGES} />
        </StaticRouter>
      </Providers>
    </StrictMode>,
  );
  // The persisted UI preferences are the browser's own: they are not preloaded.
  const { ui: _ui, ...state } = store.getState();
  return { markup, state };
}
