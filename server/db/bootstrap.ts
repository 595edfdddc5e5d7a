import { createHash } from 'node:crypto';
import { ALL_DEVICE_ACTION_CODES, DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { ALL_ROLE_ACTION_CODES } from '../../shared/constants/roleActions';
import { GRANTABLE_PATHS, MENU, PATHS, type RoutePath } from '../../shared/constants/routes';
import type { Config } from '../config';
import type { IdentityService } from '../identity/identityService';
import { generatePassword } from '../identity/identityAdmin';
import type { Logger } from '../logger';
import type { Db, Queryable } from './Db';
import { AgentSettingsRepository } from '../api/agentSettings/agentSettingsRepository';
import { packageChecksum } from '../api/agentSettings/agentSettingsService';
import { lockAppBody, businessAppBody } from '../../shared/contracts/agentSettings';
import { AGENT_ADMIN_COMPONENT } from '../../shared/contracts/enrollment';

export const DEFAULT_ADMIN_EMAIL = 'admin@demo.local';

const menuModule = (path: RoutePath) => {
  const m = MENU.find((x) => x.path === path)!;
  return [m.path, ...m.submodules.map((s) => s.path)];
};

interface SeedAccount {
  correo: string;
  nombres: string;
  apellidos: string;
  profile: { nombre: string; paths: readonly string[]; actions: readonly number[] };
}

/** The profile with every path of the route table, every device action and every role action. */
export const ADMIN_PROFILE = { nombre: 'Administrador', paths: GRANTABLE_PATHS, actions: ALL_ROLE_ACTION_CODES };

/** The demo's other accounts: permission filtering is visible at once. */
export const DEMO_ACCOUNTS: readonly SeedAccount[] = [
  {
    correo: 'inventario@demo.local',
    nombres: 'Operador de Inventario',
    apellidos: 'Demo',
    profile: { nombre: 'Operador de inventario', paths: menuModule(PATHS.inventory), actions: ALL_DEVICE_ACTION_CODES },
  },
  {
    correo: 'soporte@demo.local',
    nombres: 'Soporte',
    apellidos: 'Demo',
    profile: {
      nombre: 'Soporte',
      paths: [...menuModule(PATHS.dashboard), PATHS.inventory, PATHS.devices],
      actions: [DEVICE_ACTION.HISTORY, DEVICE_ACTION.SEND_NOTIFICATION],
    },
  },
];

async function insertProfile(q: Queryable, p: SeedAccount['profile']): Promise<number> {
  const res = await q.query<{ id: number }>('INSERT INTO profiles (nombre, paths, actions) VALUES ($1, $2, $3) RETURNING id', [
    p.nombre,
    [...p.paths],
    [...p.actions],
  ]);
  return res.rows[0]!.id;
}

async function insertAdmin(q: Queryable, a: Omit<SeedAccount, 'profile'>, profileId: number): Promise<void> {
  await q.query('INSERT INTO admins (correo, nombres, apellidos, profile_id) VALUES ($1, $2, $3, $4)', [a.correo, a.nombres, a.apellidos, profileId]);
}

export async function hasAdministrators(db: Db): Promise<boolean> {
  const existing = await db.query<{ n: number }>('SELECT count(*) AS n FROM admins');
  return existing.rows[0]!.n > 0;
}

export interface BootstrapResult {
  /** False when administrators already existed: nothing was done. */
  created: boolean;
  accounts: string[];
  /**
   * The password the server generated for the created identity users (embedded mode, none
   * chosen): the banner shows it once. A chosen password is never kept here.
   */
  password?: string;
  generated: boolean;
  /** Embedded mode with a chosen password: the variable it came from (the banner names it, never prints it). */
  passwordFrom?: 'BOOTSTRAP_ADMIN_PASSWORD' | 'DEMO_PASSWORD';
}

/**
 * First start: the "Administrador" profile and the bootstrap administrator; in embedded mode
 * also their identity users and, unless SEED_DEMO=false (never in production), the demo
 * profiles and accounts. Runs only while there is no administrator at all.
 */
export async function bootstrap(db: Db, config: Config, identity: IdentityService | undefined): Promise<BootstrapResult> {
  if (await hasAdministrators(db)) return { created: false, accounts: [], generated: false };
  const { bootstrap: b } = config;
  // With a real Cognito pool the administrator must already exist there: no default address.
  const adminEmail = b.adminEmail ?? (identity ? DEFAULT_ADMIN_EMAIL : undefined);
  if (!adminEmail) return { created: false, accounts: [], generated: false };
  const demo = identity && b.seedDemo ? DEMO_ACCOUNTS : [];
  const chosen = b.adminPassword ?? b.demoPassword;
  const passwordFrom = b.adminPassword ? 'BOOTSTRAP_ADMIN_PASSWORD' : b.demoPassword ? 'DEMO_PASSWORD' : undefined;
  const password = identity ? (chosen ?? generatePassword()) : undefined;

  const accounts = [adminEmail, ...demo.map((d) => d.correo)];
  // Identity users first (a retry skips the ones that exist), then the portal records in one
  // transaction: a failed first start is simply run again on the next.
  if (identity && password) {
    for (const correo of accounts) {
      if (await identity.admin.adminGetUser(correo).catch(() => undefined)) continue;
      await identity.admin.adminCreateUser({ username: correo, attributes: { email: correo, email_verified: 'true' }, temporaryPassword: password });
      await identity.admin.adminSetUserPassword(correo, password, true);
    }
  }
  await db.transaction(async (tx) => {
    if (demo.length) await seedDemoApps(tx);
    const adminProfile = await insertProfile(tx, ADMIN_PROFILE);
    await insertAdmin(tx, { correo: adminEmail, nombres: 'Administrador Demo', apellidos: '' }, adminProfile);
    for (const account of demo) await insertAdmin(tx, account, await insertProfile(tx, account.profile));
  });
  const generated = identity !== undefined && chosen === undefined;
  return {
    created: true,
    accounts,
    generated,
    password: generated ? password : undefined,
    ...(identity && passwordFrom ? { passwordFrom } : {}),
  };
}

/**
 * The console banner of the first start: where to go and how to sign in. Printed once. It shows
 * a password only when the server generated it; a chosen one (from the environment) is named by
 * its variable, never printed.
 */
export function bootstrapBanner(result: BootstrapResult, url: string): string {
  const password =
    result.generated && result.password
      ? `Contraseña: ${result.password}   (generada: se muestra solo esta vez)`
      : result.passwordFrom
        ? `Contraseña: la de ${result.passwordFrom} (no se muestra)`
        : undefined;
  const lines = [
    'Portal listo / Portal ready',
    `Abre ${url}/login`,
    '',
    ...(password
      ? ['Cuentas (todas con la misma contraseña):', ...result.accounts.map((a) => `  ${a}`), password]
      : [`Administrador: ${result.accounts[0]} (usuario existente del pool de Cognito)`]),
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = '='.repeat(width);
  return `\n${bar}\n${lines.map((l) => `  ${l}`).join('\n')}\n${bar}\n`;
}

export function logBootstrap(logger: Logger, result: BootstrapResult, hasAdmins: boolean): void {
  if (result.created) logger.info({ accounts: result.accounts }, 'bootstrap: administrators created');
  else if (!hasAdmins) logger.warn('bootstrap: no administrator exists; set BOOTSTRAP_ADMIN_EMAIL to an existing Cognito user');
}

/** A demo download's SHA-256 (the demo serves no APK: its checksum is derived from the file name). */
const demoSha256 = (file: string) => createHash('sha256').update(file).digest('hex');

/**
 * The demo's agent apps, through the repository the pages use: the smartphone lock app's current
 * version and the one before it (the demo's phones run both), the TV's, and one business app.
 */
async function seedDemoApps(tx: Queryable): Promise<void> {
  const repo = new AgentSettingsRepository(tx);
  const agentPackage = AGENT_ADMIN_COMPONENT.split('/')[0]!;
  const versions = [
    { deviceType: 1, name: 'Macrolock', version: '3.3.0', type: 2, notes: 'Recordatorio de pago con horario de descanso.' },
    {
      deviceType: 1,
      name: 'Macrolock',
      version: '3.4.1',
      type: 2,
      notes: 'Bloqueo sin conexión con aviso previo.\nCorrige el reinicio tras cambiar la SIM.',
    },
    { deviceType: 2, name: 'Macrolock.TV', version: '1.8.0', type: 5, notes: 'Bloqueo del modo hotel en más modelos.' },
  ] as const;
  for (const v of versions) {
    const file = `${v.deviceType === 1 ? 'macrolock' : 'macrolock-tv'}-${v.version}.apk`;
    const body = lockAppBody.parse({
      versionName: v.name,
      versionApp: v.version,
      appType: v.type,
      packageName: v.deviceType === 1 ? agentPackage : null,
      downloadUrl: `https://descargas.macrolock.mx/${file}`,
      sha256: demoSha256(file),
      releaseNotes: v.notes,
    });
    const id = await repo.insertLockApp(v.deviceType, body, packageChecksum(body.sha256), null);
    if (v.version !== '3.3.0') await repo.setCurrentLockApp(v.deviceType, id);
  }
  await repo.insertBusinessApp(
    businessAppBody.parse({
      name: 'Mis Pagos',
      packageName: 'mx.financierademo.pagos',
      versionName: '2.1.0',
      versionCode: 210,
      appType: 2,
      downloadUrl: 'https://descargas.macrolock.mx/mis-pagos-2.1.0.apk',
      sha256: demoSha256('mis-pagos-2.1.0.apk'),
    }),
    null,
  );
}
