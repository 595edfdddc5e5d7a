import * as z from 'zod';

/**
 * Every API error answer (reference §8): the Spanish `message` shown to the user, a stable
 * `code`, and, when the error is about one input, `field`: its path in the body, query or route
 * parameters (`imei`, `paths.2`, `page`). A form shows the message under that field.
 */
export const apiErrorBody = z.object({
  message: z.string(),
  code: z.string(),
  field: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBody>;
