import { PUBLIC_PAGES } from './app/publicPages';
import { startClient } from './app/startClient';

/**
 * The public pages (the sign-in page, the bare pages, the not-found page), built apart from the
 * signed-in app (scripts/build.ts): its pages are in this file, so a first visit of the sign-in page
 * loads one script and no chunk shared with the app's pages. They call no portal API and keep no UI
 * preferences, so neither the api slice nor redux-persist is here; a signed-in route reached from
 * here loads the app's own document.
 */
startClient().hydrate(PUBLIC_PAGES);
