import type { PortalProfile } from '../../shared/permissions';
import { apiSlice } from './apiSlice';
import { http } from './axiosBaseQuery';

export interface PortalUser {
  id: number;
  correo: string;
  nombres: string;
  apellidos: string;
  profile?: (PortalProfile & { id: number; actions: number[] }) | null;
}

export interface AppVersion {
  version_name: string | null;
  version_app: string | null;
}

/** Specification §7: the portal version, the app version and the signed-in user's record. */
export const portalApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getVersion: build.query<{ version_portal: string }, void>({
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
