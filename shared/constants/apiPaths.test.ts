import { API_PATHS, type PathValue } from './apiPaths';

type Builder = ((...values: PathValue[]) => string) & { pattern: string };

/** Every resource's sub-path builders, as `[resource, name, builder]`. */
const builders = Object.entries(API_PATHS).flatMap(([resource, entry]) =>
  Object.entries(entry)
    .filter(([name]) => name !== 'base')
    .map(([name, builder]) => [resource, name, builder as Builder] as const),
);

const paramsOf = (pattern: string) => pattern.split('/').filter((s) => s.startsWith(':'));

describe('API_PATHS', () => {
  test('builds the paths the client calls, under the API base', () => {
    expect(API_PATHS.groups.base).toBe('/v5/groups');
    expect(API_PATHS.devices.history(7)).toBe('/v5/devices/7/history');
    expect(API_PATHS.devices.cancelCommand(7, 42)).toBe('/v5/devices/7/actions/42/cancel');
    expect(API_PATHS.webhooks.resend(3, 9)).toBe('/v5/webhooks/3/deliveries/9/resend');
    expect(API_PATHS.jobs.resultsCsv(5)).toBe('/v5/jobs/5/results.csv');
    expect(API_PATHS.audit.export()).toBe('/v5/audit/export');
    expect(API_PATHS.portal.getVersionApp()).toBe('/portal/getVersionApp');
    expect(API_PATHS.agentSettings.section('tv', 'restrictions-lock')).toBe('/v5/agent-settings/tv/restrictions-lock');
  });

  test('each value is one encoded path segment', () => {
    expect(API_PATHS.devices.one('a/b c')).toBe('/v5/devices/a%2Fb%20c');
    expect(API_PATHS.devices.history('../7?x=1#y')).toBe('/v5/devices/..%2F7%3Fx%3D1%23y/history');
    expect(API_PATHS.agentSettings.currentLockApp('tv', 'ñ')).toBe('/v5/agent-settings/tv/app-lock/%C3%B1/current');
  });

  test('every base is an absolute path without a trailing slash, each used once', () => {
    const bases = Object.values(API_PATHS).map((r) => r.base);
    for (const base of bases) expect(base).toMatch(/^(\/[a-z0-9-]+)+$/);
    expect(new Set(bases).size).toBe(bases.length);
  });

  test.each(builders)('%s.%s: a well-formed Express pattern, filled in order', (resource, _name, builder) => {
    const { pattern } = builder;
    // Literal segments (the older routes are camelCase; a file name may carry its extension) or `:name` parameters; no empty segment.
    expect(pattern).toMatch(/^(\/([A-Za-z0-9-]+(\.[a-z0-9]+)?|:[A-Za-z]\w*))+$/);
    const params = paramsOf(pattern);
    expect(new Set(params).size).toBe(params.length);
    const values = params.map((_p, i) => `v${i}`);
    const expected = params.reduce((path, p, i) => path.replace(p, values[i]!), pattern);
    expect(builder(...values)).toBe(API_PATHS[resource as keyof typeof API_PATHS].base + expected);
  });

  test('no two sub-paths of a resource share a pattern', () => {
    for (const [resource, entry] of Object.entries(API_PATHS)) {
      const patterns = builders.filter(([r]) => r === resource).map(([, , b]) => b.pattern);
      expect({ resource, patterns: new Set(patterns).size }).toEqual({ resource, patterns: Object.keys(entry).length - 1 });
    }
  });

  test('a builder takes exactly one value per parameter (checked by the type checker)', () => {
    // @ts-expect-error one value too few
    expect(API_PATHS.devices.cancelCommand(7)).toBe('/v5/devices/7/actions/undefined/cancel');
    // @ts-expect-error a path without parameters takes none
    expect(API_PATHS.audit.export(7)).toBe('/v5/audit/export');
  });
});
