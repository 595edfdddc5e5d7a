/** @jest-environment jsdom */
import '../testing/textEncoderPolyfill';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, StaticRouter } from 'react-router-dom';
import { ROUTES, isPublicPath } from '../../shared/constants/routes';
import { TEST_CONFIG } from '../testing/renderPortal';
import { App } from './App';
import { makeStore } from './makeStore';
import { PAGES, PORTAL_PAGES } from './pages';
import type { PageTable } from './pageTable';
import { PUBLIC, PUBLIC_PAGES } from './publicPages';
import { Providers } from './Providers';
import { createStore } from './store';

const extra = { apiBase: TEST_CONFIG.apiBase, getAuthHeaders: () => Promise.reject(new Error('sin sesión')), onUnauthorized: () => undefined };

describe('the public pages’ table', () => {
  test('every route outside the signed-in frame has its own page in it; the signed-in routes load the app', () => {
    const outside = ROUTES.filter((r) => r.frame !== 'app');
    expect(outside.map((r) => r.path).sort()).toEqual(Object.keys(PUBLIC).sort());
    for (const route of outside) expect(isPublicPath(route.path)).toBe(true);
    const loadApp = PUBLIC_PAGES.page(ROUTES.find((r) => r.frame === 'app')!);
    for (const route of ROUTES.filter((r) => r.frame === 'app')) {
      expect(isPublicPath(route.path)).toBe(false);
      expect(PUBLIC_PAGES.page(route)).toBe(loadApp);
    }
    expect(PUBLIC_PAGES.frame.id).toBe(loadApp.id);
    expect(isPublicPath('/no-such-page')).toBe(true);
  });

  // The server renders every route with the app's table; the public entry hydrates its documents with its own.
  test.each(['/login', '/login?current_session_expire=1', '/google?enterpriseToken=abc', '/no-such-page'])(
    '%s: the markup the server renders with the app’s table hydrates with the public table, cleanly',
    async (url) => {
      await Promise.all([PAGES.login.load(), PAGES.google.load()]);
      const tree = (pages: PageTable, server: boolean) => (
        <Providers store={server ? makeStore(undefined, extra) : createStore(undefined, extra)} config={TEST_CONFIG} auth={null}>
          {server ? (
            <StaticRouter location={url}>
              <App pages={pages} />
            </StaticRouter>
          ) : (
            <MemoryRouter initialEntries={[url]}>
              <App pages={pages} />
            </MemoryRouter>
          )}
        </Providers>
      );
      const root = document.createElement('div');
      root.innerHTML = renderToString(tree(PORTAL_PAGES, true));
      const markup = root.innerHTML;
      document.body.appendChild(root);
      const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      // jsdom has no user timing: the mark the page sets once hydrated is recorded here.
      const mark = jest.fn();
      Object.assign(performance, { mark });
      const recoverable: unknown[] = [];
      try {
        await act(async () => {
          hydrateRoot(root, tree(PUBLIC_PAGES, false), { onRecoverableError: (e) => recoverable.push(e) });
        });
        expect(recoverable).toEqual([]);
        expect(errors).not.toHaveBeenCalled();
        expect(root.innerHTML).toBe(markup);
        expect(document.documentElement.dataset.hydrated).toBe('true');
        expect(mark).toHaveBeenCalledWith('portal:hydrated');
      } finally {
        errors.mockRestore();
        root.remove();
        delete document.documentElement.dataset.hydrated;
      }
    },
  );
});
