/** Gzipped sizes of what the browser loads, from the build's asset manifest (P2 of docs/benchmarks.md). */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageForRoute } from '../client/app/pages';
import { findRoute } from '../shared/constants/routes';
import { documentAssets } from '../server/ssr/documentAssets';
import type { AssetManifest } from '../server/ssr/manifest';

/** P2's budgets: /login, /dashboard/general, every route's first load ([ux] item 13) and each page's own chunk. */
export const BUDGETS_KB = { '/login': 180, '/dashboard/general': 200, route: 200, pageChunk: 40 } as const;

export interface BundleSizes {
  manifest: AssetManifest;
  /** Gzipped bytes of one asset URL of the manifest. */
  gz(url: string): number;
  /** The files (URLs) a first visit of `route` loads: its document's entry and preloads (documentAssets). */
  firstLoadFiles(route: string): string[];
  /** Gzipped bytes of the JavaScript a first visit of `route` loads (firstLoadFiles). */
  firstLoad(route: string): number;
  /** Gzipped bytes of the route's own page chunk. */
  pageChunk(route: string): number;
}

export function bundleSizes(dist: string): BundleSizes {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8')) as AssetManifest;
  const gz = (url: string) => gzipSync(fs.readFileSync(path.join(dist, 'public', url))).length;
  const firstLoadFiles = (route: string) => {
    const { js, preload } = documentAssets(manifest, route);
    return [js, ...preload];
  };
  return {
    manifest,
    gz,
    firstLoadFiles,
    firstLoad: (route) => firstLoadFiles(route).reduce((s, f) => s + gz(f), 0),
    pageChunk: (route) => gz(manifest.pages[pageForRoute(findRoute(route)!).id]!.js),
  };
}
