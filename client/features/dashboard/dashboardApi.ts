import { API_PATHS } from '../../../shared/constants/apiPaths';
import type { AndroidDashboard, GeneralDashboard } from '../../../shared/contracts/dashboard';
import { apiSlice } from '../../api/apiSlice';
import { http } from '../../api/axiosBaseQuery';
import { queryParams } from '../../api/queryParams';

/**
 * The dashboards' numbers (/v5/dashboard). A change to devices (an action, a registration, a
 * deletion) or to the lock-app versions makes a cached answer stale.
 */
export const dashboardApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    /** `tz`: the browser's zone, which the days and 'this month' are counted in. */
    generalDashboard: build.query<GeneralDashboard, { tz: string | undefined }>({
      query: ({ tz }) => http.get(API_PATHS.dashboard.general(), queryParams({ tz })),
      providesTags: ['Devices', 'Jobs'],
    }),
    androidDashboard: build.query<AndroidDashboard, void>({
      query: () => http.get(API_PATHS.dashboard.android()),
      providesTags: ['Devices', 'LockApps'],
    }),
  }),
});

export const { useGeneralDashboardQuery, useAndroidDashboardQuery } = dashboardApi;
