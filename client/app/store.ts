import { combineSlices, configureStore, createDynamicMiddleware, type Reducer, type UnknownAction, type WithSlice } from '@reduxjs/toolkit';
import type { apiSlice } from '../api/apiSlice';
import type { ApiExtra } from '../api/axiosBaseQuery';
import { sessionSlice } from '../auth/sessionSlice';
import { uiSlice } from './uiSlice';

/**
 * The root reducer. Two parts are injected when they load, so that a page which needs neither
 * before it is interactive (the sign-in page) does not download them first:
 * - the RTK Query api slice, its middleware and the API errors' (client/api/attachApi.ts);
 * - in the browser, the UI slice wrapped by redux-persist (client/app/persistUi.ts).
 */
export const rootReducer = combineSlices(sessionSlice, { [uiSlice.name]: uiSlice.reducer }).withLazyLoadedSlices<WithSlice<typeof apiSlice>>();

/**
 * The state as the pages see it: the api slice is there, since it is attached before anything
 * queries the API (the store's state has no `api` key until then).
 */
export type RootState = ReturnType<typeof rootReducer> & { [K in (typeof apiSlice)['reducerPath']]: ReturnType<(typeof apiSlice)['reducer']> };

/**
 * A fresh store without the api slice: the signed-in app's entry attaches it (attachApi) before its
 * first render; the public pages' entry never does (they call no portal API). Servers and tests use
 * makeStore (client/app/makeStore.ts), which attaches it at once.
 */
export function createStore(preloadedState: Partial<RootState> | undefined, extra: ApiExtra) {
  const dynamic = createDynamicMiddleware();
  const store = configureStore({
    reducer: rootReducer as Reducer<RootState, UnknownAction, Partial<RootState>>,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: extra },
        // redux-persist's actions (client/app/persistUi.ts) carry callbacks in these fields; RTK
        // Query's in the first two. (Named by path so that this module does not load redux-persist.)
        serializableCheck: { ignoredActionPaths: ['meta.arg', 'meta.baseQueryMeta', 'register', 'rehydrate', 'result'] },
      }).concat(dynamic.middleware),
  });
  return Object.assign(store, { addMiddleware: dynamic.addMiddleware, extra });
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
