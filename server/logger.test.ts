import { secretValues } from './config';
import { createLogger } from './logger';

describe('createLogger', () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, destination: { write: (s: string) => void lines.push(s) } };
  };

  test('every line masks the secrets of the environment: URL passwords, password variables', () => {
    const { lines, destination } = capture();
    const env = { DATABASE_URL: 'postgres://portal:Sup3r-Secreta@db:5432/portal', BOOTSTRAP_ADMIN_PASSWORD: 'Jefa-Clave-2026!' };
    const logger = createLogger('info', destination, secretValues(env));
    logger.error({ err: new Error(`connect failed: ${env.DATABASE_URL}`) }, 'database down');
    logger.info({ detail: 'Sup3r-Secreta' }, `chosen password ${env.BOOTSTRAP_ADMIN_PASSWORD}`);
    logger.warn({ url: 'postgresql://otro:clave-de-otro@h/x' }, 'any connection URL');
    const out = lines.join('');
    expect(out).not.toContain('Sup3r-Secreta');
    expect(out).not.toContain('Jefa-Clave-2026!');
    expect(out).not.toContain('clave-de-otro');
    expect(out).toContain('postgres://portal:***@db:5432/portal');
    // Still one JSON object per line.
    expect(lines.map((l) => JSON.parse(l) as { msg: string }).map((l) => l.msg)).toEqual([
      'database down',
      'chosen password ***',
      'any connection URL',
    ]);
  });

  test("by default the secrets are those of this process's environment", () => {
    const before = process.env.DEMO_PASSWORD;
    process.env.DEMO_PASSWORD = 'Demo-Elegida-2026!';
    try {
      const { lines, destination } = capture();
      createLogger('info', destination).info('password Demo-Elegida-2026! here');
      expect(lines.join('')).toContain('password *** here');
    } finally {
      if (before === undefined) delete process.env.DEMO_PASSWORD;
      else process.env.DEMO_PASSWORD = before;
    }
  });
});
