import type { Request, RequestHandler, Response } from 'express';
import type * as z from 'zod';
import { MESSAGES } from '../../shared/messages';
import { ADMIN_API_MESSAGES } from '../../shared/areaMessages/admin';
import { AppError } from '../errors';

const M = { field: ADMIN_API_MESSAGES.field, api: MESSAGES.api };

/**
 * The first issue of a failed parse as a 400 with the schema's Spanish message (which names the
 * field by its label, FIELD_LABELS) and the field's path (`field`).
 */
function badRequest(error: z.ZodError, notAnObject: string): AppError {
  const issue = error.issues[0]!;
  if (issue.code === 'invalid_type' && issue.path.length === 0) return new AppError(400, 'VALIDATION', notAnObject);
  const field = issue.path.map(String).join('.');
  // The path of the bad field travels with the answer, so a form can show it under that field.
  return new AppError(400, 'VALIDATION', issue.message, field || undefined);
}

/**
 * The message of an absent input whose schema has no message of its own (the shared field
 * builders all have one, naming the label): its path, as a last resort.
 */
const absentInput =
  (missing: (name: string) => string) =>
  (issue: { code?: string; input?: unknown; path?: readonly PropertyKey[] }): string | undefined =>
    issue.code === 'invalid_type' && issue.input === undefined && issue.path?.length ? missing(issue.path.map(String).join('.')) : undefined;

/** The schemas of one route's inputs; each one given is validated, in this order. */
export interface RouteSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a typed route handler receives: the parsed inputs with their inferred types. */
export interface RouteInput<S extends RouteSchemas> {
  params: Parsed<S['params']>;
  query: Parsed<S['query']>;
  body: Parsed<S['body']>;
}

/**
 * One API route's handler with validated, typed input: the route parameters, then the query
 * string, then the body are parsed with their shared schemas (a 400 names the first bad field in
 * Spanish, with its path as `field`) and handed to `handler` already
 * typed. The permission guard stays the route's first handler:
 *
 *   router.put('/:id', guard, route({ params: idParams, body: roleBody }, async ({ params, body }, req, res) => {
 *     res.json(await service.update(actorOf(req, res), params.id, body));
 *   }));
 */
export function route<const S extends RouteSchemas>(
  schemas: S,
  handler: (input: RouteInput<S>, req: Request, res: Response) => unknown,
): RequestHandler {
  return async (req, res) => {
    const parse = (schema: z.ZodType | undefined, input: unknown, missing: (f: string) => string, notAnObject: string): unknown => {
      if (!schema) return undefined;
      const result = schema.safeParse(input, { error: absentInput(missing) });
      if (!result.success) throw badRequest(result.error, notAnObject);
      return result.data;
    };
    const params = parse(schemas.params, req.params, M.field.requiredParam, M.api.badRequest);
    const query = parse(schemas.query, req.query, M.field.requiredParam, M.api.badRequest);
    const body = parse(schemas.body, req.body ?? {}, M.field.required, M.field.body);
    await handler({ params, query, body } as RouteInput<S>, req, res);
  };
}
