import { API_PATHS } from '../../../shared/constants/apiPaths';
import type {
  EnrollmentTokenBodyInput,
  EnrollmentTokenCreated,
  EnrollmentTokenList,
  ReenrollmentBodyInput,
} from '../../../shared/contracts/enrollment';
import { apiSlice } from '../../api/apiSlice';
import { http } from '../../api/axiosBaseQuery';
import { queryParams } from '../../api/queryParams';

/** Whose tokens: a group's, one pre-enrolled device's, or (neither) those of the devices with no group. */
export interface EnrollmentScopeArgs {
  groupId?: number;
  deviceId?: number;
}

/** QR enrollment tokens (/v5/enrollment-tokens): the live ones of a scope, a new one (shown once), revoking one. */
export const enrollmentApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listEnrollmentTokens: build.query<EnrollmentTokenList, EnrollmentScopeArgs>({
      query: (scope) => http.get(API_PATHS.enrollmentTokens.base, queryParams(scope)),
      providesTags: ['EnrollmentTokens'],
    }),
    /** Creates a token for the scope; the server revokes the scope's previous live tokens ('Regenerar'). */
    createEnrollmentToken: build.mutation<EnrollmentTokenCreated, EnrollmentTokenBodyInput>({
      query: (body) => http.post(API_PATHS.enrollmentTokens.base, body),
      invalidatesTags: ['EnrollmentTokens', 'Audit'],
    }),
    /** 'Autorizar reenrolamiento': a one-device, single-use token for an enrolled device (shown once). */
    authorizeReenrollment: build.mutation<EnrollmentTokenCreated, ReenrollmentBodyInput>({
      query: (body) => http.post(API_PATHS.enrollmentTokens.reenrollments(), body),
      invalidatesTags: (_r, _e, { deviceId }) => ['Audit', { type: 'Device', id: deviceId }],
    }),
    revokeEnrollmentToken: build.mutation<void, number>({
      query: (id) => http.delete(API_PATHS.enrollmentTokens.base, id),
      invalidatesTags: ['EnrollmentTokens', 'Audit'],
    }),
  }),
});

export const { useListEnrollmentTokensQuery, useCreateEnrollmentTokenMutation, useRevokeEnrollmentTokenMutation, useAuthorizeReenrollmentMutation } =
  enrollmentApi;
