/**
 * Rendering portal pages in jsdom tests (`/** @jest-environment jsdom *\/`) over the real store
 * and API slice, with axios answered by a stub. Import `./textEncoderPolyfill` first in the test
 * file (react-router needs TextEncoder at load time), then import modules statically.
 */
import './textEncoderPolyfill';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axios, { type AxiosRequestConfig, type AxiosResponse } from 'axios';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import type { PortalUser } from '../api/portalApi';
import { DIALOGS } from '../app/pages';
import { Providers } from '../app/Providers';
import { makeStore } from '../app/makeStore';
import { CurrentUserProvider } from '../auth/CurrentUserContext';

export const API_BASE = 'http://api.test/api';

/**
 * Loads every dialog's chunk (DIALOGS), as a page's idle prefetch does: a test that opens a dialog
 * does not wait on the compile of its chunk (`beforeAll(loadDialogs)`).
 */
export function loadDialogs(): Promise<void> {
  return Promise.all(DIALOGS.map((chunk) => chunk.load())).then(() => undefined);
}

/** The public settings of a test page (what the server renders into the document). */
export const TEST_CONFIG: PublicConfig = {
  apiBase: API_BASE,
  apiSendRefreshToken: false,
  portalVersion: '0.0.0-test',
  cognito: { region: 'us-east-1', userPoolId: 'us-east-1_test', clientId: 'test-client' },
};

export interface RenderPortalOptions {
  /** The router's entry (path and query); '/' by default. */
  url?: string;
  /** The paths the profile grants; none by default. */
  allowed?: string[];
  /** The device actions the profile grants; without them the user has no profile. */
  actions?: number[];
}

/** The signed-in administrator of a test: a profile only when `actions` are given. */
export function portalUser(actions?: number[]): PortalUser {
  return {
    id: 1,
    correo: 'a@b.mx',
    nombres: 'A',
    apellidos: 'B',
    profile: actions ? { id: 1, nombre: 'Operador', details: [], actions } : null,
  };
}

/**
 * Renders `ui` inside the app's own Providers (a fresh store, TEST_CONFIG, no session client), a
 * MemoryRouter at `url` and the current user; answers the store and a user-event.
 */
export function renderPortal(ui: ReactNode, { url = '/', allowed = [], actions }: RenderPortalOptions = {}) {
  const store = makeStore(undefined, { apiBase: API_BASE, getAuthHeaders: async () => ({}), onUnauthorized: () => undefined });
  render(
    <Providers store={store} config={TEST_CONFIG} auth={null}>
      <MemoryRouter initialEntries={[url]}>
        <CurrentUserProvider value={{ user: portalUser(actions), allowed: new Set(allowed) }}>{ui}</CurrentUserProvider>
      </MemoryRouter>
    </Providers>,
  );
  return { store, user: userEvent.setup() };
}

/** One request the store sent through axios, as the base query passed it (method in capitals, data unserialized). */
export interface ApiCall {
  method: string;
  url: string;
  params: Record<string, unknown>;
  data: unknown;
  headers: Record<string, string>;
}

/** Answers the body of the response to a call; throws `apiError(...)` for an HTTP error (or anything else for a network failure). */
export type ApiHandler = (call: ApiCall) => unknown;

/** An error as axios throws it for an HTTP answer outside 2xx (what the base query reads: isAxiosError, code, response). */
export function apiError(status: number, data: unknown): Error {
  return Object.assign(new Error(`Request failed with status code ${status}`), {
    isAxiosError: true,
    code: status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
    response: { status, data, headers: {} },
  });
}

/**
 * Spies on axios.request (restore with jest.restoreAllMocks): every call is recorded, in order, in
 * the array answered, and gets the handler's answer as its response body (or its error).
 */
export function stubApi(handler: ApiHandler): ApiCall[] {
  const calls: ApiCall[] = [];
  jest.spyOn(axios, 'request').mockImplementation(async (config: AxiosRequestConfig): Promise<AxiosResponse> => {
    const call: ApiCall = {
      method: (config.method ?? 'GET').toUpperCase(),
      url: config.url ?? '',
      params: (config.params ?? {}) as Record<string, unknown>,
      data: config.data,
      headers: { ...(config.headers as Record<string, string> | undefined) },
    };
    calls.push(call);
    const data = await handler(call);
    return { data, status: 200, statusText: 'OK', headers: {}, config: config as AxiosResponse['config'] };
  });
  return calls;
}

/**
 * `stubApi` by route: keys are 'METHOD /path' (a regular expression over the whole
 * `METHOD url`, e.g. 'GET /v5/devices/\\d+'); a call no route matches is a 404.
 */
export function stubRoutes(routes: Record<string, ApiHandler>): ApiCall[] {
  return stubApi((call) => {
    const route = Object.keys(routes).find((k) => new RegExp(`^${k}$`).test(`${call.method} ${call.url}`));
    if (!route) throw apiError(404, { message: 'no route' });
    return routes[route]!(call);
  });
}

/** axe-core over the document: the serious and critical violations, one line each (rule: elements). */
export async function seriousViolations(): Promise<string[]> {
  const { default: axe } = await import('axe-core');
  // jsdom has no layout (contrast) and no canvas (label/content mismatch): Chromium checks those.
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, 'label-content-name-mismatch': { enabled: false } },
    resultTypes: ['violations'],
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
}
