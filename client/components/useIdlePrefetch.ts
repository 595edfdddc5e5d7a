import { useEffect } from 'react';
/** A chunk (a LazyChunk, a form's validation…) that can be fetched ahead of its use. */
interface Loadable {
  load(): Promise<unknown>;
}

/**
 * Loads `chunks` (one, or a module-level list) once the browser is idle after the page has shown: a dialog (or a dialog's form)
 * in a chunk of its own stays out of the page's first load, and is there before anyone opens it.
 * A failed fetch is left to the next attempt (opening the dialog loads it again).
 */
export function useIdlePrefetch(chunks: Loadable | readonly Loadable[]): void {
  useEffect(() => {
    const load = () => {
      for (const chunk of Array.isArray(chunks) ? chunks : [chunks as Loadable]) void chunk.load().catch(() => undefined);
    };
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(load, { timeout: 2_000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(load, 200);
    return () => window.clearTimeout(id);
  }, [chunks]);
}
