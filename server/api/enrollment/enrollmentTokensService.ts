/**
 * Enrollment tokens: what a QR code carries to a new device. Created per group, per pre-enrolled
 * device or for devices with no group; shown once (stored as a SHA-256); a new one of a scope
 * revokes the earlier ones ('Regenerar'). The smartphone QR code is Android's device-owner
 * provisioning payload, so a factory-reset phone that scans it at the welcome screen downloads
 * the lock app and enrolls; a TV types the same token as a short code.
 */
import QRCode from 'qrcode';
import { PATHS, type RoutePath } from '../../../shared/constants/routes';
import {
  AGENT_ADMIN_COMPONENT,
  PROVISIONING_EXTRAS,
  type EnrollmentToken,
  type EnrollmentTokenBody,
  type EnrollmentTokenCreated,
  type EnrollmentTokenQuery,
  type ReenrollmentBody,
} from '../../../shared/contracts/enrollment';
import { awaitsEnrollment } from '../../../shared/deviceStateMachine';
import { MESSAGES } from '../../../shared/messages';
import { AGENT_MESSAGES as A } from '../../../shared/areaMessages/agent';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { newEnrollmentToken } from '../../agent/agentTokens';
import { record, type AuditActor } from '../../audit/auditRepository';
import type { Db } from '../../db/Db';
import { transaction } from '../../db/transactionScope';
import { AppError } from '../../errors';
import { CredentialRepository, DeviceRepository, factsOf, type EnrollmentTokenRow, type InventorySettings, type TokenScope } from '../../devices';
import { AgentSettingsRepository } from '../agentSettings/agentSettingsRepository';
import { GroupsRepository } from '../groups/groupsRepository';

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function toEnrollmentToken(r: EnrollmentTokenRow): EnrollmentToken {
  return {
    id: r.id,
    groupId: r.group_id,
    deviceId: r.device_id,
    hint: r.hint,
    createdAt: iso(r.created_at)!,
    createdBy: r.created_by,
    expiresAt: iso(r.expires_at)!,
    uses: r.uses,
    lastUsedAt: iso(r.last_used_at),
  };
}

/** The portal page whose grant a scope needs: one device is the pre-enrolled page's, the rest the groups page's. */
export const scopePath = (scope: TokenScope): RoutePath => (scope.deviceId !== null ? PATHS.preEnrolled : PATHS.groups);

/** Android's provisioning payload (the keys are Android's DevicePolicyManager extras). */
export function provisioningPayload(p: { component: string; url: string; checksum: string; serverUrl: string; token: string }): string {
  return JSON.stringify({
    'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME': p.component,
    'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION': p.url,
    'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_CHECKSUM': p.checksum,
    'android.app.extra.PROVISIONING_LEAVE_ALL_SYSTEM_APPS_ENABLED': true,
    'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': { [PROVISIONING_EXTRAS.serverUrl]: p.serverUrl, [PROVISIONING_EXTRAS.token]: p.token },
  });
}

export class EnrollmentTokensService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
    /** AGENT_SERVER_URL; the portal's own origin when absent. */
    private readonly serverUrl: string | undefined,
  ) {}

  private assertScopeGranted(scope: TokenScope, paths: ReadonlySet<string>): void {
    if (!paths.has(scopePath(scope))) throw new AppError(403, 'FORBIDDEN', MESSAGES.api.forbidden);
  }

  async list(q: EnrollmentTokenQuery, paths: ReadonlySet<string>): Promise<EnrollmentToken[]> {
    const scope = { groupId: q.groupId ?? null, deviceId: q.deviceId ?? null };
    this.assertScopeGranted(scope, paths);
    const rows = await new CredentialRepository(this.db).live(scope, this.settings.now());
    return rows.map(toEnrollmentToken);
  }

  /** A new token for a scope (the earlier live ones are revoked), with its QR code; audited. */
  async create(actor: AuditActor, body: EnrollmentTokenBody, paths: ReadonlySet<string>, origin: string): Promise<EnrollmentTokenCreated> {
    const scope = { groupId: body.groupId, deviceId: body.deviceId };
    this.assertScopeGranted(scope, paths);
    const now = this.settings.now();
    const secret = newEnrollmentToken();
    const { row, pkg } = await transaction(this.db, async (tx) => {
      const repo = new CredentialRepository(tx);
      if (scope.groupId !== null && !(await new GroupsRepository(tx).exists(scope.groupId)))
        throw new AppError(400, 'VALIDATION', A.tokens.groupNotFound, 'groupId');
      if (scope.deviceId !== null) {
        const device = await new DeviceRepository(tx).lockLive(scope.deviceId);
        if (!device || !awaitsEnrollment(factsOf(device))) throw new AppError(400, 'VALIDATION', A.tokens.deviceNotFound, 'deviceId');
      }
      const { created, revoked } = await this.issue(repo, actor, scope, secret, now, body.validHours);
      await record(tx, {
        actor,
        entity: 'enrollment_token',
        entityId: created.id,
        action: 'create',
        after: { ...toEnrollmentToken(created), revokedTokenIds: revoked },
      });
      return { row: created, pkg: await new AgentSettingsRepository(tx).currentAgentPackage() };
    });
    return this.shown(row, secret, pkg, origin);
  }

  /**
   * 'Autorizar reenrolamiento': a token for one enrolled device (a factory reset, the agent
   * reinstalled), which only that device can use, once, before it expires (default 24 h); the
   * earlier live tokens of the device are revoked. Nothing else enrolls an enrolled device again.
   * Audited on the device.
   */
  async authorizeReenrollment(actor: AuditActor, body: ReenrollmentBody, origin: string): Promise<EnrollmentTokenCreated> {
    const now = this.settings.now();
    const secret = newEnrollmentToken();
    const { row, pkg } = await transaction(this.db, async (tx) => {
      const repo = new CredentialRepository(tx);
      const device = await new DeviceRepository(tx).lockLive(body.deviceId);
      if (!device) throw new AppError(404, 'DEVICE_NOT_FOUND', M.devices.notFound);
      if (device.lifecycle === 'released') throw new AppError(409, 'DEVICE_RELEASED', A.enroll.released);
      if (awaitsEnrollment(factsOf(device))) throw new AppError(409, 'NOT_ENROLLED', A.tokens.reenrollNotEnrolled);
      const scope = { groupId: null, deviceId: body.deviceId };
      const { created, revoked } = await this.issue(repo, actor, scope, secret, now, body.validHours);
      await record(tx, {
        actor,
        entity: 'device',
        entityId: body.deviceId,
        action: 'authorize_reenroll',
        after: { imei: device.imei, enrollmentTokenId: created.id, expiresAt: iso(created.expires_at), revokedTokenIds: revoked },
      });
      return { row: created, pkg: await new AgentSettingsRepository(tx).currentAgentPackage() };
    });
    return this.shown(row, secret, pkg, origin);
  }

  /** A new token of a scope; the earlier live ones of that scope are revoked. */
  private async issue(
    repo: CredentialRepository,
    actor: AuditActor,
    scope: TokenScope,
    secret: ReturnType<typeof newEnrollmentToken>,
    now: Date,
    validHours: number,
  ): Promise<{ created: EnrollmentTokenRow; revoked: number[] }> {
    const revoked = await repo.revokeScope(scope, now);
    const expiresAt = new Date(now.getTime() + validHours * 3600_000);
    const created = await repo.insert({ ...scope, hash: secret.hash, hint: secret.hint, adminId: actor.adminId, by: actor.email, now, expiresAt });
    return { created, revoked };
  }

  /** What a new token shows once: the token, its short code and the smartphone QR code. */
  private async shown(
    row: EnrollmentTokenRow,
    secret: ReturnType<typeof newEnrollmentToken>,
    pkg: Awaited<ReturnType<AgentSettingsRepository['currentAgentPackage']>>,
    origin: string,
  ): Promise<EnrollmentTokenCreated> {
    const serverUrl = this.serverUrl ?? origin;
    const payload =
      pkg?.url && pkg.checksum
        ? provisioningPayload({
            component: pkg.packageName ? `${pkg.packageName}/.AdminReceiver` : AGENT_ADMIN_COMPONENT,
            url: pkg.url,
            checksum: pkg.checksum,
            serverUrl,
            token: secret.token,
          })
        : null;
    // Without a downloadable package, the QR code carries the extras alone (an agent already installed reads them).
    const qrText = payload ?? JSON.stringify({ [PROVISIONING_EXTRAS.serverUrl]: serverUrl, [PROVISIONING_EXTRAS.token]: secret.token });
    const qrSvg = await QRCode.toString(qrText, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return {
      ...toEnrollmentToken(row),
      token: secret.token,
      shortCode: secret.shortCode,
      serverUrl,
      smartphone: { provisioningPayload: payload, missing: payload ? null : pkg ? A.tokens.noPackage(pkg.version) : A.tokens.noVersion, qrSvg },
    };
  }

  /** Revokes one token (DELETE); audited. */
  async revoke(actor: AuditActor, id: number, paths: ReadonlySet<string>): Promise<void> {
    await transaction(this.db, async (tx) => {
      const repo = new CredentialRepository(tx);
      const row = await repo.find(id);
      if (!row) throw new AppError(404, 'ENROLLMENT_TOKEN_NOT_FOUND', A.tokens.notFound);
      this.assertScopeGranted({ groupId: row.group_id, deviceId: row.device_id }, paths);
      await repo.revoke(id, this.settings.now());
      await record(tx, { actor, entity: 'enrollment_token', entityId: id, action: 'revoke', before: toEnrollmentToken(row) });
    });
  }
}
