import type { AppStore } from '../app/store';
import { rootReducer } from '../app/store';
import { apiSlice } from './apiSlice';

/** Gives a store the RTK Query api slice: its reducer and its middleware (once per store). */
export function attachApi(store: AppStore): AppStore {
  rootReducer.inject(apiSlice);
  store.addMiddleware(apiSlice.middleware);
  // An injected slice's state appears with the next action: this one.
  store.dispatch({ type: 'portal/apiAttached' });
  return store;
}
