import { ADMIN_SORTS } from '../constants/admins';
import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { ADMIN_API_MESSAGES as M } from '../areaMessages/admin';
import { booleanParam, emailField, idField, intParam, oneOfParam, pagingParams, listResponse, textField, textParam } from './fields';

export const ADMIN_NAME_MAX = 100;

const L = FIELD_LABELS.admins;
const Q = FIELD_LABELS.adminsQuery;

/** POST /v5/admins. */
export const createAdminBody = z.object(
  {
    correo: emailField(L.correo),
    nombres: textField(L.nombres, { min: 1, max: ADMIN_NAME_MAX }),
    apellidos: textField(L.apellidos, { max: ADMIN_NAME_MAX }).default(''),
    profileId: idField(L.profileId),
  },
  { error: M.field.body },
);
export type CreateAdminBody = z.infer<typeof createAdminBody>;

/** PUT /v5/admins/:id: the editable fields (the e-mail is the sign-in name and does not change). */
export const updateAdminBody = z.object(
  {
    nombres: textField(L.nombres, { min: 1, max: ADMIN_NAME_MAX }),
    apellidos: textField(L.apellidos, { max: ADMIN_NAME_MAX }).default(''),
    profileId: idField(L.profileId),
  },
  { error: M.field.body },
);
export type UpdateAdminBody = z.infer<typeof updateAdminBody>;

/** GET /v5/admins: search in names and e-mail, filters, paging, sort. */
export const listAdminsQuery = z.object({
  search: textParam(Q.search, 100).optional(),
  profileId: intParam(Q.profileId, 1, 2_147_483_647).optional(),
  enabled: booleanParam(Q.enabled).optional(),
  sort: oneOfParam(Q.sort, ADMIN_SORTS).default('nombres'),
  order: oneOfParam(Q.order, ['asc', 'desc']).default('asc'),
  ...pagingParams(20),
});
export type ListAdminsQuery = z.infer<typeof listAdminsQuery>;

/** An administrator as the API answers it. */
export const adminResponse = z.strictObject({
  id: z.number().int(),
  correo: z.string(),
  nombres: z.string(),
  apellidos: z.string(),
  enabled: z.boolean(),
  profileId: z.number().int(),
  profileNombre: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Admin = z.infer<typeof adminResponse>;

/** GET /v5/admins. */
export const adminListResponse = listResponse(adminResponse);
export type AdminList = z.infer<typeof adminListResponse>;

/** POST /v5/admins answers the new administrator and, once, the temporary password (embedded identity). */
export const createdAdminResponse = adminResponse.extend({ temporaryPassword: z.string().optional() });
export type CreatedAdmin = z.infer<typeof createdAdminResponse>;

/** POST /v5/admins/:id/reset-password answers the new temporary password, once. */
export const resetPasswordResponse = z.strictObject({ temporaryPassword: z.string() });
export type ResetPasswordResponse = z.infer<typeof resetPasswordResponse>;
