import { attachApi } from '../api/attachApi';
import type { ApiExtra } from '../api/axiosBaseQuery';
import { createStore, type RootState } from './store';

/** A fresh store with the api slice attached: one per server render, one per test. */
export function makeStore(preloadedState: Partial<RootState> | undefined, extra: ApiExtra) {
  return attachApi(createStore(preloadedState, extra));
}
