import type { Admin, AdminList, CreateAdminBody, CreatedAdmin, ResetPasswordResponse, UpdateAdminBody } from '../../../shared/contracts/admins';
import type { AuditList } from '../../../shared/contracts/audit';
import type { Role, RoleBody, RoleList } from '../../../shared/contracts/roles';
import { apiSlice } from '../../api/apiSlice';
import { http, type ApiError, type ApiExtra } from '../../api/axiosBaseQuery';

export interface AdminListArgs {
  q?: string;
  profileId?: number;
  enabled?: boolean;
  page: number;
  perPage: number;
}

export interface AuditListArgs {
  actor?: string;
  entity?: string;
  action?: string;
  outcome?: string;
  from?: string;
  to?: string;
  page: number;
  perPage: number;
}

/** Drops empty values so the query string carries only the filters in use. */
function params(obj: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== ''));
}

/** Saves a Blob as a file through an object URL. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Administrators, roles and the audit log (/v5/admins, /v5/roles, /v5/audit). */
export const adminSettingsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listAdmins: build.query<AdminList, AdminListArgs>({
      query: (args) => http.get('/v5/admins', params(args)),
      providesTags: ['Admins'],
    }),
    createAdmin: build.mutation<CreatedAdmin, CreateAdminBody>({
      query: (body) => http.post('/v5/admins', body),
      invalidatesTags: ['Admins', 'Roles', 'Audit'],
    }),
    updateAdmin: build.mutation<Admin, { id: number; body: UpdateAdminBody }>({
      query: ({ id, body }) => http.put('/v5/admins', body, id),
      invalidatesTags: ['Admins', 'Roles', 'Audit'],
    }),
    deleteAdmin: build.mutation<void, number>({
      query: (id) => http.delete('/v5/admins', id),
      invalidatesTags: ['Admins', 'Roles', 'Audit'],
    }),
    setAdminEnabled: build.mutation<Admin, { id: number; enabled: boolean }>({
      query: ({ id, enabled }) => http.post(`/v5/admins/${id}/${enabled ? 'enable' : 'disable'}`),
      invalidatesTags: ['Admins', 'Audit'],
    }),
    resetAdminPassword: build.mutation<ResetPasswordResponse, number>({
      query: (id) => http.post(`/v5/admins/${id}/reset-password`),
      invalidatesTags: ['Audit'],
    }),
    listRoles: build.query<RoleList, void>({
      query: () => http.get('/v5/roles'),
      providesTags: ['Roles'],
    }),
    createRole: build.mutation<Role, RoleBody>({
      query: (body) => http.post('/v5/roles', body),
      invalidatesTags: ['Roles', 'Audit'],
    }),
    updateRole: build.mutation<Role, { id: number; body: RoleBody }>({
      query: ({ id, body }) => http.put('/v5/roles', body, id),
      invalidatesTags: ['Roles', 'Admins', 'Audit'],
    }),
    deleteRole: build.mutation<void, number>({
      query: (id) => http.delete('/v5/roles', id),
      invalidatesTags: ['Roles', 'Audit'],
    }),
    duplicateRole: build.mutation<Role, number>({
      query: (id) => http.post(`/v5/roles/${id}/duplicate`, {}),
      invalidatesTags: ['Roles', 'Audit'],
    }),
    listAudit: build.query<AuditList, AuditListArgs>({
      query: (args) => http.get('/v5/audit', params(args)),
      providesTags: ['Audit'],
    }),
    /** Downloads the CSV of the filtered log with the session headers; the file never enters the store. */
    exportAudit: build.mutation<null, Omit<AuditListArgs, 'page' | 'perPage'>>({
      async queryFn(args, api) {
        const extra = api.extra as ApiExtra;
        let headers: Record<string, string>;
        try {
          headers = await extra.getAuthHeaders();
        } catch {
          return { error: { status: 401, code: 'SESSION_EXPIRED', data: { message: 'Unauthorized' } } satisfies ApiError };
        }
        const { default: axios } = await import('axios');
        try {
          const res = await axios.get<Blob>('/v5/audit/export', {
            baseURL: extra.apiBase,
            params: params(args),
            headers,
            responseType: 'blob',
          });
          const disposition = String(res.headers['content-disposition'] ?? '');
          const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'auditoria.csv';
          saveBlob(res.data, fileName);
          return { data: null };
        } catch (err) {
          if (axios.isAxiosError(err) && err.response) {
            let data: unknown = err.response.data;
            if (data instanceof Blob) {
              try {
                data = JSON.parse(await data.text());
              } catch {
                data = undefined;
              }
            }
            return { error: { status: err.response.status, code: err.code, data } satisfies ApiError };
          }
          return { error: { status: 'NETWORK_ERROR', data: String(err) } satisfies ApiError };
        }
      },
    }),
  }),
});

export const {
  useListAdminsQuery,
  useCreateAdminMutation,
  useUpdateAdminMutation,
  useDeleteAdminMutation,
  useSetAdminEnabledMutation,
  useResetAdminPasswordMutation,
  useListRolesQuery,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
  useDuplicateRoleMutation,
  useListAuditQuery,
  useExportAuditMutation,
} = adminSettingsApi;
