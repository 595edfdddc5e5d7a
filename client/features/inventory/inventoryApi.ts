import type { ActionPayloadInput, ActionResult, Command, History, LockDefaults } from '../../../shared/contracts/deviceActions';
import type { EnrollmentAttempts } from '../../../shared/contracts/enrollment';
import type { ImportResult } from '../../../shared/contracts/deviceImport';
import type { Device, DeviceBodyInput, DeviceList, DeviceSort, DeviceStage } from '../../../shared/contracts/devices';
import type { Group, GroupBody } from '../../../shared/contracts/groups';
import type { BulkBodyInput, BulkPreview, Job, JobResult } from '../../../shared/contracts/jobs';
import type { ListResponse } from '../../../shared/contracts/fields';
import { apiSlice } from '../../api/apiSlice';
import { http, type ApiExtra } from '../../api/axiosBaseQuery';
import { downloadFile } from '../../api/downloadFile';
import { queryParams } from '../../api/queryParams';

/** The list filters as the URL and the API carry them (strings, empty = absent). */
export interface DeviceFilterArgs {
  stage?: DeviceStage;
  status?: string;
  deviceType?: string;
  groupId?: string;
  search?: string;
  /** 'true': devices with a command in flight. */
  inFlight?: string;
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
      query: (args) => http.get('/v5/devices', queryParams(args)),
      providesTags: ['Devices'],
    }),
    getDevice: build.query<Device, number>({
      query: (id) => http.get(`/v5/devices/${id}`),
      providesTags: (_r, _e, id) => [{ type: 'Device', id }],
    }),
    deviceHistory: build.query<History, { id: number; page: number; perPage: number }>({
      query: ({ id, ...paging }) => http.get(`/v5/devices/${id}/history`, paging),
      providesTags: (_r, _e, { id }) => [{ type: 'Device', id }],
    }),
    /** Enrollments, refused attempts and re-enrollment authorisations, newest first. */
    deviceEnrollments: build.query<EnrollmentAttempts, { id: number; page: number; perPage: number }>({
      query: ({ id, ...paging }) => http.get(`/v5/devices/${id}/enrollments`, paging),
      providesTags: (_r, _e, { id }) => [{ type: 'Device', id }],
    }),
    createDevice: build.mutation<Device, DeviceBodyInput>({
      query: (body) => http.post('/v5/devices', body),
      invalidatesTags: ['Devices', 'Groups', 'Audit'],
    }),
    updateDevice: build.mutation<Device, { id: number; body: DeviceBodyInput }>({
      query: ({ id, body }) => http.put('/v5/devices', body, id),
      invalidatesTags: (_r, _e, { id }) => ['Devices', 'Groups', 'Audit', { type: 'Device', id }],
    }),
    deleteDevice: build.mutation<void, number>({
      query: (id) => http.delete('/v5/devices', id),
      invalidatesTags: (_r, _e, id) => ['Devices', 'Groups', 'Audit', { type: 'Device', id }],
    }),
    /** One action on one device; `idempotencyKey` makes a retry safe (one per user intent). */
    deviceAction: build.mutation<ActionResult, { id: number; payload: ActionPayloadInput; idempotencyKey: string }>({
      query: ({ id, payload, idempotencyKey }) => ({
        ...http.post(`/v5/devices/${id}/actions`, payload),
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_r, _e, { id }) => ['Devices', 'Groups', 'Audit', { type: 'Device', id }],
    }),
    cancelCommand: build.mutation<Command, { id: number; commandId: number }>({
      query: ({ id, commandId }) => http.post(`/v5/devices/${id}/actions/${commandId}/cancel`, {}),
      invalidatesTags: (_r, _e, { id }) => ['Devices', 'Audit', { type: 'Device', id }],
    }),
    /** The lock type the lock dialog proposes, per device type and group (agent settings: a settings save refreshes it). */
    lockDefaults: build.query<LockDefaults, void>({
      query: () => http.get('/v5/devices/lock-defaults'),
      providesTags: ['AgentSettings'],
    }),
    bulkPreview: build.mutation<BulkPreview, BulkBodyInput>({
      query: (body) => http.post('/v5/devices/bulk-actions/preview', body),
    }),
    startBulkAction: build.mutation<Job, { body: BulkBodyInput; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({ ...http.post('/v5/devices/bulk-actions', body), headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: ['Jobs'],
    }),
    getJob: build.query<Job, number>({
      query: (id) => http.get(`/v5/jobs/${id}`),
      providesTags: (_r, _e, id) => [{ type: 'Jobs', id }],
    }),
    jobResults: build.query<ListResponse<JobResult>, { id: number; page: number; perPage: number }>({
      query: ({ id, ...paging }) => http.get(`/v5/jobs/${id}/results`, paging),
      providesTags: (_r, _e, { id }) => [{ type: 'Jobs', id }],
    }),
    downloadJobResults: build.mutation<null, number>({
      queryFn: (id, api) => downloadFile(api.extra as ApiExtra, `/v5/jobs/${id}/results.csv`, undefined, `trabajo-${id}.csv`),
    }),
    exportDevices: build.mutation<null, DeviceFilterArgs & { sort?: DeviceSort; order?: 'asc' | 'desc' }>({
      queryFn: (args, api) => downloadFile(api.extra as ApiExtra, '/v5/devices/export', queryParams(args), 'dispositivos.csv'),
    }),
    downloadImportTemplate: build.mutation<null, void>({
      queryFn: (_args, api) => downloadFile(api.extra as ApiExtra, '/v5/devices/import/template', undefined, 'plantilla-dispositivos.csv'),
    }),
    /** Validates (mode preview) or registers the valid rows (mode commit) of a CSV file, sent as its bytes. */
    importDevices: build.mutation<ImportResult, { file: Blob; mode: 'preview' | 'commit' }>({
      // The file's own bytes: the server reads UTF-8 or Windows-1252 and says which.
      query: ({ file, mode }) => ({
        url: '/v5/devices/import',
        method: 'POST',
        params: { mode },
        data: file,
        headers: { 'Content-Type': 'text/csv' },
      }),
      invalidatesTags: (_r, _e, { mode }) => (mode === 'commit' ? ['Devices', 'Groups', 'Audit'] : []),
    }),
    createGroup: build.mutation<Group, GroupBody>({
      query: (body) => http.post('/v5/groups', body),
      invalidatesTags: ['Groups', 'Audit'],
    }),
    updateGroup: build.mutation<Group, { id: number; body: GroupBody }>({
      query: ({ id, body }) => http.put('/v5/groups', body, id),
      invalidatesTags: ['Groups', 'Devices', 'Audit'],
    }),
    deleteGroup: build.mutation<void, { id: number; moveTo?: number }>({
      query: ({ id, moveTo }) => ({ ...http.delete('/v5/groups', id), params: queryParams({ moveTo }) }),
      invalidatesTags: ['Groups', 'Devices', 'Audit'],
    }),
  }),
});

export const {
  useListDevicesQuery,
  useGetDeviceQuery,
  useDeviceHistoryQuery,
  useDeviceEnrollmentsQuery,
  useCreateDeviceMutation,
  useUpdateDeviceMutation,
  useDeleteDeviceMutation,
  useDeviceActionMutation,
  useCancelCommandMutation,
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
