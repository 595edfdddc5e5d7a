import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type * as z from 'zod/v4/core';

/**
 * When a form judges its fields: nothing while the user types the first time (no message for a
 * field not yet finished); from the first save on, each field as it changes, so a message goes
 * as soon as its field is right (and comes back if it is wrong again). A server error placed
 * under a field (showServerError) is replaced by that judgement as soon as the field is edited.
 */
export const FORM_VALIDATION = { mode: 'onSubmit', reValidateMode: 'onChange' } as const satisfies Pick<UseFormProps, 'mode' | 'reValidateMode'>;

/**
 * The portal's one way to build a form: react-hook-form over a shared zod contract (the API's own
 * schema, so the page shows the server's messages, which name fields by their Spanish labels),
 * judged as FORM_VALIDATION says. Any zod schema will do: a zod/mini one keeps a page's first load
 * small (the sign-in page's forms).
 */
export function useContractForm<TFieldValues extends FieldValues, TOutput>(
  schema: z.$ZodType<TOutput, TFieldValues>,
  options: Omit<UseFormProps<TFieldValues, unknown, TOutput>, 'resolver' | 'mode' | 'reValidateMode'> = {},
): UseFormReturn<TFieldValues, unknown, TOutput> {
  return useForm<TFieldValues, unknown, TOutput>({ ...options, ...FORM_VALIDATION, resolver: zodResolver(schema) });
}
