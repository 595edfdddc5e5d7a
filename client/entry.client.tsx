import 'bootstrap/dist/css/bootstrap.min.css';
import 'bootstrap-icons/font/bootstrap-icons.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { CONFIG_ELEMENT_ID, ROOT_ELEMENT_ID, STATE_ELEMENT_ID } from '../shared/constants/document';
import type { PublicConfig } from '../shared/contracts/publicConfig';
import { App } from './app/App';
import { pageForPath } from './app/pages';
import { Providers } from './app/Providers';
import { makeStore } from './app/store';

function readJson(id: string): unknown {
  const text = document.getElementById(id)?.textContent;
  return text ? JSON.parse(text) : undefined;
}

// Written by our own server from the validated configuration; zod stays out of the entry chunk.
const config = readJson(CONFIG_ELEMENT_ID) as PublicConfig;
const store = makeStore(readJson(STATE_ELEMENT_ID) as Parameters<typeof makeStore>[0], {
  apiBase: config.apiBase,
});

// The current page's chunk is loaded before hydrating so the first render matches the server's.
await pageForPath(window.location.pathname)?.load();

hydrateRoot(
  document.getElementById(ROOT_ELEMENT_ID)!,
  <StrictMode>
    <Providers store={store} config={config}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
