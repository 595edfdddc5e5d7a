import { API_PATHS } from '../../shared/constants/apiPaths';
import type { GroupList } from '../../shared/contracts/groups';
import { apiSlice } from './apiSlice';
import { http } from './axiosBaseQuery';

/**
 * The device groups' list (/v5/groups): shared by the inventory pages and the agent-settings
 * pages (scope selector, business apps). Changes to groups live in the inventory feature.
 */
export const groupsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listGroups: build.query<GroupList, void>({
      query: () => http.get(API_PATHS.groups.base),
      providesTags: ['Groups'],
    }),
  }),
});

export const { useListGroupsQuery } = groupsApi;
