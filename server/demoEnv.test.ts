import { loadConfig } from './config';
import { applyDemoDefaults } from './demoEnv';

describe('the embedded demo environment (npm start)', () => {
  test('outside production: private webhook targets and the loopback enrollment exemption, unless set', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(applyDemoDefaults(env).sort()).toEqual(['AGENT_ENROLL_EXEMPT_LOOPBACK', 'PGLITE_SHARED_BUFFERS_MB', 'WEBHOOK_ALLOW_PRIVATE_TARGETS']);
    const config = loadConfig(env, '1');
    expect(config.webhooks.allowPrivateTargets).toBe(true);
    expect(config.agent.enrollExemptLoopback).toBe(true);
    expect(config.database.pgliteSharedBuffersMb).toBe(16);

    const explicit: NodeJS.ProcessEnv = { NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', PGLITE_SHARED_BUFFERS_MB: '64' };
    expect(applyDemoDefaults(explicit)).toEqual(['AGENT_ENROLL_EXEMPT_LOOPBACK']);
    expect(loadConfig(explicit, '1').database.pgliteSharedBuffersMb).toBe(64);
    expect(loadConfig(explicit, '1').webhooks.allowPrivateTargets).toBe(false);
  });

  test('production gets none of them (and still starts)', () => {
    const env: NodeJS.ProcessEnv = { NODE_ENV: 'production', IDENTITY_MODE: 'embedded' };
    expect(applyDemoDefaults(env)).toEqual([]);
    expect(env).toEqual({ NODE_ENV: 'production', IDENTITY_MODE: 'embedded' });
    const config = loadConfig(env, '1');
    expect(config.webhooks.allowPrivateTargets).toBe(false);
    expect(config.agent.enrollExemptLoopback).toBe(false);
    expect(config.database.pgliteSharedBuffersMb).toBe(128);
  });
});
