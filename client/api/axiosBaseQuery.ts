import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { AxiosRequestConfig, Method } from 'axios';

export interface ApiRequest {
  url: string;
  method?: Method;
  data?: unknown;
  params?: AxiosRequestConfig['params'];
  /** Extra headers (Idempotency-Key, Content-Type of a CSV upload). */
  headers?: Record<string, string>;
}

export interface ApiError {
  /** HTTP status, or 'NETWORK_ERROR' when no answer arrived. */
  status: number | 'NETWORK_ERROR';
  /** axios' error code, e.g. ERR_NETWORK. */
  code?: string;
  data: unknown;
}

/** What the store passes to every query (thunk extra argument). */
export interface ApiExtra {
  apiBase: string;
  /** The reference §7 headers from the current session; rejects when the session is over. */
  getAuthHeaders(): Promise<Record<string, string>>;
  /** HTTP 401 or an expired session: sign out, clear storage, go to the sign-in page. */
  onUnauthorized(): void;
}

/** The reference §7 headers, or the 401 answer every call gives once the session is over. */
export async function sessionHeaders(extra: ApiExtra): Promise<{ headers: Record<string, string> } | { error: ApiError }> {
  try {
    return { headers: await extra.getAuthHeaders() };
  } catch {
    return { error: { status: 401, code: 'SESSION_EXPIRED', data: { message: 'Unauthorized' } } };
  }
}

/** The RTK Query base query over axios: never throws, answers `{ data }` or `{ error }`. */
export const axiosBaseQuery: BaseQueryFn<ApiRequest, unknown, ApiError> = async (args, api) => {
  const session = await sessionHeaders(api.extra as ApiExtra);
  if ('error' in session) return session;
  const { headers } = session;
  const extra = api.extra as ApiExtra;
  // axios loads with the first API call, not with the page.
  const { default: axios } = await import('axios');
  try {
    const res = await axios.request({
      baseURL: extra.apiBase,
      url: args.url,
      method: args.method ?? 'GET',
      data: args.data,
      params: args.params,
      headers: { ...args.headers, ...headers },
      signal: api.signal,
    });
    return { data: res.data };
  } catch (err) {
    if (axios.isAxiosError(err)) {
      if (!err.response) return { error: { status: 'NETWORK_ERROR', code: err.code, data: err.message } };
      return { error: { status: err.response.status, code: err.code, data: err.response.data } };
    }
    return { error: { status: 'NETWORK_ERROR', data: String(err) } };
  }
};

/** Generic request builders (reference §7): GET with query, POST, PUT with optional id, DELETE with id. */
export const http = {
  get: (url: string, params?: Record<string, unknown>): ApiRequest => ({ url, method: 'GET', params }),
  post: (url: string, data?: unknown): ApiRequest => ({ url, method: 'POST', data }),
  put: (url: string, data: unknown, id?: string | number): ApiRequest => ({
    url: id === undefined ? url : `${url}/${encodeURIComponent(String(id))}`,
    method: 'PUT',
    data,
  }),
  delete: (url: string, id: string | number): ApiRequest => ({ url: `${url}/${encodeURIComponent(String(id))}`, method: 'DELETE' }),
};
