import { API_PATHS } from '../../shared/constants/apiPaths';
import { retry, type BaseQueryFn } from '@reduxjs/toolkit/query';
import { USER_DATA_EXTRA_RETRIES } from '../../shared/constants/business';
import { SPEC_TEXT } from '../../shared/messages';
import type { AppVersion, PortalVersion } from '../../shared/contracts/portal';
import type { PortalUser } from '../../shared/contracts/users';
import { apiSlice } from './apiSlice';
import { axiosBaseQuery, http, type ApiError } from './axiosBaseQuery';

/** The response contracts (shared/contracts), named here for the components that read them. */
export type { AppVersion, PortalUser };

/** Pause between attempts to load the user's record. */
const USER_RETRY_DELAY_MS = 300;

/**
 * The signed-in user's record with RTK Query's retry: USER_DATA_EXTRA_RETRIES more attempts
 * USER_RETRY_DELAY_MS apart (five in all), a record without a profile counting as a failure. The
 * error of the last attempt carries 'Error al cargar datos del Usuario', so the one error toast
 * (apiErrors) says that once; a 401 is not retried (the session has ended).
 */
const userRecordAttempt: BaseQueryFn<string, PortalUser, ApiError> = async (correo, api, extraOptions) => {
  const result = await axiosBaseQuery(http.post(API_PATHS.users.getUserByEmail(), { correo }), api, extraOptions);
  if (result.error?.status === 401) return { error: result.error };
  const user = result.data as PortalUser | undefined;
  if (!result.error && user?.profile) return { data: user };
  // Whatever went wrong (an HTTP error, no answer: status 0, a record without a profile: 404),
  // the user is told the text of reference §5.
  const status = typeof result.error?.status === 'number' ? result.error.status : result.error ? 0 : 404;
  return { error: { status, code: 'USER_LOAD_FAILED', data: { message: SPEC_TEXT.userLoadError } } };
};

const userRecordQuery = retry(userRecordAttempt, {
  retryCondition: (error, _args, { attempt }) => (error as ApiError).status !== 401 && attempt <= USER_DATA_EXTRA_RETRIES,
  backoff: (_attempt, _max, signal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, USER_RETRY_DELAY_MS);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    }),
});

/** The portal version, the app version and the signed-in user's record (reference §7). */
export const portalApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getVersion: build.query<PortalVersion, void>({
      query: () => http.get(API_PATHS.portal.getVersion()),
      providesTags: ['Versions'],
    }),
    getVersionApp: build.query<AppVersion, void>({
      query: () => http.get(API_PATHS.portal.getVersionApp()),
      keepUnusedDataFor: Infinity,
      providesTags: ['Versions'],
    }),
    getUserByEmail: build.query<PortalUser, string>({
      queryFn: (correo, api, extraOptions) => userRecordQuery(correo, api, extraOptions),
      keepUnusedDataFor: Infinity,
      providesTags: ['User'],
    }),
  }),
});

export const { useGetVersionQuery, useGetVersionAppQuery, useGetUserByEmailQuery } = portalApi;
