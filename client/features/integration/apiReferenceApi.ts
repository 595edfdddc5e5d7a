import { OPENAPI_DOCUMENT_PATH } from '../../../shared/constants/apiReferenceLabels';
import { apiSlice } from '../../api/apiSlice';
import type { ApiError } from '../../api/axiosBaseQuery';

/**
 * The integration API's OpenAPI document, as the reference page reads it. It is public, served
 * by this portal at OPENAPI_DOCUMENT_PATH (not under the portal API's base, and without the
 * session's headers): fetched with a plain fetch inside the api slice, cached like any query.
 */

/** The part of JSON Schema 2020-12 the page shows. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiMedia {
  schema?: JsonSchema;
}

export interface OpenApiResponse {
  $ref?: string;
  description?: string;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  content?: Record<string, OpenApiMedia>;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  'x-requires'?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, OpenApiMedia> };
  responses?: Record<string, OpenApiResponse>;
}

export type OpenApiPathItem = Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', OpenApiOperation>>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths?: Record<string, OpenApiPathItem>;
  webhooks?: Record<string, OpenApiPathItem>;
  components?: { schemas?: Record<string, JsonSchema>; responses?: Record<string, OpenApiResponse> };
}

/** One operation of the document, in the document's order. */
export interface ApiReferenceOperationEntry {
  method: string;
  path: string;
  operation: OpenApiOperation;
  /** The page's anchor of the operation. */
  anchor: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of `paths` (or `webhooks`), in order. */
export function operationsOf(items: Record<string, OpenApiPathItem> | undefined, prefix: string): ApiReferenceOperationEntry[] {
  return Object.entries(items ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      if (!operation) return [];
      const id = operation.operationId ?? `${method}-${path}`;
      return [{ method, path, operation, anchor: `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '-')}` }];
    }),
  );
}

/** The object a local `#/…` reference names, or undefined. */
export function resolveRef<T>(doc: OpenApiDocument, ref: string): T | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node as T;
}

/** `value`, or what its `$ref` names. */
export function deref<T extends { $ref?: string }>(doc: OpenApiDocument, value: T): T {
  return value.$ref ? (resolveRef<T>(doc, value.$ref) ?? value) : value;
}

/** The full base URL of the API: the document's server, made absolute on this portal's origin. */
export function baseUrlOf(doc: OpenApiDocument, origin: string): string {
  const url = doc.servers?.[0]?.url ?? '';
  return /^https?:\/\//.test(url) ? url : `${origin}${url}`;
}

export const apiReferenceApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getOpenApiDocument: build.query<OpenApiDocument, void>({
      queryFn: async (_arg, { signal }) => {
        try {
          const res = await fetch(OPENAPI_DOCUMENT_PATH, { signal, headers: { Accept: 'application/json' } });
          const data: unknown = await res.json().catch(() => null);
          if (!res.ok) return { error: { status: res.status, data } satisfies ApiError };
          if (data === null || typeof data !== 'object' || typeof (data as OpenApiDocument).openapi !== 'string') {
            return { error: { status: res.status, data } satisfies ApiError };
          }
          return { data: data as OpenApiDocument };
        } catch (err) {
          return { error: { status: 'NETWORK_ERROR', data: String(err) } satisfies ApiError };
        }
      },
    }),
  }),
});

export const { useGetOpenApiDocumentQuery } = apiReferenceApi;
