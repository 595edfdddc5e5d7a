import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import { App } from '../../client/app/App';
import { Providers } from '../../client/app/Providers';
import { makeStore } from '../../client/app/store';

export interface RenderedApp {
  markup: string;
  /** The store's state after rendering: the client's preloaded state. */
  state: unknown;
}

/** Renders the same `<App/>` the client hydrates, with a fresh store for this render. */
export function renderApp(url: string, config: PublicConfig): RenderedApp {
  const store = makeStore(undefined, { apiBase: config.apiBase });
  const markup = renderToString(
    <StrictMode>
      <Providers store={store} config={config}>
        <StaticRouter location={url}>
          <App />
        </StaticRouter>
      </Providers>
    </StrictMode>,
  );
  return { markup, state: store.getState() };
}
