import { attachApi } from './api/attachApi';
import { PORTAL_PAGES, chunksForPath } from './app/pages';
import { startClient } from './app/startClient';
import { DeferredToastContainer } from './components/DeferredToastContainer';

/**
 * The signed-in app: every page in a chunk of its own. Its documents are those of the signed-in
 * routes; the public pages have an entry of their own (client/entry.public.tsx), and this one
 * renders them only when the app navigates to them (the sign-in page after signing out).
 */
const { store, hydrate } = startClient();
// The api slice (RTK Query) is there before the first render, which loads the versions and the profile.
attachApi(store);

// The current route's chunks are loaded before hydrating so the first render matches the server's.
await Promise.all(chunksForPath(window.location.pathname).map((c) => c.load()));

hydrate(PORTAL_PAGES, <DeferredToastContainer />);

// What the first render does not need loads after it: the saved UI preferences.
void import('./app/persistUi').then((m) => m.persistUi(store));
