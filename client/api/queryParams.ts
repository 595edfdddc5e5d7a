/** Drops empty values so the query string carries only the filters in use. */
export function queryParams(obj: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== '' && v !== null));
}
