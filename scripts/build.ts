import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import { CHUNKS } from '../client/app/pages';
import type { AssetManifest, ScriptAsset } from '../server/ssr/manifest';
import { ASSET_PREFIX } from '../server/ssr/manifest';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const DIST = path.join(ROOT, 'dist');
const PUBLIC_ASSETS = path.join(DIST, 'public', 'assets');
/** The signed-in app: every page in its own chunk. */
const CLIENT_ENTRY = 'client/entry.client.tsx';
/** The public pages (sign-in, bare, not found), built on their own: see publicOptions. */
const PUBLIC_ENTRY = 'client/entry.public.tsx';
/** The signed-in app's stylesheet, an entry of its build. */
const STYLES_ENTRY = 'client/styles/index.css';
/** The public pages' stylesheet (no icon font, no toasts), an entry of theirs. */
const PUBLIC_STYLES_ENTRY = 'client/styles/public.css';
/** Written last: its presence and mtime say the build is complete and how fresh it is. */
export const BUILD_STAMP = path.join(DIST, 'build-info.json');
/** Everything a build reads: a newer file here makes `npm start` rebuild. */
export const SOURCE_PATHS = ['client', 'server', 'shared', 'scripts/build.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};

/**
 * Packages the server bundle includes instead of importing at run time. react-bootstrap is
 * imported by component (`react-bootstrap/Button`) so the client's chunks stay small, and those
 * directory imports only resolve in a bundler, not in Node's ESM loader.
 */
const BUNDLED_ON_SERVER = new Set(['react-bootstrap']);
const serverExternals = Object.keys(pkg.dependencies)
  .filter((d) => !BUNDLED_ON_SERVER.has(d))
  .flatMap((d) => [d, `${d}/*`]);

export const clientOptions: esbuild.BuildOptions = {
  absWorkingDir: ROOT,
  entryPoints: [CLIENT_ENTRY, STYLES_ENTRY],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome111', 'firefox115', 'safari16.4', 'edge111'],
  outdir: PUBLIC_ASSETS,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'files/[name]-[hash]',
  loader: { '.woff': 'file', '.woff2': 'file' },
  jsx: 'automatic',
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'linked',
  // amazon-cognito-identity-js and its helpers read Node's `global`.
  define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  logLevel: 'warning',
};

/**
 * The public pages' entry, in a build of its own. esbuild puts every set of modules shared by a
 * different set of lazily loaded pages into a chunk of its own, and an entry imports each such
 * chunk that holds a module of its own: in the app's build the sign-in page's first load was dozens
 * of small files, each fetched, compiled and linked on its own.
 * Built apart, with its pages in the entry (client/app/publicPages.tsx), its first load is its
 * entry file and esbuild's runtime chunk, shared with what it loads later (the sign-in library).
 */
export const publicOptions: esbuild.BuildOptions = { ...clientOptions, entryPoints: [PUBLIC_ENTRY, PUBLIC_STYLES_ENTRY] };

export const serverOptions: esbuild.BuildOptions = {
  absWorkingDir: ROOT,
  // The demo (tools/demo, imported lazily by server/index.ts) becomes a chunk of its own.
  entryPoints: { server: 'server/index.ts' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: serverExternals,
  // The ESM builds of bundled packages; CommonJS ones that remain can still require() externals.
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire as __portalCreateRequire } from 'node:module'; const require = __portalCreateRequire(import.meta.url);" },
  outdir: DIST,
  entryNames: '[name]',
  chunkNames: 'server-chunks/[name]-[hash]',
  loader: { '.sql': 'text' },
  jsx: 'automatic',
  sourcemap: 'linked',
  define: { __PORTAL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
};

const toUrl = (outFile: string) => `${ASSET_PREFIX}/${path.relative(PUBLIC_ASSETS, path.resolve(ROOT, outFile)).split(path.sep).join('/')}`;

/** The chunks an output imports statically, transitively (what the browser fetches at once). */
function staticImports(meta: esbuild.Metafile, outFile: string, seen = new Set<string>()): string[] {
  for (const imp of meta.outputs[outFile]?.imports ?? []) {
    if (imp.kind !== 'import-statement' || imp.external || seen.has(imp.path)) continue;
    seen.add(imp.path);
    staticImports(meta, imp.path, seen);
  }
  return [...seen];
}

/** The asset manifest the server reads, derived from the metafiles of the app's and the public pages' builds. */
export function manifestFromMetafile(meta: esbuild.Metafile, publicMeta: esbuild.Metafile, favicon: string): AssetManifest {
  const outputs = Object.entries(meta.outputs);
  const script = (m: esbuild.Metafile, outFile: string): ScriptAsset => ({
    js: toUrl(outFile),
    preload: staticImports(m, outFile).map(toUrl),
  });
  const entryFile = (m: esbuild.Metafile, entryPoint: string, ext = '.js') => {
    const out = Object.entries(m.outputs).find(([f, o]) => o.entryPoint === entryPoint && f.endsWith(ext));
    if (!out) throw new Error(`El metafile no contiene la entrada ${entryPoint}`);
    return out[0];
  };
  const app = entryFile(meta, CLIENT_ENTRY);
  const pub = entryFile(publicMeta, PUBLIC_ENTRY);
  const styles = (m: esbuild.Metafile, entryPoint: string) => [toUrl(entryFile(m, entryPoint, '.css'))];
  for (const [file, m] of [
    [app, meta],
    [pub, publicMeta],
  ] as const) {
    if ([file, ...staticImports(m, file)].some((f) => m.outputs[f]?.cssBundle))
      throw new Error(`${file} importa CSS: los estilos son entradas propias (client/styles)`);
  }

  const pages: Record<string, ScriptAsset> = {};
  for (const chunk of CHUNKS) {
    const out = outputs.find(([, o]) => o.entryPoint === chunk.id);
    if (!out) throw new Error(`El módulo ${chunk.id} no produjo un chunk propio: revisa su id en client/app/pages.ts`);
    pages[chunk.id] = script(meta, out[0]);
  }
  const buildId = createHash('sha256')
    .update(JSON.stringify([...Object.keys(meta.outputs), ...Object.keys(publicMeta.outputs)].sort()))
    .digest('hex')
    .slice(0, 16);
  const bytes = Object.fromEntries(
    [...outputs, ...Object.entries(publicMeta.outputs)].filter(([f]) => f.endsWith('.js')).map(([f, o]) => [toUrl(f), o.bytes]),
  );
  return {
    buildId,
    entry: { ...script(meta, app), css: styles(meta, STYLES_ENTRY) },
    publicEntry: { ...script(publicMeta, pub), css: styles(publicMeta, PUBLIC_STYLES_ENTRY) },
    pages,
    favicon,
    bytes,
  };
}

function copyHashed(src: string, destDir: string): string {
  const body = fs.readFileSync(src);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const ext = path.extname(src);
  const name = `${path.basename(src, ext)}-${hash}${ext}`;
  fs.writeFileSync(path.join(destDir, name), body);
  return `${ASSET_PREFIX}/${name}`;
}

/** Writes the manifest after the client builds (also used by `npm run dev`). */
export function writeManifest(meta: esbuild.Metafile, publicMeta: esbuild.Metafile): AssetManifest {
  const favicon = copyHashed(path.join(ROOT, 'client/assets/favicon.svg'), PUBLIC_ASSETS);
  const manifest = manifestFromMetafile(meta, publicMeta, favicon);
  fs.writeFileSync(path.join(DIST, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(DIST, 'metafile.json'), JSON.stringify(meta));
  fs.writeFileSync(path.join(DIST, 'metafile.public.json'), JSON.stringify(publicMeta));
  return manifest;
}

/** Text assets get .br and .gz siblings, served as they are (no compression per request). */
export function precompress(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|css|svg|txt)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const body = fs.readFileSync(file);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  }
}

export async function build(): Promise<AssetManifest> {
  const started = Date.now();
  fs.rmSync(DIST, { recursive: true, force: true });
  fs.mkdirSync(PUBLIC_ASSETS, { recursive: true });
  const [client, pub] = await Promise.all([esbuild.build(clientOptions), esbuild.build(publicOptions), esbuild.build(serverOptions)]);
  const manifest = writeManifest(client.metafile!, pub.metafile!);
  precompress(PUBLIC_ASSETS);
  fs.writeFileSync(BUILD_STAMP, `${JSON.stringify({ version: pkg.version, buildId: manifest.buildId, builtAt: new Date().toISOString() })}\n`);
  console.log(`build: dist/ listo en ${Date.now() - started} ms (build ${manifest.buildId})`);
  return manifest;
}

function newestMtime(p: string): number {
  const full = path.join(ROOT, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when dist/ is missing or older than any source file. */
export function isBuildStale(): boolean {
  if (!fs.existsSync(BUILD_STAMP)) return true;
  const built = fs.statSync(BUILD_STAMP).mtimeMs;
  return SOURCE_PATHS.some((p) => newestMtime(p) > built);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  build().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
