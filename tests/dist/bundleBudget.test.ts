import fs from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { CHUNKS } from '../../client/app/pages';
import { DASHBOARD_CHART } from '../../client/features/dashboard/chartChunk';
import { ROUTES } from '../../shared/constants/routes';
import { BUDGETS_KB, bundleSizes } from '../../scripts/bundleSizes';
import { manifestFromMetafile } from '../../scripts/build';

/**
 * P2 of the quality targets, on the build in dist/ (`npm run build` first): first-load
 * JavaScript, gzipped, of /login ≤ 180 KB and /dashboard/general ≤ 200 KB; every page's own
 * chunk ≤ 40 KB. The dashboards' first load counts their chart chunk (chart.js), which /login
 * never loads. The sizes come from the asset manifest, which is checked against esbuild's
 * metafile first, so the budget is measured on what the build really emitted.
 */
const DIST = path.resolve(__dirname, '../../dist');
const KB = 1024;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

describe('bundle budgets (P2, gzipped)', () => {
  const sizes = bundleSizes(DIST);

  test('the manifest is the one the metafile gives (nothing measured that the build did not emit)', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(DIST, 'metafile.json'), 'utf8')) as Metafile;
    expect(manifestFromMetafile(meta, sizes.manifest.favicon)).toEqual(sizes.manifest);
    for (const chunk of CHUNKS) expect(sizes.manifest.pages[chunk.id]).toBeDefined();
  });

  test.each([
    ['/login', BUDGETS_KB['/login']],
    ['/dashboard/general', BUDGETS_KB['/dashboard/general']],
  ] as const)('first load of %s ≤ %d KB', (route, budget) => {
    const bytes = sizes.firstLoad(route);
    expect({ route, size: kb(bytes), withinBudget: bytes <= budget * KB }).toEqual({ route, size: kb(bytes), withinBudget: true });
  });

  test("the dashboards' first load includes the chart chunk; /login's does not", () => {
    const chart = sizes.manifest.pages[DASHBOARD_CHART.id]!.js;
    expect(sizes.firstLoadFiles('/dashboard/general')).toContain(chart);
    expect(sizes.firstLoadFiles('/dashboard/android')).toContain(chart);
    expect(sizes.firstLoadFiles('/login')).not.toContain(chart);
    // chart.js itself sits in the chart chunk or chunks only it imports: none of /login's files holds it.
    const meta = JSON.parse(fs.readFileSync(path.join(DIST, 'metafile.json'), 'utf8')) as Metafile;
    const withChartJs = Object.entries(meta.outputs)
      .filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes('node_modules/chart.js/')))
      .map(([file]) => `/${path.relative(path.join(DIST, 'public'), path.resolve(DIST, '..', file)).split(path.sep).join('/')}`);
    expect(withChartJs.length).toBeGreaterThan(0);
    expect(sizes.firstLoadFiles('/login').filter((f) => withChartJs.includes(f))).toEqual([]);
    expect(withChartJs.every((f) => sizes.firstLoadFiles('/dashboard/general').includes(f))).toBe(true);
  });

  test(`every page's own chunk ≤ ${BUDGETS_KB.pageChunk} KB`, () => {
    const routes = ROUTES.map((r) => r.path).filter((p) => !p.includes(':'));
    expect(routes.length).toBeGreaterThan(10);
    const over = routes
      .map((route) => ({ route, bytes: sizes.pageChunk(route) }))
      .filter((r) => r.bytes > BUDGETS_KB.pageChunk * KB)
      .map((r) => `${r.route}: ${kb(r.bytes)}`);
    expect(over).toEqual([]);
  });
});
