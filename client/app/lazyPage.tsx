import { use, type ComponentType } from 'react';

export interface PageProps {
  /** The Spanish title of the route being shown. */
  title: string;
  /** The route path from the route table. */
  path: string;
}

export interface PageModule {
  default: ComponentType<PageProps>;
}

/**
 * A page in its own chunk that can be loaded ahead of rendering. The server loads every
 * page before its first render and the client loads the current one before hydrating, so
 * both render synchronously and the markup matches; later navigations suspend as usual.
 */
export interface LazyPage {
  /** The page's source file, as esbuild names it in the metafile (the asset manifest key). */
  id: string;
  load(): Promise<void>;
  Component: ComponentType<PageProps>;
}

export function lazyPage(id: string, loader: () => Promise<PageModule>): LazyPage {
  let loaded: PageModule | undefined;
  let pending: Promise<void> | undefined;
  const load = () =>
    (pending ??= loader().then(
      (m) => {
        loaded = m;
      },
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  function Component(props: PageProps) {
    if (!loaded) use(load());
    const Page = loaded!.default;
    return <Page {...props} />;
  }
  Component.displayName = `LazyPage(${id})`;
  return { id, load, Component };
}
