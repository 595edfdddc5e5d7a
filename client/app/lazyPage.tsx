import { use, type ComponentType } from 'react';
import type { RoutePath } from '../../shared/constants/routes';

export interface PageProps {
  /** The Spanish title of the route being shown. */
  title: string;
  /** The route path from the route table. */
  path: RoutePath;
}

/**
 * A component in its own chunk that can be loaded ahead of rendering. The server loads every
 * chunk before its first render and the client loads the current route's chunks before
 * hydrating, so both render synchronously and the markup matches; later navigations suspend.
 */
export interface LazyChunk<P extends object> {
  /** The module's source file, as esbuild names it in the metafile (the asset manifest key). */
  id: string;
  load(): Promise<void>;
  Component: ComponentType<P>;
}

export type LazyPage = LazyChunk<PageProps>;

export function lazyChunk<P extends object>(id: string, loader: () => Promise<{ default: ComponentType<P> }>): LazyChunk<P> {
  // A loaded chunk's promise says so the way React's `use` reads it (status 'fulfilled'), so a
  // render after the load never suspends and every render calls `use` (React requires it of a
  // render that suspended once).
  let pending: (Promise<void> & { status?: 'fulfilled' }) | undefined;
  let loaded: { default: ComponentType<P> } | undefined;
  const load = () => {
    if (pending) return pending;
    const promise: Promise<void> & { status?: 'fulfilled' } = loader().then(
      (m) => {
        loaded = m;
        promise.status = 'fulfilled';
      },
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    );
    return (pending = promise);
  };
  function Component(props: P) {
    use(load() as Promise<void>);
    const Loaded = loaded!.default;
    return <Loaded {...props} />;
  }
  Component.displayName = `Lazy(${id})`;
  return { id, load, Component };
}

export const lazyPage = (id: string, loader: () => Promise<{ default: ComponentType<PageProps> }>): LazyPage => lazyChunk(id, loader);

/**
 * A component already in the importing module's chunk, behind the same interface: an entry that
 * bundles its pages statically (client/app/publicPages.tsx) renders them as a lazy one would.
 */
export function eagerChunk<P extends object>(id: string, Component: ComponentType<P>): LazyChunk<P> {
  return { id, load: () => Promise.resolve(), Component };
}
