/**
 * `npm start`: build when dist/ is missing or stale, then run the server bundle with the embedded
 * demo's defaults (scripts/demoEnv.ts: outside production only, an explicit value wins).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, build, isBuildStale } from './build';
import { applyDemoDefaults } from './demoEnv';

applyDemoDefaults(process.env);

if (isBuildStale()) {
  console.log('start: compilando (dist/ falta o está desactualizado)…');
  await build();
}
await import(pathToFileURL(path.join(DIST, 'server.js')).href);
