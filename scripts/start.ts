/** `npm start`: build when dist/ is missing or stale, then run the server bundle. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, build, isBuildStale } from './build';

if (isBuildStale()) {
  console.log('start: compilando (dist/ falta o está desactualizado)…');
  await build();
}
await import(pathToFileURL(path.join(DIST, 'server.js')).href);
