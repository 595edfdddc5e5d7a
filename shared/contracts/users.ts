import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { ADMIN_API_MESSAGES as M } from '../areaMessages/admin';
import { fieldError } from './fields';

const L = FIELD_LABELS.users;

/** POST /v5/users/getUserByEmail (reference §7). */
export const getUserByEmailBody = z.object({
  correo: z.email({ error: fieldError(L.correo, M.field.email(L.correo)) }),
});
export type GetUserByEmailBody = z.infer<typeof getUserByEmailBody>;

/** A profile module as the portal user's record lists it (reference §3). */
const profileModule = z.strictObject({ path: z.string(), submodules: z.array(z.strictObject({ path: z.string() })) });

/** The response of POST /v5/users/getUserByEmail: the signed-in administrator and their profile. */
export const portalUserResponse = z.strictObject({
  id: z.number().int(),
  correo: z.string(),
  nombres: z.string(),
  apellidos: z.string(),
  /** This server always sends the profile; the portal counts a record without one as a failed load. */
  profile: z
    .strictObject({
      id: z.number().int(),
      nombre: z.string(),
      details: z.array(z.strictObject({ modulo: z.array(profileModule) })),
      actions: z.array(z.number().int()),
    })
    .nullable(),
});
export type PortalUser = z.infer<typeof portalUserResponse>;
