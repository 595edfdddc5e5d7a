import { createApi } from '@reduxjs/toolkit/query/react';
import { axiosBaseQuery } from './axiosBaseQuery';

/**
 * The one RTK Query api slice. Features inject their endpoints into it; tags are declared
 * here so invalidation works across features. No refetch on focus, no retry (reference §9).
 */
export const apiSlice = createApi({
  reducerPath: 'api',
  baseQuery: axiosBaseQuery,
  tagTypes: [
    'User',
    'Versions',
    'Admins',
    'Roles',
    'Audit',
    'Devices',
    'Device',
    'Groups',
    'Jobs',
    'EnrollmentTokens',
    'AgentSettings',
    'BusinessApps',
    'LockApps',
    'ApiKeys',
    'Webhooks',
    'WebhookDeliveries',
    'Credits',
    'CollectionPolicy',
  ],
  refetchOnFocus: false,
  refetchOnReconnect: false,
  endpoints: () => ({}),
});
