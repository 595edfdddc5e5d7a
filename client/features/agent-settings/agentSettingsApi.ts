import { API_PATHS } from '../../../shared/constants/apiPaths';
import type { SettingsSectionKey, SettingsValues } from '../../../shared/agentSettings';
import { settingsSection, typeSlug } from '../../../shared/agentSettings';
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
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { apiSlice } from '../../api/apiSlice';
import { http } from '../../api/axiosBaseQuery';
import { queryParams } from '../../api/queryParams';

const P = API_PATHS.agentSettings;
const sectionUrl = (deviceType: DeviceTypeCode, section: SettingsSectionKey) => P.section(typeSlug(deviceType), settingsSection(section).slug);

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
      query: (deviceType) => http.get(P.overview(typeSlug(deviceType))),
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
        url: P.logo(),
        method: 'POST',
        data: file,
        headers: { 'Content-Type': file.type || 'application/octet-stream' },
      }),
    }),
    listBusinessApps: build.query<BusinessAppList, void>({
      query: () => http.get(P.businessApps()),
      providesTags: ['BusinessApps'],
    }),
    createBusinessApp: build.mutation<BusinessApp, BusinessAppBodyInput>({
      query: (body) => http.post(P.businessApps(), body),
      invalidatesTags: ['BusinessApps', 'AgentSettings', 'Audit'],
    }),
    updateBusinessApp: build.mutation<BusinessApp, { id: number; body: BusinessAppBodyInput }>({
      query: ({ id, body }) => http.put(P.businessApps(), body, id),
      invalidatesTags: ['BusinessApps', 'AgentSettings', 'Audit'],
    }),
    deleteBusinessApp: build.mutation<void, number>({
      query: (id) => http.delete(P.businessApps(), id),
      invalidatesTags: ['BusinessApps', 'AgentSettings', 'Audit'],
    }),
    listLockApps: build.query<LockAppList, DeviceTypeCode>({
      query: (deviceType) => http.get(P.appLock(typeSlug(deviceType))),
      providesTags: ['LockApps'],
    }),
    createLockApp: build.mutation<LockAppVersion, { deviceType: DeviceTypeCode; body: LockAppBodyInput }>({
      query: ({ deviceType, body }) => http.post(P.appLock(typeSlug(deviceType)), body),
      invalidatesTags: ['LockApps', 'AgentSettings', 'Audit'],
    }),
    updateLockApp: build.mutation<LockAppVersion, { deviceType: DeviceTypeCode; id: number; body: LockAppBodyInput }>({
      query: ({ deviceType, id, body }) => http.put(P.appLock(typeSlug(deviceType)), body, id),
      // The current version's name is the sidebar footer's (portal/getVersionApp).
      invalidatesTags: ['LockApps', 'AgentSettings', 'Audit', 'Versions'],
    }),
    deleteLockApp: build.mutation<void, { deviceType: DeviceTypeCode; id: number }>({
      query: ({ deviceType, id }) => http.delete(P.appLock(typeSlug(deviceType)), id),
      invalidatesTags: ['LockApps', 'AgentSettings', 'Audit'],
    }),
    setCurrentLockApp: build.mutation<LockAppVersion, { deviceType: DeviceTypeCode; id: number }>({
      query: ({ deviceType, id }) => http.post(P.currentLockApp(typeSlug(deviceType), id), {}),
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
