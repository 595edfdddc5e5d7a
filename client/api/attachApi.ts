import type { AppStore } from '../app/store';
import { rootReducer } from '../app/store';
import { apiErrorMiddleware } from './apiErrors';
import { apiSlice } from './apiSlice';

/**
 * Gives a store the RTK Query api slice: its reducer, its middleware and, before it, the one that
 * makes the API's errors visible (once per store).
 */
export function attachApi(store: AppStore): AppStore {
  rootReducer.inject(apiSlice);
  store.addMiddleware(apiErrorMiddleware(store.extra), apiSlice.middleware);
  // An injected slice's state appears with the next action: this one.
  store.dispatch({ type: 'portal/apiAttached' });
  return store;
}
