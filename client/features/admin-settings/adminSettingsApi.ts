import { API_PATHS } from '../../../shared/constants/apiPaths';
import type { AdminSort } from '../../../shared/constants/admins';
import type { Admin, AdminList, CreateAdminBody, CreatedAdmin, ResetPasswordResponse, UpdateAdminBody } from '../../../shared/contracts/admins';
import type { AuditList } from '../../../shared/contracts/audit';
import type { Role, RoleBody, RoleList } from '../../../shared/contracts/roles';
import { apiSlice } from '../../api/apiSlice';
import { http, type ApiExtra } from '../../api/axiosBaseQuery';
import { downloadFile } from '../../api/downloadFile';
import { queryParams } from '../../api/queryParams';

export interface AdminListArgs {
  search?: string;
  profileId?: number;
  enabled?: boolean;
  sort?: AdminSort;
  order?: 'asc' | 'desc';
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

/** Administrators, roles and the audit log (/v5/admins, /v5/roles, /v5/audit). */
export const adminSettingsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listAdmins: build.query<AdminList, AdminListArgs>({
      query: (args) => http.get(API_PATHS.admins.base, queryParams(args)),
      providesTags: ['Admins'],
    }),
    createAdmin: build.mutation<CreatedAdmin, CreateAdminBody>({
      query: (body) => http.post(API_PATHS.admins.base, body),
      invalidatesTags: ['Admins', 'Roles', 'Audit'],
    }),
    updateAdmin: build.mutation<Admin, { id: number; body: UpdateAdminBody }>({
      query: ({ id, body }) => http.put(API_PATHS.admins.base, body, id),
      invalidatesTags: ['Admins', 'Roles', 'Audit'],
    }),
    deleteAdmin: build.mutation<void, number>({
      query: (id) => http.delete(API_PATHS.admins.base, id),
      invalidatesTags: ['Admins', 'Roles', 'Audit'],
    }),
    setAdminEnabled: build.mutation<Admin, { id: number; enabled: boolean }>({
      query: ({ id, enabled }) => http.post((enabled ? API_PATHS.admins.enable : API_PATHS.admins.disable)(id)),
      invalidatesTags: ['Admins', 'Audit'],
    }),
    resetAdminPassword: build.mutation<ResetPasswordResponse, number>({
      query: (id) => http.post(API_PATHS.admins.resetPassword(id)),
      invalidatesTags: ['Audit'],
    }),
    listRoles: build.query<RoleList, void>({
      query: () => http.get(API_PATHS.roles.base),
      providesTags: ['Roles'],
    }),
    createRole: build.mutation<Role, RoleBody>({
      query: (body) => http.post(API_PATHS.roles.base, body),
      invalidatesTags: ['Roles', 'Audit'],
    }),
    updateRole: build.mutation<Role, { id: number; body: RoleBody }>({
      query: ({ id, body }) => http.put(API_PATHS.roles.base, body, id),
      invalidatesTags: ['Roles', 'Admins', 'Audit'],
    }),
    deleteRole: build.mutation<void, number>({
      query: (id) => http.delete(API_PATHS.roles.base, id),
      invalidatesTags: ['Roles', 'Audit'],
    }),
    duplicateRole: build.mutation<Role, number>({
      query: (id) => http.post(API_PATHS.roles.duplicate(id), {}),
      invalidatesTags: ['Roles', 'Audit'],
    }),
    listAudit: build.query<AuditList, AuditListArgs>({
      query: (args) => http.get(API_PATHS.audit.base, queryParams(args)),
      providesTags: ['Audit'],
    }),
    /** Downloads the CSV of the filtered log with the session headers; the file never enters the store. */
    exportAudit: build.mutation<null, Omit<AuditListArgs, 'page' | 'perPage'>>({
      queryFn: (args, api) => downloadFile(api.extra as ApiExtra, API_PATHS.audit.export(), queryParams(args), 'auditoria.csv'),
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
