/**
 * The UI preferences kept across visits (the collapsed menu), with redux-persist. Loaded after the
 * page is interactive (client/entry.client.tsx): the store starts with the plain UI reducer and
 * this module injects the persisted one in its place, then reads what was saved. Never the API cache or the session.
 */
import type { Reducer } from '@reduxjs/toolkit';
import { persistReducer, persistStore } from 'redux-persist';
import type { WebStorage } from 'redux-persist/es/types';
import { rootReducer, type AppStore } from './store';
import { uiSlice, type UiState } from './uiSlice';

/** True when a serialized UI state holds only the initial preferences (the menu expanded). */
export function onlyDefaults(serialized: string): boolean {
  try {
    const state = JSON.parse(serialized) as Record<string, unknown>;
    return state.menuCollapsed === 'false';
  } catch {
    return false;
  }
}

/** localStorage, except that the defaults are not written until a preference changes: a fresh page
 * (the sign-in page after a 401 cleared the storage) leaves localStorage empty. */
function uiStorage(storage: Storage): WebStorage {
  return {
    getItem: (k) => Promise.resolve(storage.getItem(k)),
    setItem: (k, v) => Promise.resolve(storage.getItem(k) === null && onlyDefaults(v) ? undefined : storage.setItem(k, v)),
    removeItem: (k) => Promise.resolve(storage.removeItem(k)),
  };
}

/** Wraps the UI reducer with redux-persist and starts reading the saved preferences. */
export function persistUi(store: AppStore, storage: Storage = window.localStorage): void {
  const persisted = persistReducer({ key: 'portal-ui', storage: uiStorage(storage), whitelist: ['menuCollapsed'] }, uiSlice.reducer);
  // Its state is the UI state plus redux-persist's `_persist` bookkeeping.
  rootReducer.inject({ reducerPath: uiSlice.name, reducer: persisted as unknown as Reducer<UiState> }, { overrideExisting: true });
  persistStore(store);
}
