import * as z from 'zod';

/** POST /v5/users/getUserByEmail (specification §7). */
export const getUserByEmailBody = z.object({
  correo: z.email({ error: 'El campo correo debe ser un correo electrónico válido' }),
});
export type GetUserByEmailBody = z.infer<typeof getUserByEmailBody>;
