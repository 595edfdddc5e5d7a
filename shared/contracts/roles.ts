import * as z from 'zod';
import { ALL_ROLE_ACTION_CODES } from '../constants/roleActions';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { GRANTABLE_PATHS } from '../constants/routes';
import { ADMIN_API_MESSAGES as M } from '../areaMessages/admin';
import { fieldError, listResponse, textField } from './fields';

const L = FIELD_LABELS.roles;

const grantablePaths = new Set<string>(GRANTABLE_PATHS);
const actionCodes = new Set(ALL_ROLE_ACTION_CODES);

export const ROLE_NAME_MAX = 80;

/** POST /v5/roles and PUT /v5/roles/:id: the whole role, at least one page. Repeated paths or actions count once. */
export const roleBody = z.object(
  {
    nombre: textField(L.nombre, { min: 1, max: ROLE_NAME_MAX }),
    paths: z
      .array(
        z.string({ error: (iss) => M.field.path(JSON.stringify(iss.input)) }).refine((p) => grantablePaths.has(p), {
          error: (iss) => M.field.path(iss.input),
        }),
        { error: fieldError(L.paths, M.field.list(L.paths, GRANTABLE_PATHS.length * 2)) },
      )
      // A role without pages would sign its administrators in to nothing.
      .min(1, { error: M.field.noPaths })
      .max(GRANTABLE_PATHS.length * 2, { error: M.field.list(L.paths, GRANTABLE_PATHS.length * 2) }),
    actions: z
      .array(
        z.int({ error: (iss) => M.field.action(JSON.stringify(iss.input)) }).refine((a) => actionCodes.has(a), {
          error: (iss) => M.field.action(iss.input),
        }),
        { error: fieldError(L.actions, M.field.list(L.actions, ALL_ROLE_ACTION_CODES.length * 2)) },
      )
      .max(ALL_ROLE_ACTION_CODES.length * 2, { error: M.field.list(L.actions, ALL_ROLE_ACTION_CODES.length * 2) }),
  },
  { error: M.field.body },
);
export type RoleBody = z.infer<typeof roleBody>;

/** POST /v5/roles/:id/duplicate: the copy's name (default "<nombre> (copia)"). */
export const duplicateRoleBody = z.object({ nombre: textField(L.nombre, { min: 1, max: ROLE_NAME_MAX }).optional() }, { error: M.field.body });
export type DuplicateRoleBody = z.infer<typeof duplicateRoleBody>;

/** A role (profile) as the API answers it. */
export const roleResponse = z.strictObject({
  id: z.number().int(),
  nombre: z.string(),
  /** Granted portal paths, in menu order. */
  paths: z.array(z.string()),
  /** Granted action codes (device actions, then role actions from 100), ascending. */
  actions: z.array(z.number().int()),
  /** Administrators holding this role. */
  adminCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Role = z.infer<typeof roleResponse>;

/** GET /v5/roles. */
export const roleListResponse = listResponse(roleResponse);
export type RoleList = z.infer<typeof roleListResponse>;
