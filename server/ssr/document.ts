import { CONFIG_ELEMENT_ID, ROOT_ELEMENT_ID, STATE_ELEMENT_ID } from '../../shared/constants/document';
import { PRODUCT_NAME } from '../../shared/messages';
import type { AssetManifest, DocumentAssets } from './manifest';
import { serializeJson } from './serializeJson';

export interface DocumentParts {
  markup: string;
  config: unknown;
  state: unknown;
  manifest: AssetManifest;
  /** The entry the page loads, the modules it preloads and its stylesheets (documentAssets). */
  assets: DocumentAssets;
  /** Stands where the request's CSP nonce goes; replaced on every response. */
  nonce: string;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The whole HTML page around the server-rendered markup. */
export function renderDocument({ markup, config, state, manifest, assets, nonce }: DocumentParts): string {
  // Largest first: the browser fetches a handful at a time, and a large file compiles (off the main
  // thread) while the small ones arrive.
  const preload = [...assets.preload].sort((a, b) => (manifest.bytes[b] ?? 0) - (manifest.bytes[a] ?? 0));
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${PRODUCT_NAME}</title>`,
    `<link rel="icon" type="image/svg+xml" href="${escapeAttr(manifest.favicon)}">`,
    ...assets.css.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`),
    // The entry (React DOM, the largest file) first: a module script is deferred wherever it
    // stands, and from here it is fetched in the browser's first round of requests, not its last.
    `<script type="module" nonce="${nonce}" src="${escapeAttr(assets.js)}"></script>`,
    ...preload.map((href) => `<link rel="modulepreload" href="${escapeAttr(href)}">`),
  ].join('');
  return (
    `<!doctype html><html lang="es"><head>${head}</head><body>` +
    `<div id="${ROOT_ELEMENT_ID}">${markup}</div>` +
    `<script id="${CONFIG_ELEMENT_ID}" type="application/json">${serializeJson(config)}</script>` +
    `<script id="${STATE_ELEMENT_ID}" type="application/json">${serializeJson(state)}</script>` +
    '</body></html>'
  );
}
