import 'bootstrap/dist/css/bootstrap.min.css';
import 'bootstrap-icons/font/bootstrap-icons.css';
import 'react-toastify/dist/ReactToastify.css';
import './styles/portal.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { CONFIG_ELEMENT_ID, ROOT_ELEMENT_ID, STATE_ELEMENT_ID } from '../shared/constants/document';
import { PATHS, findRoute } from '../shared/constants/routes';
import type { PublicConfig } from '../shared/contracts/publicConfig';
import { App } from './app/App';
import { chunksForPath } from './app/pages';
import { Providers } from './app/Providers';
import { createStore } from './app/store';
import type { AuthClient } from './auth/authClient';

function readJson(id: string): unknown {
  const text = document.getElementById(id)?.textContent;
  return text ? JSON.parse(text) : undefined;
}

// Written by our own server from the validated configuration; zod stays out of the entry chunk.
const config = readJson(CONFIG_ELEMENT_ID) as PublicConfig;
// The sign-in library and the session helpers load on first use (not part of the first download).
let authClient: Promise<AuthClient> | undefined;
const auth = () =>
  (authClient ??= import('./auth/authClient').then((m) => new m.AuthClient(config.cognito, window.localStorage, window.location.origin)));
const session = () => import('./auth/session');
const store = createStore(readJson(STATE_ELEMENT_ID) as Parameters<typeof createStore>[0], {
  apiBase: config.apiBase,
  getAuthHeaders: async () => (await session()).sessionHeaders(await auth(), config.apiSendRefreshToken),
  onUnauthorized: () => {
    void Promise.all([session(), auth()]).then(([s, a]) => s.endSession(a, `${PATHS.login}?current_session_expire=1`));
  },
});
// The api slice (RTK Query) is attached before the first render of a signed-in page, which loads
// the versions and the profile at once, and after it on the public pages (the sign-in page).
const attachApi = () => import('./api/attachApi').then((m) => m.attachApi(store));
const publicPage = findRoute(window.location.pathname)?.frame !== 'app';

// The current route's chunks are loaded before hydrating so the first render matches the server's.
await Promise.all([...chunksForPath(window.location.pathname).map((c) => c.load()), publicPage ? undefined : attachApi()]);

hydrateRoot(
  document.getElementById(ROOT_ELEMENT_ID)!,
  <StrictMode>
    <Providers store={store} config={config} auth={auth}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);

// What the first render does not need loads after it: the saved UI preferences (and the api slice).
void import('./app/persistUi').then((m) => m.persistUi(store));
if (publicPage) void attachApi();
