import { API_PATHS } from '../../../shared/constants/apiPaths';
import type { ActionPayloadInput, ActionResult, Command, History, LockDefaults } from '../../../shared/contracts/deviceActions';
import type { DeviceCredit } from '../../../shared/contracts/credits';
import type { EnrollmentAttempts } from '../../../shared/contracts/enrollment';
import type { ImportResult } from '../../../shared/contracts/deviceImport';
import type { Device, DeviceBodyInput, DeviceList, DeviceStage } from '../../../shared/contracts/devices';
import type { Group, GroupBody } from '../../../shared/contracts/groups';
import type { BulkBodyInput, BulkPreview, Job, JobResult } from '../../../shared/contracts/jobs';
import type { ListResponse } from '../../../shared/contracts/fields';
import { apiSlice } from '../../api/apiSlice';
import { http, type ApiExtra } from '../../api/axiosBaseQuery';
import { downloadFile } from '../../api/downloadFile';
import { queryParams } from '../../api/queryParams';
import type { DeviceSort } from '../../../shared/constants/limits';

/** The list filters as the URL and the API carry them (strings, empty = absent). */
export interface DeviceFilterArgs {
  stage?: DeviceStage;
  status?: string;
  deviceType?: string;
  groupId?: string;
  search?: string;
  /** 'true': devices with a command in flight. */
  inFlight?: string;
  /** 'true': devices locked or being locked. */
  locked?: string;
  agentVersion?: string;
  /** Devices reporting an agent version other than this one. */
  agentVersionNot?: string;
  releasedFrom?: string;
}

export interface DeviceListArgs extends DeviceFilterArgs {
  sort?: DeviceSort;
  order?: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/**
 * Devices, their actions and history (and the lock type the lock dialog proposes), bulk jobs,
 * CSV import/export and groups (/v5/devices, /v5/jobs, /v5/groups).
 */
export const inventoryApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listDevices: build.query<DeviceList, DeviceListArgs>({
      query: (args) => http.get(API_PATHS.devices.base, queryParams(args)),
      providesTags: ['Devices'],
    }),
    getDevice: build.query<Device, number>({
      query: (id) => http.get(API_PATHS.devices.one(id)),
      providesTags: (_r, _e, id) => [{ type: 'Device', id }],
    }),
    /** The credit whose reference the device carries (null when none matches): the detail's Crédito panel. */
    deviceCredit: build.query<DeviceCredit, number>({
      query: (id) => http.get(API_PATHS.devices.credit(id)),
      providesTags: (_r, _e, id) => ['Credits', { type: 'Device', id }],
    }),
    deviceHistory: build.query<History, { id: number; page: number; perPage: number }>({
      query: ({ id, ...paging }) => http.get(API_PATHS.devices.history(id), paging),
      providesTags: (_r, _e, { id }) => [{ type: 'Device', id }],
    }),
    /** Enrollments, refused attempts and re-enrollment authorisations, newest first. */
    deviceEnrollments: build.query<EnrollmentAttempts, { id: number; page: number; perPage: number }>({
      query: ({ id, ...paging }) => http.get(API_PATHS.devices.enrollments(id), paging),
      providesTags: (_r, _e, { id }) => [{ type: 'Device', id }],
    }),
    createDevice: build.mutation<Device, DeviceBodyInput>({
      query: (body) => http.post(API_PATHS.devices.base, body),
      invalidatesTags: ['Devices', 'Groups', 'Audit'],
    }),
    updateDevice: build.mutation<Device, { id: number; body: DeviceBodyInput }>({
      query: ({ id, body }) => http.put(API_PATHS.devices.base, body, id),
      invalidatesTags: (_r, _e, { id }) => ['Devices', 'Groups', 'Audit', { type: 'Device', id }],
    }),
    deleteDevice: build.mutation<void, number>({
      query: (id) => http.delete(API_PATHS.devices.base, id),
      invalidatesTags: (_r, _e, id) => ['Devices', 'Groups', 'Audit', { type: 'Device', id }],
    }),
    /** One action on one device; `idempotencyKey` makes a retry safe (one per user intent). */
    deviceAction: build.mutation<ActionResult, { id: number; payload: ActionPayloadInput; idempotencyKey: string }>({
      query: ({ id, payload, idempotencyKey }) => ({
        ...http.post(API_PATHS.devices.actions(id), payload),
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_r, _e, { id }) => ['Devices', 'Groups', 'Audit', { type: 'Device', id }],
    }),
    cancelCommand: build.mutation<Command, { id: number; commandId: number }>({
      query: ({ id, commandId }) => http.post(API_PATHS.devices.cancelCommand(id, commandId), {}),
      invalidatesTags: (_r, _e, { id }) => ['Devices', 'Audit', { type: 'Device', id }],
    }),
    /** Entregar ahora: ends a scheduled release's cancel window. */
    deliverRelease: build.mutation<Command, { id: number }>({
      query: ({ id }) => http.post(API_PATHS.devices.deliverRelease(id), {}),
      invalidatesTags: (_r, _e, { id }) => ['Devices', 'Audit', { type: 'Device', id }],
    }),
    /** The lock type the lock dialog proposes, per device type and group (agent settings: a settings save refreshes it). */
    lockDefaults: build.query<LockDefaults, void>({
      query: () => http.get(API_PATHS.devices.lockDefaults()),
      providesTags: ['AgentSettings'],
    }),
    bulkPreview: build.mutation<BulkPreview, BulkBodyInput>({
      query: (body) => http.post(API_PATHS.devices.bulkPreview(), body),
    }),
    startBulkAction: build.mutation<Job, { body: BulkBodyInput; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({ ...http.post(API_PATHS.devices.bulkActions(), body), headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: ['Jobs'],
    }),
    getJob: build.query<Job, number>({
      query: (id) => http.get(API_PATHS.jobs.one(id)),
      providesTags: (_r, _e, id) => [{ type: 'Jobs', id }],
    }),
    jobResults: build.query<ListResponse<JobResult>, { id: number; page: number; perPage: number }>({
      query: ({ id, ...paging }) => http.get(API_PATHS.jobs.results(id), paging),
      providesTags: (_r, _e, { id }) => [{ type: 'Jobs', id }],
    }),
    downloadJobResults: build.mutation<null, number>({
      queryFn: (id, api) => downloadFile(api.extra as ApiExtra, API_PATHS.jobs.resultsCsv(id), undefined, `trabajo-${id}.csv`),
    }),
    exportDevices: build.mutation<null, DeviceFilterArgs & { sort?: DeviceSort; order?: 'asc' | 'desc' }>({
      queryFn: (args, api) => downloadFile(api.extra as ApiExtra, API_PATHS.devices.export(), queryParams(args), 'dispositivos.csv'),
    }),
    downloadImportTemplate: build.mutation<null, void>({
      queryFn: (_args, api) => downloadFile(api.extra as ApiExtra, API_PATHS.devices.importTemplate(), undefined, 'plantilla-dispositivos.csv'),
    }),
    /** Validates (mode preview) or registers the valid rows (mode commit) of a CSV file, sent as its bytes. */
    importDevices: build.mutation<ImportResult, { file: Blob; mode: 'preview' | 'commit' }>({
      // The file's own bytes: the server reads UTF-8 or Windows-1252 and says which.
      query: ({ file, mode }) => ({
        url: API_PATHS.devices.import(),
        method: 'POST',
        params: { mode },
        data: file,
        headers: { 'Content-Type': 'text/csv' },
      }),
      invalidatesTags: (_r, _e, { mode }) => (mode === 'commit' ? ['Devices', 'Groups', 'Audit'] : []),
    }),
    createGroup: build.mutation<Group, GroupBody>({
      query: (body) => http.post(API_PATHS.groups.base, body),
      invalidatesTags: ['Groups', 'Audit'],
    }),
    updateGroup: build.mutation<Group, { id: number; body: GroupBody }>({
      query: ({ id, body }) => http.put(API_PATHS.groups.base, body, id),
      invalidatesTags: ['Groups', 'Devices', 'Audit'],
    }),
    deleteGroup: build.mutation<void, { id: number; moveTo?: number }>({
      query: ({ id, moveTo }) => ({ ...http.delete(API_PATHS.groups.base, id), params: queryParams({ moveTo }) }),
      invalidatesTags: ['Groups', 'Devices', 'Audit'],
    }),
  }),
});

export const {
  useListDevicesQuery,
  useGetDeviceQuery,
  useDeviceCreditQuery,
  useDeviceHistoryQuery,
  useDeviceEnrollmentsQuery,
  useCreateDeviceMutation,
  useUpdateDeviceMutation,
  useDeleteDeviceMutation,
  useDeviceActionMutation,
  useCancelCommandMutation,
  useDeliverReleaseMutation,
  useLockDefaultsQuery,
  useBulkPreviewMutation,
  useStartBulkActionMutation,
  useGetJobQuery,
  useJobResultsQuery,
  useDownloadJobResultsMutation,
  useExportDevicesMutation,
  useDownloadImportTemplateMutation,
  useImportDevicesMutation,
  useCreateGroupMutation,
  useUpdateGroupMutation,
  useDeleteGroupMutation,
} = inventoryApi;
