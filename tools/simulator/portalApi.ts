/**
 * What the fleet scenario asks of the portal: register devices, read the pre-enrolled ones and
 * the groups, create enrollment tokens, request device actions, hold and resume. `PortalApi` is
 * the interface; `httpPortalApi` speaks the portal API (/api/v5, the headers username,
 * AccessToken and IdToken) after `signInPortal` signed in through the identity endpoint with the
 * unmodified amazon-cognito-identity-js (SRP), as the browser does. The in-process demo may give
 * its own implementation.
 */
import { AuthenticationDetails, CognitoUser, CognitoUserPool, type CognitoUserSession, type ICognitoStorage } from 'amazon-cognito-identity-js';
import { authErrorMessage } from '../../client/auth/authErrors';
import { CONFIG_ELEMENT_ID } from '../../shared/constants/document';
import type { ActionPayloadInput, ActionResult } from '../../shared/contracts/deviceActions';
import type { Device, DeviceBodyInput, DeviceList } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import type { Group, GroupList } from '../../shared/contracts/groups';
import { publicConfigSchema } from '../../shared/contracts/publicConfig';
import { LOCAL_POOL } from '../../server/config';
import { PORTAL_TEXT } from './labels';
import { API_PATHS } from '../../shared/constants/apiPaths';

export interface PortalApi {
  /** POST /v5/devices: a new PRE_ENROLLED device. */
  createDevice(body: DeviceBodyInput): Promise<Device>;
  /** Up to `limit` PRE_ENROLLED devices, oldest first (GET /v5/devices?stage=preEnrolled). */
  preEnrolledDevices(limit: number): Promise<Device[]>;
  /** GET /v5/groups. */
  groups(): Promise<Group[]>;
  /** POST /v5/enrollment-tokens for a group (null: devices with no group); `token` is what the QR code carries. */
  createEnrollmentToken(groupId: number | null, validHours: number): Promise<Pick<EnrollmentTokenCreated, 'token'>>;
  /** POST /v5/devices/:id/actions (offline-code actions answer `offlineCode`). */
  act(deviceId: number, payload: ActionPayloadInput): Promise<ActionResult>;
  /** POST /v5/devices/:id/hold: SUSPENDED. */
  hold(deviceId: number): Promise<Device>;
  /** DELETE /v5/devices/:id/hold. */
  resume(deviceId: number): Promise<Device>;
  /** GET /v5/devices/:id. */
  device(deviceId: number): Promise<Device>;
}

/** A refusal of the portal API: its status and `{ message, code }`. */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'PortalError';
  }
}

/** What a client needs to sign in and reach the API, as the portal publishes it to the browser. */
export interface PortalLocation {
  /** Absolute URL of the API (…/api). */
  apiUrl: string;
  userPoolId: string;
  clientId: string;
  /** The embedded identity endpoint (absolute); absent for a real Cognito user pool. */
  identityEndpoint?: string;
}

/**
 * The portal's public settings read from its sign-in page (`<script id="portal-config">`); the
 * embedded defaults (local pool, /api, /cognito/) when the page cannot be read.
 */
export async function discoverPortal(baseUrl: string, signal?: AbortSignal): Promise<PortalLocation> {
  const base = baseUrl.replace(/\/+$/, '');
  const fallback: PortalLocation = {
    apiUrl: `${base}/api`,
    userPoolId: LOCAL_POOL.userPoolId,
    clientId: LOCAL_POOL.clientId,
    identityEndpoint: `${base}/cognito/`,
  };
  try {
    const res = await fetch(`${base}/login`, {
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(15_000)]) : AbortSignal.timeout(15_000),
    });
    if (!res.ok) return fallback;
    const html = await res.text();
    const json = new RegExp(`<script id="${CONFIG_ELEMENT_ID}" type="application/json">([\\s\\S]*?)</script>`).exec(html)?.[1];
    if (!json) return fallback;
    const parsed = publicConfigSchema.safeParse(JSON.parse(json));
    if (!parsed.success) return fallback;
    const c = parsed.data;
    return {
      apiUrl: new URL(c.apiBase, `${base}/`).href.replace(/\/+$/, ''),
      userPoolId: c.cognito.userPoolId,
      clientId: c.cognito.clientId,
      ...(c.cognito.endpoint ? { identityEndpoint: new URL(c.cognito.endpoint, `${base}/`).href } : {}),
    };
  } catch {
    return fallback;
  }
}

/** amazon-cognito-identity-js keeps its session here instead of a browser's localStorage (the tests read it). */
export class MemoryStorage implements ICognitoStorage {
  readonly items = new Map<string, string>();
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

/** A signed-in portal user: the API headers, renewed with the refresh token when the access token runs out. */
export interface PortalSession {
  username: string;
  headers(): Promise<Record<string, string>>;
}

/** The error of a failed sign-in (Spanish message; the identity service's code when there is one). */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

/** Signs in with SRP (amazon-cognito-identity-js) against the portal's identity endpoint or Cognito pool. */
export function signInPortal(where: PortalLocation, email: string, password: string): Promise<PortalSession> {
  const storage = new MemoryStorage();
  const pool = new CognitoUserPool({
    UserPoolId: where.userPoolId,
    ClientId: where.clientId,
    ...(where.identityEndpoint ? { endpoint: where.identityEndpoint } : {}),
    Storage: storage,
  });
  const user = new CognitoUser({ Username: email.trim(), Pool: pool, Storage: storage });
  const headersOf = (session: CognitoUserSession) => ({
    username: user.getUsername(),
    AccessToken: session.getAccessToken().getJwtToken(),
    IdToken: session.getIdToken().getJwtToken(),
  });
  const current = () =>
    new Promise<CognitoUserSession>((resolve, reject) =>
      // Refreshes with the stored refresh token when the access token has expired.
      user.getSession((err: Error | null, s: CognitoUserSession | null) =>
        err || !s ? reject(err ?? new Error(PORTAL_TEXT.noSession)) : resolve(s),
      ),
    );
  return new Promise((resolve, reject) => {
    user.authenticateUser(new AuthenticationDetails({ Username: email.trim(), Password: password }), {
      onSuccess: () => resolve({ username: user.getUsername(), headers: async () => headersOf(await current()) }),
      onFailure: (err: Error & { code?: string }) => reject(new SignInError(authErrorMessage(err, 'signIn'), err.code ?? null)),
      newPasswordRequired: () => reject(new SignInError(PORTAL_TEXT.newPasswordRequired, 'NEW_PASSWORD_REQUIRED')),
    });
  });
}

/** One call of the portal API: parsed JSON, or a PortalError with the answer's code and Spanish message. */
export type PortalCall = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => Promise<T>;

/** Calls the portal API (`apiUrl`, e.g. http://host/api) with a signed-in session's headers. */
export function portalCaller(opts: { apiUrl: string; headers: () => Promise<Record<string, string>>; signal?: AbortSignal }): PortalCall {
  const api = opts.apiUrl.replace(/\/+$/, '');
  return async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json', ...(await opts.headers()) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(30_000);
    const res = await fetch(`${api}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) {
      const err = (parsed ?? {}) as { message?: unknown; code?: unknown };
      throw new PortalError(
        res.status,
        typeof err.code === 'string' ? err.code : null,
        typeof err.message === 'string' ? err.message : `HTTP ${res.status}`,
      );
    }
    return parsed as T;
  };
}

/** The portal API over HTTP with a signed-in session's headers. */
export function httpPortalApi(opts: { apiUrl: string; headers: () => Promise<Record<string, string>>; signal?: AbortSignal }): PortalApi {
  const call = portalCaller(opts);
  return {
    createDevice: (body) => call<Device>('POST', API_PATHS.devices.base, body),
    async preEnrolledDevices(limit) {
      const out: Device[] = [];
      for (let page = 1; out.length < limit; page++) {
        const list = await call<DeviceList>('GET', `${API_PATHS.devices.base}?stage=preEnrolled&sort=createdAt&order=asc&perPage=100&page=${page}`);
        out.push(...list.data);
        if (list.data.length < 100) break;
      }
      return out.slice(0, limit);
    },
    groups: async () => (await call<GroupList>('GET', API_PATHS.groups.base)).data,
    createEnrollmentToken: (groupId, validHours) => call<EnrollmentTokenCreated>('POST', API_PATHS.enrollmentTokens.base, { groupId, validHours }),
    act: (deviceId, payload) => call<ActionResult>('POST', API_PATHS.devices.actions(deviceId), payload),
    hold: (deviceId) => call<Device>('POST', API_PATHS.devices.hold(deviceId)),
    resume: (deviceId) => call<Device>('DELETE', API_PATHS.devices.hold(deviceId)),
    device: (deviceId) => call<Device>('GET', API_PATHS.devices.one(deviceId)),
  };
}
