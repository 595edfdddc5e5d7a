import { isPublicPath } from '../../shared/constants/routes';
import { chunksForPath } from '../../client/app/pages';
import type { AssetManifest, DocumentAssets } from './manifest';

/**
 * The script a URL's document loads, the modules it preloads and its stylesheets. A public path (the sign-in page,
 * the bare pages, not found) loads the public pages' entry, which holds its pages; a signed-in
 * route loads the app's entry and preloads the route's chunks (frame, page) with theirs.
 */
export function documentAssets(manifest: AssetManifest, url: string): DocumentAssets {
  if (isPublicPath(url)) return manifest.publicEntry;
  const chunks = chunksForPath(url).map((c) => manifest.pages[c.id]!);
  return { ...manifest.entry, preload: [...new Set([...manifest.entry.preload, ...chunks.flatMap((c) => [c.js, ...c.preload])])] };
}
