import fs from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { CHUNKS, DIALOGS } from '../../client/app/pages';
import { DASHBOARD_CHART } from '../../client/features/dashboard/chartChunk';
import { isPublicPath, ROUTES } from '../../shared/constants/routes';
import { BUDGETS_KB, bundleSizes } from '../../scripts/bundleSizes';
import { manifestFromMetafile } from '../../scripts/build';

/**
 * P2 of the quality targets, on the build in dist/ (`npm run build` first): first-load
 * JavaScript, gzipped, of /login ≤ 180 KB and /dashboard/general ≤ 200 KB; every page's own
 * chunk ≤ 40 KB. The dashboards' charts (chart.js) are a chunk of their own, loaded after the
 * page is interactive and by no other page. The sizes come from the asset manifest, which is checked against esbuild's
 * metafile first, so the budget is measured on what the build really emitted.
 */
const DIST = path.resolve(__dirname, '../../dist');
const KB = 1024;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

describe('bundle budgets (P2, gzipped)', () => {
  const sizes = bundleSizes(DIST);

  test('the manifest is the one the metafile gives (nothing measured that the build did not emit)', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(DIST, 'metafile.json'), 'utf8')) as Metafile;
    const publicMeta = JSON.parse(fs.readFileSync(path.join(DIST, 'metafile.public.json'), 'utf8')) as Metafile;
    expect(manifestFromMetafile(meta, publicMeta, sizes.manifest.favicon)).toEqual(sizes.manifest);
    for (const chunk of CHUNKS) expect(sizes.manifest.pages[chunk.id]).toBeDefined();
  });

  test.each([
    ['/login', BUDGETS_KB['/login']],
    ['/dashboard/general', BUDGETS_KB['/dashboard/general']],
  ] as const)('first load of %s ≤ %d KB', (route, budget) => {
    const bytes = sizes.firstLoad(route);
    expect({ route, size: kb(bytes), withinBudget: bytes <= budget * KB }).toEqual({ route, size: kb(bytes), withinBudget: true });
  });

  test("the sign-in page's first load is the public pages' own build: its entry and at most one shared chunk, nothing of the app's", () => {
    const publicMeta = JSON.parse(fs.readFileSync(path.join(DIST, 'metafile.public.json'), 'utf8')) as Metafile;
    const publicFiles = new Set(Object.keys(publicMeta.outputs).map((f) => `/${path.relative(path.join(DIST, 'public'), path.resolve(DIST, '..', f)).split(path.sep).join('/')}`));
    const files = sizes.firstLoadFiles('/login');
    expect(files[0]).toBe(sizes.manifest.publicEntry.js);
    expect(files.filter((f) => !publicFiles.has(f))).toEqual([]);
    expect(files.length).toBeLessThanOrEqual(2);
    // Its pages are in the entry: no page chunk of the app's build is loaded or preloaded.
    expect(files.filter((f) => Object.values(sizes.manifest.pages).some((p) => p.js === f))).toEqual([]);
  });

  test('chart.js is only in the chart chunk (and chunks only it imports): in no first load, /login included', () => {
    expect(sizes.manifest.pages[DASHBOARD_CHART.id]?.js).toBeDefined();
    const meta = JSON.parse(fs.readFileSync(path.join(DIST, 'metafile.json'), 'utf8')) as Metafile;
    const withChartJs = Object.entries(meta.outputs)
      .filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes('node_modules/chart.js/')))
      .map(([file]) => `/${path.relative(path.join(DIST, 'public'), path.resolve(DIST, '..', file)).split(path.sep).join('/')}`);
    expect(withChartJs.length).toBeGreaterThan(0);
    for (const route of ['/login', '/dashboard/general', '/dashboard/android', '/inventory-management/devices']) {
      expect({ route, chartFiles: sizes.firstLoadFiles(route).filter((f) => withChartJs.includes(f)) }).toEqual({ route, chartFiles: [] });
    }
  });

  const urlOf = (file: string) => `/${path.relative(path.join(DIST, 'public'), path.resolve(DIST, '..', file)).split(path.sep).join('/')}`;
  /** The emitted files that hold some of `pkg` (a path under node_modules). */
  const filesWith = (pkg: string) => {
    const meta = JSON.parse(fs.readFileSync(path.join(DIST, 'metafile.json'), 'utf8')) as Metafile;
    const files = Object.entries(meta.outputs)
      .filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes(`node_modules/${pkg}`)))
      .map(([file]) => urlOf(file));
    expect({ pkg, emitted: files.length > 0 }).toEqual({ pkg, emitted: true });
    return files;
  };
  /** Pages whose forms are all dialogs and whose lists read the URL with listParams (zod/mini). */
  const DIALOG_FORM_PAGES = ['/admin-settings/api-keys', '/admin-settings/admins', '/admin-settings/roles'];

  test("a dialog's form is a chunk of its own: in no first load, and react-hook-form in none of a page whose forms are dialogs", () => {
    const forms = DIALOGS.map((chunk) => sizes.manifest.pages[chunk.id]!.js);
    for (const route of ROUTES.map((r) => r.path).filter((p) => !p.includes(':'))) {
      expect({ route, forms: sizes.firstLoadFiles(route).filter((f) => forms.includes(f)) }).toEqual({ route, forms: [] });
    }
    const withForms = filesWith('react-hook-form/');
    for (const route of DIALOG_FORM_PAGES) {
      expect({ route, formFiles: sizes.firstLoadFiles(route).filter((f) => withForms.includes(f)) }).toEqual({ route, formFiles: [] });
    }
  });

  test(`every route of the route table: first load ≤ ${BUDGETS_KB.route} KB`, () => {
    const routes = ROUTES.map((r) => r.path);
    expect(routes.length).toBeGreaterThan(30);
    const over = routes
      .map((route) => ({ route, bytes: sizes.firstLoad(route) }))
      .filter((r) => r.bytes > BUDGETS_KB.route * KB)
      .map((r) => `${r.route}: ${kb(r.bytes)}`);
    expect(over).toEqual([]);
  });

  test("zod (the contracts' schemas, the forms' validation) is in no signed-in route's first load: it loads once the page is idle", () => {
    const withZod = filesWith('zod/');
    for (const route of ROUTES.map((r) => r.path).filter((p) => !isPublicPath(p))) {
      expect({ route, zodFiles: sizes.firstLoadFiles(route).filter((f) => withZod.includes(f)) }).toEqual({ route, zodFiles: [] });
    }
  });

  test("react-bootstrap's Modal is in no first load: the portal's dialog (AppModal) is a chunk of its own", () => {
    const withModal = filesWith('react-bootstrap/esm/Modal.js');
    for (const route of ['/', '/inventory-management/devices', '/agent-settings/restrictions-lock', '/credits/collection-policy']) {
      expect({ route, modalFiles: sizes.firstLoadFiles(route).filter((f) => withModal.includes(f)) }).toEqual({ route, modalFiles: [] });
    }
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
