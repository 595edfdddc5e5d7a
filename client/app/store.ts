import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { persistReducer, persistStore, FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import type { WebStorage } from 'redux-persist/es/types';
import { apiErrorMiddleware } from '../api/apiErrors';
import { apiSlice } from '../api/apiSlice';
import type { ApiExtra } from '../api/axiosBaseQuery';
import { sessionSlice } from '../auth/sessionSlice';
import { uiSlice } from './uiSlice';

/** Only UI preferences are persisted (the collapsed menu); never the API cache or the session. */
const memoryStorage: WebStorage = {
  getItem: () => Promise.resolve(null),
  setItem: () => Promise.resolve(),
  removeItem: () => Promise.resolve(),
};

/** True when a serialized UI state holds only the initial preferences (the menu expanded). */
export function onlyDefaults(serialized: string): boolean {
  try {
    const state = JSON.parse(serialized) as Record<string, unknown>;
    return state.menuCollapsed === 'false';
  } catch {
    return false;
  }
}

function uiStorage(): WebStorage {
  return typeof window !== 'undefined' && window.localStorage
    ? {
        getItem: (k) => Promise.resolve(window.localStorage.getItem(k)),
        // The defaults are not written until a preference changes: a fresh page (the sign-in page
        // after a 401 cleared the storage) leaves localStorage empty.
        setItem: (k, v) =>
          Promise.resolve(window.localStorage.getItem(k) === null && onlyDefaults(v) ? undefined : window.localStorage.setItem(k, v)),
        removeItem: (k) => Promise.resolve(window.localStorage.removeItem(k)),
      }
    : memoryStorage;
}

function rootReducer() {
  return combineReducers({
    [uiSlice.name]: persistReducer({ key: 'portal-ui', storage: uiStorage(), whitelist: ['menuCollapsed'] }, uiSlice.reducer),
    [sessionSlice.name]: sessionSlice.reducer,
    [apiSlice.reducerPath]: apiSlice.reducer,
  });
}

export type RootState = ReturnType<ReturnType<typeof rootReducer>>;

/** A fresh store: one per server render, one in the browser, one per test. */
export function makeStore(preloadedState: Partial<RootState> | undefined, extra: ApiExtra) {
  const store = configureStore({
    reducer: rootReducer(),
    preloadedState,
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: extra },
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(apiSlice.middleware, apiErrorMiddleware(extra)),
  });
  return store;
}

/** Starts reading the persisted UI preferences (browser only; no gate around the markup). */
export function persistUi(store: AppStore): void {
  persistStore(store);
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
