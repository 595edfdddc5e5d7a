import fs from 'node:fs';
import path from 'node:path';

/** A script with the chunks it imports statically (for `<link rel="modulepreload">`). */
export interface ScriptAsset {
  js: string;
  preload: string[];
}

/** What a document loads: its entry script, the modules it preloads, its stylesheets. */
export interface DocumentAssets extends ScriptAsset {
  css: string[];
}

/** What the client build wrote (`dist/manifest.json`): public URLs of the hashed files. */
export interface AssetManifest {
  buildId: string;
  /** The signed-in app's entry and stylesheets: the documents of the signed-in routes. */
  entry: DocumentAssets;
  /** The public pages' entry and stylesheets, built on their own: the documents of the other paths (isPublicPath). */
  publicEntry: DocumentAssets;
  /** Page chunks keyed by the page's source path (`LazyPage.id`). */
  pages: Record<string, ScriptAsset>;
  favicon: string;
  /** Bytes of each JavaScript file, by URL: the document preloads the largest first. */
  bytes: Record<string, number>;
}

/** URL prefix of the hashed client files. */
export const ASSET_PREFIX = '/assets';

export interface ClientAssets {
  /** Directory served at ASSET_PREFIX. */
  dir: string;
  manifest: AssetManifest;
}

/** Reads the build output of `npm run build` from a dist directory. */
export function loadClientAssets(distDir: string): ClientAssets {
  const file = path.join(distDir, 'manifest.json');
  if (!fs.existsSync(file)) {
    throw new Error(`No existe ${file}: ejecuta "npm run build" primero`);
  }
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as AssetManifest;
  return { dir: path.join(distDir, 'public', 'assets'), manifest };
}
