/**
 * The first half of `npm start`: build when dist/ is missing or stale. The second half,
 * `node --v8-pool-size=1 --max-semi-space-size=4 dist/server.js --demo`, runs the server in a
 * process of its own, without this script's TypeScript loader (about 90 MB of resident memory it
 * would keep for nothing), with the embedded demo's defaults (server/demoEnv.ts: outside
 * production only, an explicit value wins), one V8 worker thread instead of four (fewer allocator
 * arenas stay resident after the demo's seeding) and a young generation of 4 MB semi-spaces
 * instead of 16 (about 27 MB less heap). docs/benchmarks.md (M) has the figures.
 */
import { build, isBuildStale } from './build';

if (isBuildStale()) {
  console.log('start: compilando (dist/ falta o está desactualizado)…');
  await build();
}
