import { PATHS, ROUTES, type RoutePath } from '../../shared/constants/routes';
import type { LazyPage } from './lazyPage';
import { DASHBOARD_CHART } from '../features/dashboard/chartChunk';
import { APP_FRAME, CHUNKS, PAGES, PAGE_BY_PATH, chunksForPath, pageForRoute } from './pages';

describe('page map', () => {
  test('every route of the table has an entry, and nothing else does', () => {
    expect(Object.keys(PAGE_BY_PATH).sort()).toEqual(ROUTES.map((r) => r.path).sort());
  });

  test('the built pages render their own routes; modules without one show the section page', () => {
    const page = (path: RoutePath) => pageForRoute(ROUTES.find((r) => r.path === path)!);
    expect(page(PATHS.login)).toBe(PAGES.login);
    expect(page(PATHS.devices)).toBe(PAGES.devices);
    expect(page(PATHS.preEnrolled)).toBe(PAGES.preEnrolled);
    expect(page(PATHS.roles)).toBe(PAGES.roles);
    expect(page(PATHS.audit)).toBe(PAGES.audit);
    expect(page(PATHS.dashboard)).toBe(PAGES.dashboard);
    expect(page(PATHS.dashboardGeneral)).toBe(PAGES.dashboardGeneral);
    expect(page(PATHS.dashboardAndroid)).toBe(PAGES.dashboardAndroid);
    expect(page(PATHS.home)).toBe(PAGES.section);
    expect(chunksForPath('/inventory-management/devices/?x=1')).toEqual([APP_FRAME, PAGES.devices]);
    expect(chunksForPath('/login')).toEqual([PAGES.login]);
    expect(chunksForPath('/no-such-page')).toEqual([]);
  });

  test("the chart chunk is a chunk of its own, in no route's first load (the charts load after the page is interactive)", () => {
    expect(CHUNKS).toContain(DASHBOARD_CHART);
    expect(chunksForPath(PATHS.dashboardGeneral)).toEqual([APP_FRAME, PAGES.dashboardGeneral]);
    expect(chunksForPath(PATHS.dashboardAndroid)).toEqual([APP_FRAME, PAGES.dashboardAndroid]);
    expect(ROUTES.filter((r) => chunksForPath(r.path).some((c) => c.id === DASHBOARD_CHART.id))).toEqual([]);
  });

  test('a map missing a route fails the type check', () => {
    // @ts-expect-error every RoutePath needs a page
    const partial = { [PATHS.login]: PAGES.login } satisfies Record<RoutePath, LazyPage>;
    expect(Object.keys(partial)).toEqual(['/login']);
  });
});
