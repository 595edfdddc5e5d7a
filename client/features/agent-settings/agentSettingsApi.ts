import type { SettingsSectionKey, SettingsValues } from '../../../shared/agentSettings';
import { settingsSection } from '../../../shared/agentSettings';
import type {
  BusinessApp,
  BusinessAppBodyInput,
  BusinessAppList,
  LockAppBodyInput,
  LockAppList,
  LockAppVersion,
  LogoAnswer,
  SettingsOverview,
  SettingsSectionAnswer,
} from '../../../shared/contracts/agentSettings';
import { typeSlug } from '../../../shared/contracts/agentSettings';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { apiSlice } from '../../api/apiSlice';
import { http } from '../../api/axiosBaseQuery';
import { queryParams } from '../../api/queryParams';

const base = (deviceType: DeviceTypeCode) => `/v5/agent-settings/${typeSlug(deviceType)}`;
const sectionUrl = (deviceType: DeviceTypeCode, section: SettingsSectionKey) => `${base(deviceType)}/${settingsSection(section).slug}`;

export interface SectionArgs {
  deviceType: DeviceTypeCode;
  section: SettingsSectionKey;
  /** Absent: the global scope. */
  groupId?: number;
}

/** Agent settings, business apps and lock-app versions (/v5/agent-settings). */
export const agentSettingsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    settingsOverview: build.query<SettingsOverview, DeviceTypeCode>({
      query: (deviceType) => http.get(`${base(deviceType)}/overview`),
      providesTags: ['AgentSettings', 'LockApps', 'BusinessApps'],
    }),
    settingsSection: build.query<SettingsSectionAnswer, SectionArgs>({
      query: ({ deviceType, section, groupId }) => http.get(sectionUrl(deviceType, section), queryParams({ groupId })),
      providesTags: ['AgentSettings'],
    }),
    /** `values`: the section's values (global) or the keys the group overrides (`{}` removes its override). */
    saveSettingsSection: build.mutation<SettingsSectionAnswer, SectionArgs & { version: number | null; values: SettingsValues }>({
      query: ({ deviceType, section, groupId, version, values }) => ({
        ...http.put(sectionUrl(deviceType, section), { version, values }),
        params: queryParams({ groupId }),
      }),
      invalidatesTags: ['AgentSettings', 'Audit'],
    }),
    /** Uploads a logo (its bytes); the answer's `logo` goes into the screen design's values. */
    uploadLogo: build.mutation<LogoAnswer, Blob>({
      query: (file) => ({
        url: `${base(1)}/screen-design/logo`,
        method: 'POST',
        data: file,
        headers: { 'Content-Type': file.type || 'application/octet-stream' },
      }),
    }),
    listBusinessApps: build.query<BusinessAppList, void>({
      query: () => http.get(`${base(1)}/business-apps`),
      providesTags: ['BusinessApps'],
    }),
    createBusinessApp: build.mutation<BusinessApp, BusinessAppBodyInput>({
      query: (body) => http.post(`${base(1)}/business-apps`, body),
      invalidatesTags: ['BusinessApps', 'AgentSettings', 'Audit'],
    }),
    updateBusinessApp: build.mutation<BusinessApp, { id: number; body: BusinessAppBodyInput }>({
      query: ({ id, body }) => http.put(`${base(1)}/business-apps`, body, id),
      invalidatesTags: ['BusinessApps', 'AgentSettings', 'Audit'],
    }),
    deleteBusinessApp: build.mutation<void, number>({
      query: (id) => http.delete(`${base(1)}/business-apps`, id),
      invalidatesTags: ['BusinessApps', 'AgentSettings', 'Audit'],
    }),
    listLockApps: build.query<LockAppList, DeviceTypeCode>({
      query: (deviceType) => http.get(`${base(deviceType)}/app-lock`),
      providesTags: ['LockApps'],
    }),
    createLockApp: build.mutation<LockAppVersion, { deviceType: DeviceTypeCode; body: LockAppBodyInput }>({
      query: ({ deviceType, body }) => http.post(`${base(deviceType)}/app-lock`, body),
      invalidatesTags: ['LockApps', 'AgentSettings', 'Audit'],
    }),
    updateLockApp: build.mutation<LockAppVersion, { deviceType: DeviceTypeCode; id: number; body: LockAppBodyInput }>({
      query: ({ deviceType, id, body }) => http.put(`${base(deviceType)}/app-lock`, body, id),
      // The current version's name is the sidebar footer's (portal/getVersionApp).
      invalidatesTags: ['LockApps', 'AgentSettings', 'Audit', 'Versions'],
    }),
    deleteLockApp: build.mutation<void, { deviceType: DeviceTypeCode; id: number }>({
      query: ({ deviceType, id }) => http.delete(`${base(deviceType)}/app-lock`, id),
      invalidatesTags: ['LockApps', 'AgentSettings', 'Audit'],
    }),
    setCurrentLockApp: build.mutation<LockAppVersion, { deviceType: DeviceTypeCode; id: number }>({
      query: ({ deviceType, id }) => http.post(`${base(deviceType)}/app-lock/${id}/current`, {}),
      invalidatesTags: ['LockApps', 'AgentSettings', 'Audit', 'Versions'],
    }),
  }),
});

export const {
  useSettingsOverviewQuery,
  useSettingsSectionQuery,
  useSaveSettingsSectionMutation,
  useUploadLogoMutation,
  useListBusinessAppsQuery,
  useCreateBusinessAppMutation,
  useUpdateBusinessAppMutation,
  useDeleteBusinessAppMutation,
  useListLockAppsQuery,
  useCreateLockAppMutation,
  useUpdateLockAppMutation,
  useDeleteLockAppMutation,
  useSetCurrentLockAppMutation,
} = agentSettingsApi;
