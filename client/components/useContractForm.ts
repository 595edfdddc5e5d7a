import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import { useMemo } from 'react';
import { useForm, type FieldValues, type Resolver, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type * as z from 'zod/v4/core';
import { useIdlePrefetch } from './useIdlePrefetch';

/**
 * When a form judges its fields: nothing while the user types the first time (no message for a
 * field not yet finished); from the first save on, each field as it changes, so a message goes
 * as soon as its field is right (and comes back if it is wrong again). A server error placed
 * under a field (showServerError) is replaced by that judgement as soon as the field is edited.
 */
export const FORM_VALIDATION = { mode: 'onSubmit', reValidateMode: 'onChange' } as const satisfies Pick<UseFormProps, 'mode' | 'reValidateMode'>;

/**
 * A form's schema: the schema itself (a dialog's form, already in a chunk of its own), or a
 * function that imports it (a page's own form: its module, and zod with it, some 30 KB gzipped,
 * stay out of the page's first load and are fetched once the page is idle).
 */
export type ContractSchema<TFieldValues extends FieldValues, TOutput> =
  z.$ZodType<TOutput, TFieldValues> | (() => Promise<z.$ZodType<TOutput, TFieldValues>>);

/**
 * The portal's one way to build a form: react-hook-form over a shared zod contract (the API's own
 * schema, so the page shows the server's messages, which name fields by their Spanish labels),
 * judged as FORM_VALIDATION says. The resolver speaks Standard Schema, which zod's schemas
 * implement: it imports nothing of zod, so a lazily imported schema takes zod out of the page's
 * first load. The schema loads once the page is idle; a save before it is there waits for it.
 */
export function useContractForm<TFieldValues extends FieldValues, TOutput>(
  schema: ContractSchema<TFieldValues, TOutput>,
  options: Omit<UseFormProps<TFieldValues, unknown, TOutput>, 'resolver' | 'mode' | 'reValidateMode'> = {},
): UseFormReturn<TFieldValues, unknown, TOutput> {
  const loadSchema = useMemo(() => (typeof schema === 'function' ? schema : () => Promise.resolve(schema)), [schema]);
  useIdlePrefetch(useMemo(() => ({ load: loadSchema }), [loadSchema]));
  const resolver = useMemo<Resolver<TFieldValues, unknown, TOutput>>(
    () => async (values, context, opts) =>
      (standardSchemaResolver(await loadSchema()) as Resolver<TFieldValues, unknown, TOutput>)(values, context, opts),
    [loadSchema],
  );
  return useForm<TFieldValues, unknown, TOutput>({ ...options, ...FORM_VALIDATION, resolver });
}
