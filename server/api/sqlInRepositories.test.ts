import fs from 'node:fs';
import path from 'node:path';

/** The source files (not tests) under a directory. */
function sources(dir: string): { file: string; text: string }[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => ({ file: path.relative(path.join(__dirname, '..'), path.join(dir, f)), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

describe('SQL only in repositories (router → service → repository; the device and credits domains, the agent side, the integration and the identity endpoint too)', () => {
  const files = [
    ...sources(__dirname),
    ...sources(path.join(__dirname, '..', 'middleware')),
    ...sources(path.join(__dirname, '..', 'auth')),
    ...sources(path.join(__dirname, '..', 'agent')),
    ...sources(path.join(__dirname, '..', 'integration')),
    ...sources(path.join(__dirname, '..', 'webhooks')),
    ...sources(path.join(__dirname, '..', 'identity')),
    ...sources(path.join(__dirname, '..', 'devices')),
    ...sources(path.join(__dirname, '..', 'credits')),
  ];

  test('the API, middleware, auth, devices, credits, agent, integration, webhooks and identity sources are found', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((f) => f.file.endsWith('Repository.ts'))).toBe(true);
    expect(files.map((f) => f.file)).toEqual(
      expect.arrayContaining([
        path.join('auth', 'sessionRevocations.ts'),
        path.join('auth', 'grantsRepository.ts'),
        path.join('agent', 'agentService.ts'),
        path.join('identity', 'identityService.ts'),
        path.join('identity', 'identityRepository.ts'),
        path.join('devices', 'deviceRepository.ts'),
        path.join('devices', 'deviceActionsService.ts'),
        path.join('credits', 'creditRepository.ts'),
        path.join('credits', 'creditsService.ts'),
      ]),
    );
  });

  test('only files named …Repository.ts run queries', () => {
    const offenders = files.filter((f) => !f.file.endsWith('Repository.ts') && /\.query\s*(<|\()/.test(f.text)).map((f) => f.file);
    expect(offenders).toEqual([]);
  });
});
