/**
 * JSON safe to place inside a `<script type="application/json">` element: `<` can never
 * close the element, and U+2028/U+2029 are escaped as in every JSON embedded in HTML.
 */
export function serializeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
