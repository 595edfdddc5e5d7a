/** Gzipped sizes of what the browser loads, from the build's asset manifest (P2 of docs/quality.md). */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chunksForPath } from '../client/app/pages';
import type { AssetManifest } from '../server/ssr/manifest';

export const BUDGETS_KB = { '/login': 180, '/dashboard/general': 200, pageChunk: 40 } as const;

export interface BundleSizes {
  manifest: AssetManifest;
  /** Gzipped bytes of one asset URL of the manifest. */
  gz(url: string): number;
  /** Gzipped bytes of the JavaScript a first visit of `route` loads (entry, its preloads, the route's chunks). */
  firstLoad(route: string): number;
  /** Gzipped bytes of the route's own page chunk. */
  pageChunk(route: string): number;
}

export function bundleSizes(dist: string): BundleSizes {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8')) as AssetManifest;
  const gz = (url: string) => gzipSync(fs.readFileSync(path.join(dist, 'public', url))).length;
  const chunks = (route: string) => chunksForPath(route).map((c) => manifest.pages[c.id]!);
  return {
    manifest,
    gz,
    firstLoad(route) {
      const cs = chunks(route);
      const files = [...new Set([manifest.entry.js, ...manifest.entry.preload, ...cs.flatMap((c) => [c.js, ...c.preload])])];
      return files.reduce((s, f) => s + gz(f), 0);
    },
    pageChunk: (route) => gz(chunks(route).at(-1)!.js),
  };
}
