import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import axios, { type AxiosRequestConfig, type Method } from 'axios';

export interface ApiRequest {
  url: string;
  method?: Method;
  data?: unknown;
  params?: AxiosRequestConfig['params'];
  headers?: Record<string, string>;
}

export interface ApiError {
  status: number | 'NETWORK_ERROR';
  code?: string;
  data: unknown;
}

/** What the store passes to every query (thunk extra argument). */
export interface ApiExtra {
  apiBase: string;
}

/** The RTK Query base query over axios: never throws, answers `{ data }` or `{ error }`. */
export const axiosBaseQuery: BaseQueryFn<ApiRequest, unknown, ApiError> = async (args, api) => {
  const { apiBase } = api.extra as ApiExtra;
  try {
    const res = await axios.request({
      baseURL: apiBase,
      url: args.url,
      method: args.method ?? 'GET',
      data: args.data,
      params: args.params,
      headers: args.headers,
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
