import * as z from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../shared/credits';

/** Default ids of the embedded identity endpoint's local pool: never a production pool. */
export const LOCAL_POOL = {
  region: 'us-east-1',
  userPoolId: 'us-east-1_LocalPool01',
  clientId: 'localportalclient0000000001',
} as const;

const intFrom = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/** Passwords that appear in the documentation and tests: never accepted in production. */
export const KNOWN_PASSWORDS: readonly string[] = ['Demo-Portal-2026!', 'Passw0rd!', 'Password1!', 'Admin123!', 'ChangeMe123!'];

/** Every environment variable the server reads. `.env.example` documents each one. */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: intFrom(3000, 0).pipe(z.number().max(65535)),
    HOST: z.string().min(1).default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'debe empezar con postgres:// o postgresql://')
      .optional(),
    DATABASE_POOL_MAX: intFrom(10, 1),
    DATA_DIR: z.string().min(1).default('./data'),
    PGLITE_SHARED_BUFFERS_MB: intFrom(128, 1).pipe(z.number().max(4096)),
    SHUTDOWN_DELAY_MS: intFrom(5000),
    SHUTDOWN_TIMEOUT_MS: intFrom(10000),
    TRUST_PROXY: intFrom(0),
    PORTAL_API_URL: z.string().min(1).default('/api'),
    API_SEND_REFRESH_TOKEN: z.enum(['true', 'false']).default('true'),
    IDENTITY_MODE: z.enum(['embedded', 'cognito']).optional(),
    COGNITO_REGION: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'debe ser una región de AWS, p. ej. us-east-1')
      .optional(),
    COGNITO_USER_POOL_ID: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d_[0-9A-Za-z]+$/, 'debe tener la forma <región>_<id>')
      .optional(),
    COGNITO_CLIENT_ID: z
      .string()
      .regex(/^[0-9a-z]{1,128}$/i)
      .optional(),
    SSR_CACHE_ENTRIES: intFrom(500),
    IDENTITY_ACCESS_TOKEN_TTL_SECONDS: intFrom(3600, 60).pipe(z.number().max(86400)),
    IDENTITY_REFRESH_TOKEN_TTL_SECONDS: intFrom(30 * 86400, 3600),
    BOOTSTRAP_ADMIN_EMAIL: z.email('debe ser un correo electrónico').optional(),
    BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8, 'debe tener al menos 8 caracteres').optional(),
    DEMO_PASSWORD: z.string().min(8, 'debe tener al menos 8 caracteres').optional(),
    SEED_DEMO: z.enum(['true', 'false']).default('true'),
    IDENTITY_RATE_LIMIT_PER_MINUTE: intFrom(60, 1),
    // Hours, fractions allowed (a demo or a simulation may use 0.02: 72 seconds).
    DEVICE_OFFLINE_AFTER_HOURS: z.coerce.number().min(0.01, 'debe ser un número de horas de al menos 0.01').default(72),
    DEMO_DEVICES: intFrom(5000),
    /** Simulated agents the demo runs in-process so statuses move (0 disables; never in production). */
    DEMO_AGENTS: intFrom(50).pipe(z.number().max(2000, 'debe ser como máximo 2000')),
    AGENT_RATE_LIMIT_PER_MINUTE: intFrom(120, 1),
    AGENT_ENROLL_RATE_LIMIT_PER_MINUTE: intFrom(30, 1),
    /** Whether enrollments from loopback (this host: the demo's simulated fleet, a local simulator) skip the per-IP limit. */
    AGENT_ENROLL_EXEMPT_LOOPBACK: z.enum(['true', 'false']).default('false'),
    /** How long a check-in's report (last seen, versions, battery) waits to be written with others' (server/agent/presenceWriter.ts). */
    AGENT_PRESENCE_FLUSH_MS: intFrom(1000, 10).pipe(z.number().max(10_000, 'debe ser como máximo 10000')),
    /** Where agents reach the service (the QR code's server URL); the portal's own origin when absent. */
    AGENT_SERVER_URL: z.url({ protocol: /^https?$/, error: 'debe ser una URL http(s)' }).optional(),
    /** Requests per minute and API key to the integration API. */
    INTEGRATION_RATE_LIMIT_PER_MINUTE: intFrom(600, 1),
    WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100).pipe(z.number().max(60_000, 'debe ser como máximo 60000')),
    WEBHOOK_MAX_RESPONSE_BYTES: intFrom(65_536, 1024),
    /** Deliveries sent at once by one replica. */
    WEBHOOK_CONCURRENCY: intFrom(32, 1).pipe(z.number().max(64, 'debe ser como máximo 64')),
    /**
     * Whether webhooks may target loopback, link-local, private or other special-purpose addresses:
     * only when set to true (the embedded demo does), never in production.
     */
    WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).optional(),
    /** The company's time zone: credits' due dates are its calendar dates, and "overdue" starts at its midnight. */
    COMPANY_TIME_ZONE: z.string().refine(isTimeZone, 'debe ser una zona horaria IANA, p. ej. America/Mexico_City').default(DEFAULT_TIME_ZONE),
  })
  .superRefine((env, ctx) => {
    const mode = env.IDENTITY_MODE ?? (env.NODE_ENV === 'production' ? 'cognito' : 'embedded');
    if (env.NODE_ENV === 'production' && mode === 'embedded') {
      // Production may run the embedded endpoint only when asked explicitly, never with a
      // password anyone could know: no demo accounts, no documented example password.
      if (env.DEMO_PASSWORD) {
        ctx.addIssue({ code: 'custom', path: ['DEMO_PASSWORD'], message: 'no se admite en producción: no hay cuentas de demostración' });
      }
      if (env.BOOTSTRAP_ADMIN_PASSWORD && KNOWN_PASSWORDS.includes(env.BOOTSTRAP_ADMIN_PASSWORD)) {
        ctx.addIssue({ code: 'custom', path: ['BOOTSTRAP_ADMIN_PASSWORD'], message: 'es una contraseña de ejemplo conocida: elige otra' });
      }
    }
    if (env.NODE_ENV === 'production' && env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true') {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_ALLOW_PRIVATE_TARGETS'],
        message: 'no se admite en producción: los webhooks nunca llaman a direcciones locales o privadas',
      });
    }
    if (mode === 'cognito') {
      for (const key of ['COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID'] as const) {
        if (!env[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'es obligatoria con IDENTITY_MODE=cognito (el modo por omisión en producción)',
          });
        }
      }
    }
  });

export type Env = z.infer<typeof envSchema>;

/** Variables whose values are secrets: never echoed in an error message, a log line or the banner. */
export const SECRET_VARIABLES = ['DATABASE_URL', 'BOOTSTRAP_ADMIN_PASSWORD', 'DEMO_PASSWORD'] as const;

/**
 * `scheme://user:password@…`: the credentials of a connection URL (up to the last `@`). The
 * bounded repetitions keep it linear on any log line (no catastrophic backtracking).
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:/?#@"']{0,256}):([^\s"']{0,512})@/gi;

/** A text with the password of every connection URL in it replaced by `***`. */
export function maskUrlPasswords(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1$2:***@');
}

/** Literal secrets of an environment worth masking on their own (too short a value would mask ordinary words). */
const MIN_MASKED_LENGTH = 8;

/**
 * The secret values of `source` to mask wherever they appear: the password variables and the
 * password of DATABASE_URL (as written and URL-decoded).
 */
export function secretValues(source: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  for (const name of SECRET_VARIABLES) {
    const value = source[name];
    if (!value) continue;
    if (name === 'DATABASE_URL') {
      const password = /^[a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:(.*)@/i.exec(value)?.[1];
      if (!password) continue;
      values.add(password);
      try {
        values.add(decodeURIComponent(password));
      } catch {
        // not percent-encoded: the raw value is enough
      }
    } else {
      values.add(value);
    }
  }
  return [...values].filter((v) => v.length >= MIN_MASKED_LENGTH);
}

/**
 * `text` with every secret hidden: connection-URL passwords, and each value of `secrets` as
 * written and as it appears inside a JSON string.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = maskUrlPasswords(text);
  for (const secret of secrets) {
    out = out.replaceAll(secret, '***');
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.replaceAll(escaped, '***');
  }
  return out;
}

/** How a bad value is quoted in the start-up error: never a password, DATABASE_URL without its password. */
function quoteValue(name: string, value: string): string {
  if (name === 'DATABASE_URL') return ` (valor: ${JSON.stringify(maskUrlPasswords(value))})`;
  if ((SECRET_VARIABLES as readonly string[]).includes(name)) return ' (valor oculto)';
  return ` (valor: ${JSON.stringify(value)})`;
}

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  logLevel: Env['LOG_LEVEL'];
  database: { url?: string; poolMax: number; dataDir: string; pgliteSharedBuffersMb: number };
  shutdown: { delayMs: number; timeoutMs: number };
  trustProxy: number;
  apiBase: string;
  /** Whether the browser sends the RefreshToken header (reference §7); the API never reads it. */
  apiSendRefreshToken: boolean;
  identity: {
    mode: 'embedded' | 'cognito';
    region: string;
    userPoolId: string;
    clientId: string;
  };
  ssrCacheEntries: number;
  portalVersion: string;
  tokens: { accessTtlSeconds: number; refreshTtlSeconds: number };
  /** Requests per minute and client IP to the embedded identity endpoint. */
  identityRateLimitPerMinute: number;
  /** A device not seen for this long shows as 'sin_conexion'. */
  deviceOfflineAfterHours: number;
  /** Demo devices the seed registers in a new embedded database (demo mode only). */
  demoDevices: number;
  /** Simulated agents of the embedded demo (0: none). */
  demoAgents: number;
  agent: {
    perDevicePerMinute: number;
    enrollPerIpPerMinute: number;
    /** Enrollments from loopback skip the per-IP limit (the embedded demo's simulated fleet). */
    enrollExemptLoopback: boolean;
    serverUrl?: string;
    presenceFlushMs: number;
  };
  /** Requests per minute and API key to the integration API (counted per replica). */
  integrationRateLimitPerMinute: number;
  webhooks: {
    /** One attempt's limit: connection, request and response. */
    timeoutMs: number;
    /** The response body read at most (the rest is discarded). */
    maxResponseBytes: number;
    /** Deliveries one replica sends at once. */
    concurrency: number;
    /** Loopback, link-local, private and other special-purpose targets allowed (only when asked for outside production). */
    allowPrivateTargets: boolean;
  };
  bootstrap: { adminEmail?: string; adminPassword?: string; demoPassword?: string; seedDemo: boolean };
  /** The company's IANA time zone: the calendar of the credits' due dates. */
  companyTimeZone: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv, portalVersion: string): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? '');
      const got = name && source[name] !== undefined ? quoteValue(name, source[name]) : '';
      return `${name}: ${i.message}${got}`;
    });
    const vars = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))];
    throw new ConfigError(vars, `Configuración inválida:\n  ${lines.join('\n  ')}`);
  }
  const env = parsed.data;
  const mode = env.IDENTITY_MODE ?? (env.NODE_ENV === 'production' ? 'cognito' : 'embedded');
  const userPoolId = mode === 'embedded' ? (env.COGNITO_USER_POOL_ID ?? LOCAL_POOL.userPoolId) : env.COGNITO_USER_POOL_ID!;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    database: { url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX, dataDir: env.DATA_DIR, pgliteSharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB },
    shutdown: { delayMs: env.SHUTDOWN_DELAY_MS, timeoutMs: env.SHUTDOWN_TIMEOUT_MS },
    trustProxy: env.TRUST_PROXY,
    apiBase: env.PORTAL_API_URL,
    apiSendRefreshToken: env.API_SEND_REFRESH_TOKEN === 'true',
    identity: {
      mode,
      region: env.COGNITO_REGION ?? userPoolId.split('_')[0]!,
      userPoolId,
      clientId: mode === 'embedded' ? (env.COGNITO_CLIENT_ID ?? LOCAL_POOL.clientId) : env.COGNITO_CLIENT_ID!,
    },
    ssrCacheEntries: env.SSR_CACHE_ENTRIES,
    portalVersion,
    identityRateLimitPerMinute: env.IDENTITY_RATE_LIMIT_PER_MINUTE,
    deviceOfflineAfterHours: env.DEVICE_OFFLINE_AFTER_HOURS,
    demoDevices: env.DEMO_DEVICES,
    demoAgents: env.NODE_ENV === 'production' ? 0 : env.DEMO_AGENTS,
    agent: {
      perDevicePerMinute: env.AGENT_RATE_LIMIT_PER_MINUTE,
      enrollPerIpPerMinute: env.AGENT_ENROLL_RATE_LIMIT_PER_MINUTE,
      enrollExemptLoopback: env.AGENT_ENROLL_EXEMPT_LOOPBACK === 'true',
      serverUrl: env.AGENT_SERVER_URL?.replace(/\/+$/, ''),
      presenceFlushMs: env.AGENT_PRESENCE_FLUSH_MS,
    },
    integrationRateLimitPerMinute: env.INTEGRATION_RATE_LIMIT_PER_MINUTE,
    webhooks: {
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: env.WEBHOOK_MAX_RESPONSE_BYTES,
      concurrency: env.WEBHOOK_CONCURRENCY,
      allowPrivateTargets: env.NODE_ENV !== 'production' && env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    },
    tokens: { accessTtlSeconds: env.IDENTITY_ACCESS_TOKEN_TTL_SECONDS, refreshTtlSeconds: env.IDENTITY_REFRESH_TOKEN_TTL_SECONDS },
    bootstrap: {
      adminEmail: env.BOOTSTRAP_ADMIN_EMAIL,
      adminPassword: env.BOOTSTRAP_ADMIN_PASSWORD,
      demoPassword: env.DEMO_PASSWORD,
      seedDemo: env.SEED_DEMO === 'true' && env.NODE_ENV !== 'production',
    },
    companyTimeZone: env.COMPANY_TIME_ZONE,
  };
}
