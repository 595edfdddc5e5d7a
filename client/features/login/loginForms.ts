import * as z from 'zod/mini';
import { MESSAGES } from '../../../shared/messages';

/*
 * The sign-in page's forms. The identity service judges the values themselves (a wrong password,
 * a weak new one, a wrong code) and the page shows its answer; here only what is missing, and a
 * new password typed twice alike. zod/mini (the same core as the contracts' zod, a fraction of its
 * size) keeps the sign-in page's first load small.
 */

/** A field that may not be empty: 'El campo {label} es obligatorio'. */
const required = (label: string) => z.string({ error: MESSAGES.required(label) }).check(z.minLength(1, { error: MESSAGES.required(label) }));

export const signInForm = z.object({ email: required(MESSAGES.loginEmail), password: required(MESSAGES.loginPassword) });
export type SignInValues = z.infer<typeof signInForm>;

/** The new password of an administrator created with a temporary one. */
export const newPasswordForm = z.object({ password: required(MESSAGES.newPassword), confirm: required(MESSAGES.confirmPassword) }).check(
  z.refine((v) => v.confirm === v.password, {
    error: MESSAGES.passwordsDiffer,
    path: ['confirm'],
    // Judged as soon as the confirmation is typed, whatever the first field holds.
    when: ({ value }) => Boolean((value as Partial<Record<'confirm', unknown>> | undefined)?.confirm),
  }),
);
export type NewPasswordValues = z.infer<typeof newPasswordForm>;

/** The forgotten password's first step: the address the code goes to. */
export const forgotEmailForm = z.object({ email: required(MESSAGES.loginEmail) });
export type ForgotEmailValues = z.infer<typeof forgotEmailForm>;

/** Its second step: the code received and the new password. */
export const forgotResetForm = z.object({ code: required(MESSAGES.forgotCode), password: required(MESSAGES.newPassword) });
export type ForgotResetValues = z.infer<typeof forgotResetForm>;
