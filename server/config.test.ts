import { ConfigError, LOCAL_POOL, loadConfig, maskSecrets, secretValues } from './config';

describe('loadConfig', () => {
  test('defaults: embedded identity with the local pool, PGlite under ./data, port 3000', () => {
    const c = loadConfig({}, '1.2.3');
    expect(c).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      apiBase: '/api',
      portalVersion: '1.2.3',
      database: { url: undefined, dataDir: './data', poolMax: 10, pgliteSharedBuffersMb: 128 },
      shutdown: { delayMs: 5000, timeoutMs: 10000 },
      identity: { mode: 'embedded', ...LOCAL_POOL },
      agent: { presenceFlushMs: 1000 },
      companyTimeZone: 'America/Mexico_City',
    });
    expect(loadConfig({ AGENT_PRESENCE_FLUSH_MS: '250' }, '1').agent.presenceFlushMs).toBe(250);
    expect(loadConfig({ COMPANY_TIME_ZONE: 'America/Bogota' }, '1').companyTimeZone).toBe('America/Bogota');
    expect(loadConfig({ PGLITE_SHARED_BUFFERS_MB: '32' }, '1').database.pgliteSharedBuffersMb).toBe(32);
  });

  test('a bad value stops start-up naming the variable', () => {
    const bad = (env: Record<string, string>) => {
      try {
        loadConfig(env, '1');
      } catch (err) {
        return err as ConfigError;
      }
      throw new Error('no error');
    };
    expect(bad({ PORT: 'abc' }).variables).toEqual(['PORT']);
    expect(bad({ PORT: '70000' }).message).toContain('PORT');
    expect(bad({ DATABASE_URL: 'mysql://x' }).message).toMatch(/DATABASE_URL: debe empezar con postgres/);
    expect(bad({ LOG_LEVEL: 'loud', SHUTDOWN_DELAY_MS: '-1' }).variables.sort()).toEqual(['LOG_LEVEL', 'SHUTDOWN_DELAY_MS']);
    expect(bad({ NODE_ENV: 'staging' }).variables).toEqual(['NODE_ENV']);
    expect(bad({ AGENT_PRESENCE_FLUSH_MS: '5' }).variables).toEqual(['AGENT_PRESENCE_FLUSH_MS']);
    expect(bad({ PGLITE_SHARED_BUFFERS_MB: '0' }).variables).toEqual(['PGLITE_SHARED_BUFFERS_MB']);
    expect(bad({ AGENT_PRESENCE_FLUSH_MS: '60000' }).message).toMatch(/AGENT_PRESENCE_FLUSH_MS: debe ser como máximo 10000/);
    expect(bad({ COMPANY_TIME_ZONE: 'Mexico/Narnia' }).message).toMatch(/COMPANY_TIME_ZONE: debe ser una zona horaria IANA/);
  });

  test('production defaults to Cognito and requires the pool and client ids', () => {
    const err = (() => {
      try {
        loadConfig({ NODE_ENV: 'production' }, '1');
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err?.variables.sort()).toEqual(['COGNITO_CLIENT_ID', 'COGNITO_USER_POOL_ID']);
    const c = loadConfig({ NODE_ENV: 'production', COGNITO_USER_POOL_ID: 'sa-east-1_Abc123', COGNITO_CLIENT_ID: 'client123' }, '1');
    expect(c.identity).toEqual({ mode: 'cognito', region: 'sa-east-1', userPoolId: 'sa-east-1_Abc123', clientId: 'client123' });
  });

  test('production may choose the embedded identity explicitly', () => {
    const c = loadConfig({ NODE_ENV: 'production', IDENTITY_MODE: 'embedded' }, '1');
    expect(c.identity.mode).toBe('embedded');
    expect(c.identity.userPoolId).toBe(LOCAL_POOL.userPoolId);
  });

  test('production with the embedded identity: no demo password, no known example password', () => {
    const vars = (env: Record<string, string>) => {
      try {
        loadConfig(env, '1');
        return [];
      } catch (err) {
        return (err as ConfigError).variables;
      }
    };
    const prod = { NODE_ENV: 'production', IDENTITY_MODE: 'embedded' };
    expect(vars({ ...prod, DEMO_PASSWORD: 'Otra-Clave-2026!' })).toEqual(['DEMO_PASSWORD']);
    expect(vars({ ...prod, BOOTSTRAP_ADMIN_PASSWORD: 'Demo-Portal-2026!' })).toEqual(['BOOTSTRAP_ADMIN_PASSWORD']);
    expect(vars({ ...prod, BOOTSTRAP_ADMIN_PASSWORD: 'Una-Clave-Propia-77' })).toEqual([]);
    expect(vars({ DEMO_PASSWORD: 'Demo-Portal-2026!' })).toEqual([]);
    expect(loadConfig({ ...prod, SEED_DEMO: 'true' }, '1').bootstrap.seedDemo).toBe(false);
    expect(vars({ BOOTSTRAP_ADMIN_EMAIL: 'no-es-correo' })).toEqual(['BOOTSTRAP_ADMIN_EMAIL']);
    expect(vars({ IDENTITY_ACCESS_TOKEN_TTL_SECONDS: '10' })).toEqual(['IDENTITY_ACCESS_TOKEN_TTL_SECONDS']);
  });

  test('webhooks call private targets only when WEBHOOK_ALLOW_PRIVATE_TARGETS=true, never in production', () => {
    const allow = (env: Record<string, string>) => loadConfig(env, '1').webhooks.allowPrivateTargets;
    expect(allow({})).toBe(false);
    expect(allow({ NODE_ENV: 'development' })).toBe(false);
    expect(allow({ NODE_ENV: 'test' })).toBe(false);
    expect(allow({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toBe(true);
    expect(allow({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toBe(true);
    expect(allow({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' })).toBe(false);
    const prod = { NODE_ENV: 'production', IDENTITY_MODE: 'embedded' };
    expect(allow(prod)).toBe(false);
    expect(allow({ ...prod, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' })).toBe(false);
    const err = (() => {
      try {
        loadConfig({ ...prod, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, '1');
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.variables).toEqual(['WEBHOOK_ALLOW_PRIVATE_TARGETS']);
    expect(err?.message).toMatch(/WEBHOOK_ALLOW_PRIVATE_TARGETS: no se admite en producción/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }, '1')).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });

  test('enrollments from loopback are limited like any other unless AGENT_ENROLL_EXEMPT_LOOPBACK=true', () => {
    expect(loadConfig({}, '1').agent.enrollExemptLoopback).toBe(false);
    expect(loadConfig({ AGENT_ENROLL_EXEMPT_LOOPBACK: 'false' }, '1').agent.enrollExemptLoopback).toBe(false);
    expect(loadConfig({ AGENT_ENROLL_EXEMPT_LOOPBACK: 'true' }, '1').agent.enrollExemptLoopback).toBe(true);
    let err: ConfigError | undefined;
    try {
      loadConfig({ AGENT_ENROLL_EXEMPT_LOOPBACK: '1' }, '1');
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err?.variables).toEqual(['AGENT_ENROLL_EXEMPT_LOOPBACK']);
  });
});

describe('secrets never reach the console', () => {
  const errorOf = (env: Record<string, string>) => {
    try {
      loadConfig(env, '1');
    } catch (err) {
      return err as ConfigError;
    }
    throw new Error('no error');
  };

  test('a bad value is quoted, except a secret: DATABASE_URL without its password, password variables not at all', () => {
    const url = errorOf({ DATABASE_URL: 'mysql://portal:Sup3r-Secreta@db:5432/portal' }).message;
    expect(url).toContain('DATABASE_URL: debe empezar con postgres');
    expect(url).toContain('mysql://portal:***@db:5432/portal');
    expect(url).not.toContain('Sup3r-Secreta');

    const short = errorOf({ BOOTSTRAP_ADMIN_PASSWORD: 'corta1!', DEMO_PASSWORD: 'otra1!' }).message;
    expect(short).toMatch(/BOOTSTRAP_ADMIN_PASSWORD: debe tener al menos 8 caracteres \(valor oculto\)/);
    expect(short).toMatch(/DEMO_PASSWORD: debe tener al menos 8 caracteres \(valor oculto\)/);
    expect(short).not.toContain('corta1!');
    expect(short).not.toContain('otra1!');

    const prod = { NODE_ENV: 'production', IDENTITY_MODE: 'embedded' };
    expect(errorOf({ ...prod, DEMO_PASSWORD: 'Otra-Clave-2026!' }).message).not.toContain('Otra-Clave-2026!');
    expect(errorOf({ ...prod, BOOTSTRAP_ADMIN_PASSWORD: 'Demo-Portal-2026!' }).message).not.toContain('Demo-Portal-2026!');
    // Other values are still quoted, to see what was wrong.
    expect(errorOf({ PORT: 'abc' }).message).toContain('(valor: "abc")');
  });

  test('maskSecrets hides connection-URL passwords and the secret values of an environment', () => {
    const secrets = secretValues({
      DATABASE_URL: 'postgres://portal:p%40ss-w0rd-larga@db:5432/portal',
      BOOTSTRAP_ADMIN_PASSWORD: 'Jefa-"Clave"-2026!',
      DEMO_PASSWORD: undefined,
      PORT: '3000',
    });
    expect(secrets.sort()).toEqual(['Jefa-"Clave"-2026!', 'p%40ss-w0rd-larga', 'p@ss-w0rd-larga'].sort());
    const text = [
      'connect postgres://portal:p%40ss-w0rd-larga@db:5432/portal failed',
      'decoded p@ss-w0rd-larga',
      JSON.stringify({ password: 'Jefa-"Clave"-2026!' }),
      'redis://cache:otra-clave@cache:6379/0',
    ].join('\n');
    const masked = maskSecrets(text, secrets);
    expect(masked).toBe(
      [
        'connect postgres://portal:***@db:5432/portal failed',
        'decoded ***',
        JSON.stringify({ password: '***' }),
        'redis://cache:***@cache:6379/0',
      ].join('\n'),
    );
    // A URL without a password, and short values that would hide ordinary words, are left alone.
    expect(maskSecrets('postgres://postgres@127.0.0.1:5432/test', secretValues({ DATABASE_URL: 'postgres://u:pg@h/db' }))).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
  });
});
