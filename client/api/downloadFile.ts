import { sessionHeaders, type ApiError, type ApiExtra } from './axiosBaseQuery';

/** Saves a Blob as a file through an object URL. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The browser's IANA time zone ('America/Mexico_City'), or undefined when the browser names none. */
export function browserTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

/**
 * Downloads a file (CSV exports, templates, job results) with the session headers and saves
 * it under the name the server gives; the file never enters the store. The browser's zone goes
 * along as `tz`: the dates of an export are written in it, and its header names it. For an RTK
 * Query `queryFn`: answers `{ data: null }` or `{ error }` like the base query.
 */
export async function downloadFile(
  extra: ApiExtra,
  url: string,
  params: Record<string, unknown> | undefined,
  fallbackName: string,
): Promise<{ data: null } | { error: ApiError }> {
  const session = await sessionHeaders(extra);
  if ('error' in session) return session;
  const { headers } = session;
  const { default: axios } = await import('axios');
  try {
    const tz = browserTimeZone();
    const res = await axios.get<Blob>(url, { baseURL: extra.apiBase, params: tz ? { ...params, tz } : params, headers, responseType: 'blob' });
    const disposition = String(res.headers['content-disposition'] ?? '');
    const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
    saveBlob(res.data, fileName);
    return { data: null };
  } catch (err) {
    if (axios.isAxiosError(err) && err.response) {
      let data: unknown = err.response.data;
      if (data instanceof Blob) {
        try {
          data = JSON.parse(await data.text());
        } catch {
          data = undefined;
        }
      }
      return { error: { status: err.response.status, code: err.code, data } };
    }
    return { error: { status: 'NETWORK_ERROR', data: String(err) } };
  }
}
