import { useLayoutEffect, type ReactNode } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import type { RoutePath } from '../../shared/constants/routes';
import { PATHS } from '../../shared/constants/routes';
import { PageSpinner } from '../components/PageSpinner';
import GooglePage from '../features/google/GooglePage';
import LoginPage from '../features/login/LoginPage';
import { eagerChunk, type LazyPage, type PageProps } from './lazyPage';
import type { PageTable } from './pageTable';

/**
 * A signed-in route reached from a public page (the sign-in's redirect, a link of the not-found
 * page): the signed-in app is another entry, so the browser loads that document; a replacing
 * navigation replaces the history entry there too.
 */
function LoadSignedInApp(_props: { path: RoutePath; children?: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const replace = useNavigationType() === 'REPLACE';
  useLayoutEffect(() => {
    const to = `${pathname}${search}${hash}`;
    if (replace) window.location.replace(to);
    else window.location.assign(to);
  }, [pathname, search, hash, replace]);
  return <PageSpinner />;
}

const SIGNED_IN_ID = 'client/app/publicPages.tsx#LoadSignedInApp';
const SIGNED_IN_FRAME = eagerChunk<{ path: RoutePath; children: ReactNode }>(SIGNED_IN_ID, LoadSignedInApp);
const SIGNED_IN_PAGE = eagerChunk<PageProps>(SIGNED_IN_ID, LoadSignedInApp);
export const PUBLIC: Partial<Record<RoutePath, LazyPage>> = {
  [PATHS.login]: eagerChunk('client/features/login/LoginPage.tsx', LoginPage),
  [PATHS.google]: eagerChunk('client/features/google/GooglePage.tsx', GooglePage),
};

/**
 * The page table of the public pages' entry (client/entry.public.tsx): the sign-in page and the
 * bare pages in the entry's own file, every signed-in route a load of the signed-in app's document.
 * Its build holds nothing of the signed-in app: the sign-in page's first load is the entry and
 * esbuild's runtime chunk.
 */
export const PUBLIC_PAGES: PageTable = {
  page: (route) => PUBLIC[route.path] ?? SIGNED_IN_PAGE,
  frame: SIGNED_IN_FRAME,
};
