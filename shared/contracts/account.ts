import * as z from 'zod';
import { LABELS } from '../constants/labels';
import { MESSAGES } from '../messages';

/** The length the identity service accepts for a new password. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** The account page's change-password form: all three required, the new one within the limits, typed twice alike. */
export const changePasswordForm = z
  .object({
    current: z.string({ error: MESSAGES.required(MESSAGES.currentPassword) }).min(1, { error: MESSAGES.required(MESSAGES.currentPassword) }),
    proposed: z
      .string({ error: MESSAGES.required(MESSAGES.newPassword) })
      .min(1, { error: MESSAGES.required(MESSAGES.newPassword) })
      .min(PASSWORD_MIN, { error: LABELS.textTooShort(PASSWORD_MIN) })
      .max(PASSWORD_MAX, { error: LABELS.textTooLong(PASSWORD_MAX) }),
    confirm: z.string({ error: MESSAGES.required(MESSAGES.confirmPassword) }).min(1, { error: MESSAGES.required(MESSAGES.confirmPassword) }),
  })
  .refine((v) => v.confirm === v.proposed, { error: MESSAGES.passwordsDiffer, path: ['confirm'] });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;
