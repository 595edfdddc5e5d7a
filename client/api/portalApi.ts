import type { AppVersion, PortalVersion } from '../../shared/contracts/portal';
import type { PortalUser } from '../../shared/contracts/users';
import { apiSlice } from './apiSlice';
import { http } from './axiosBaseQuery';

/** The response contracts (shared/contracts), named here for the components that read them. */
export type { AppVersion, PortalUser };

/** Specification §7: the portal version, the app version and the signed-in user's record. */
export const portalApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getVersion: build.query<PortalVersion, void>({
      query: () => http.get('/portal/getVersion'),
      providesTags: ['Versions'],
    }),
    getVersionApp: build.query<AppVersion, void>({
      query: () => http.get('portal/getVersionApp'),
      keepUnusedDataFor: Infinity,
      providesTags: ['Versions'],
    }),
    getUserByEmail: build.query<PortalUser, string>({
      query: (correo) => http.post('/v5/users/getUserByEmail', { correo }),
      keepUnusedDataFor: Infinity,
      providesTags: ['User'],
    }),
  }),
});

export const { useGetVersionQuery, useGetVersionAppQuery, useGetUserByEmailQuery } = portalApi;
