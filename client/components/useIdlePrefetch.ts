import { useEffect } from 'react';
import type { LazyChunk } from '../app/lazyPage';

/**
 * Loads `chunk` once the browser is idle after the page has shown: a dialog (or a dialog's form)
 * in a chunk of its own stays out of the page's first load, and is there before anyone opens it.
 * A failed fetch is left to the next attempt (opening the dialog loads it again).
 */
export function useIdlePrefetch(chunk: Pick<LazyChunk<object>, 'load'>): void {
  useEffect(() => {
    const load = () => void chunk.load().catch(() => undefined);
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(load, { timeout: 2_000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(load, 200);
    return () => window.clearTimeout(id);
  }, [chunk]);
}
