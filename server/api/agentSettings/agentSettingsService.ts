import { createHash } from 'node:crypto';
import {
  crossFieldIssues,
  fieldsOf,
  isActive,
  keysSet,
  LOGO_MAX_BYTES,
  mergeSettings,
  sectionsOf,
  type SettingsSectionKey,
  type SettingsValues,
  logoUrl,
} from '../../../shared/agentSettings';
import {
  forAgents,
  type BusinessApp,
  type BusinessAppBody,
  type BusinessAppList,
  type LockAppBody,
  type LockAppList,
  type LockAppVersion,
  type LogoAnswer,
  type SettingsBody,
  type SettingsChange,
  type SettingsOverview,
  type SettingsSectionAnswer,
} from '../../../shared/contracts/agentSettings';
import { appVersionLabel, type DeviceTypeCode } from '../../../shared/constants/domain';
import { AGENT_SETTINGS_MESSAGES as M } from '../../../shared/areaMessages/agentSettings';
import { record, type AuditActor } from '../../audit/auditRepository';
import type { Db, Queryable } from '../../db/Db';
import { transaction } from '../../db/transactionScope';
import { isUniqueViolation } from '../../db/pgErrors';
import { AppError } from '../../errors';
import { AgentSettingsRepository, type SettingsRow } from './agentSettingsRepository';

const HISTORY_SHOWN = 10;

const groupNotFound = () => new AppError(404, 'GROUP_NOT_FOUND', M.settings.groupNotFound, 'groupId');
const conflict = () => new AppError(409, 'SETTINGS_VERSION_CONFLICT', M.settings.conflict, 'version');
const businessAppNotFound = () => new AppError(404, 'BUSINESS_APP_NOT_FOUND', M.businessApps.notFound);
const packageTaken = () => new AppError(409, 'BUSINESS_APP_PACKAGE_TAKEN', M.businessApps.packageTaken, 'packageName');
const lockAppNotFound = () => new AppError(404, 'LOCK_APP_NOT_FOUND', M.lockApp.notFound);
const versionTaken = () => new AppError(409, 'LOCK_APP_VERSION_TAKEN', M.lockApp.versionTaken, 'versionApp');

/** The section's keys of a set of values. */
function pick(values: Record<string, unknown>, keys: readonly string[]): SettingsValues {
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(values, k)).map((k) => [k, values[k] as SettingsValues[string]]));
}

/** What a save changed, key by key (absent: the default or the inherited value). */
export function settingsChanges(before: Record<string, unknown>, after: Record<string, unknown>, keys: readonly string[]): SettingsChange['changes'] {
  const changes: SettingsChange['changes'] = [];
  for (const key of keys) {
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    if (had === has && (!had || JSON.stringify(before[key]) === JSON.stringify(after[key]))) continue;
    changes.push({
      key,
      ...(had ? { before: before[key] as SettingsValues[string] } : {}),
      ...(has ? { after: after[key] as SettingsValues[string] } : {}),
    });
  }
  return changes;
}

/**
 * PNG or JPEG by their signatures (the content decides, not the declared type): an SVG, a GIF
 * or anything else is refused. Two fixed signatures: no library needed.
 */
export function sniffImage(bytes: Buffer): 'image/png' | 'image/jpeg' | undefined {
  const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > 24 && PNG.every((b, i) => bytes[i] === b) && bytes.subarray(12, 16).toString('latin1') === 'IHDR') return 'image/png';
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** Android's provisioning checksum: the SHA-256 in URL-safe base64 without padding. */
export const packageChecksum = (sha256Hex: string) => Buffer.from(sha256Hex, 'hex').toString('base64url');

const scopeId = (deviceType: DeviceTypeCode, section: string, groupId: number | null) =>
  `${deviceType === 1 ? 'smartphone' : 'tv'}/${section}${groupId === null ? '' : `/grupo ${groupId}`}`;

/** Agent settings per device type and scope, logos, business apps and lock-app versions; every change audited in its transaction. */
export class AgentSettingsService {
  constructor(private readonly db: Db) {}

  // Sections -----------------------------------------------------------------------------

  async section(
    deviceType: DeviceTypeCode,
    section: SettingsSectionKey,
    groupId: number | null,
    db: Queryable = this.db,
  ): Promise<SettingsSectionAnswer> {
    const repo = new AgentSettingsRepository(db);
    if (groupId !== null && !(await repo.groupExists(groupId))) throw groupNotFound();
    const rows = await repo.rows(deviceType);
    const global = rows.find((r) => r.group_id === null)!;
    const own = groupId === null ? global : rows.find((r) => r.group_id === groupId);
    const keys = fieldsOf(deviceType, section).map((f) => f.key);
    const globalValues = pick(mergeSettings(deviceType, global.settings), keys);
    return {
      deviceType,
      section,
      groupId,
      version: own?.version ?? null,
      updatedAt: own?.updated_at ?? null,
      updatedBy: own?.updated_by ?? null,
      values: groupId === null ? globalValues : pick(mergeSettings(deviceType, global.settings, own?.settings), keys),
      globalValues,
      overridden: groupId === null ? [] : keysSet(deviceType, own?.settings, section),
      overrides: overridesOf(deviceType, rows, section),
      history: await repo.history(deviceType, groupId, section, HISTORY_SHOWN),
    };
  }

  /**
   * Saves a section of a scope as a new version: the global scope's section values (a key left
   * out returns to its default), or a group's overrides (a key left out is inherited). Refused
   * with 409 when the scope changed since the page loaded it; a save that changes nothing makes
   * no version.
   */
  async save(
    actor: AuditActor,
    deviceType: DeviceTypeCode,
    section: SettingsSectionKey,
    groupId: number | null,
    body: SettingsBody,
  ): Promise<SettingsSectionAnswer> {
    return transaction(this.db, async (tx) => {
      const repo = new AgentSettingsRepository(tx);
      if (groupId !== null && !(await repo.groupExists(groupId))) throw groupNotFound();
      const row = await repo.lockRow(deviceType, groupId);
      if ((row?.version ?? null) !== body.version) throw conflict();

      const keys = fieldsOf(deviceType, section).map((f) => f.key);
      const current = row?.settings ?? {};
      const next: Record<string, unknown> = Object.fromEntries(Object.entries(current).filter(([k]) => !keys.includes(k)));
      for (const [k, v] of Object.entries(body.values)) if (v !== undefined) next[k] = v;

      const global = groupId === null ? undefined : (await repo.lockRow(deviceType, null))!.settings;
      const merged = groupId === null ? mergeSettings(deviceType, next) : mergeSettings(deviceType, global, next);
      const issue = crossFieldIssues(deviceType, section, merged)[0];
      if (issue) throw new AppError(400, 'VALIDATION', issue.message, `values.${issue.field}`);
      for (const f of fieldsOf(deviceType, section)) {
        if (f.kind === 'text' && f.required && isActive(f, merged) && merged[f.key] === '')
          throw new AppError(400, 'VALIDATION', `El campo ${f.label} no puede estar vacío`, `values.${f.key}`);
      }
      const logo = body.values.logo;
      if (typeof logo === 'string' && logo !== current.logo && !(await repo.logoExists(logo)))
        throw new AppError(400, 'VALIDATION', M.logo.notFound, 'values.logo');

      // The global scope has no inheritance: what changes is the values that apply (a default
      // saved as it is changes nothing). A group's change is what it overrides, inherited or not.
      const changes =
        groupId === null
          ? settingsChanges(pick(mergeSettings(deviceType, current), keys), pick(mergeSettings(deviceType, next), keys), keys)
          : settingsChanges(current, next, keys);
      if (changes.length === 0) return this.section(deviceType, section, groupId, tx);
      // A group's first override creates its row; one created meanwhile by another save is a
      // version this page did not load.
      if (!row && groupId !== null && !(await repo.createGroupRow(deviceType, groupId))) throw conflict();
      const version = await repo.saveRow(deviceType, groupId, next, actor.email);
      await repo.insertHistory({ deviceType, groupId, version, changes, sections: [section], by: actor.email });
      await record(tx, {
        actor,
        entity: 'agent_settings',
        entityId: scopeId(deviceType, section, groupId),
        action: 'update',
        before: Object.fromEntries(changes.map((c) => [c.key, c.before ?? null])),
        after: Object.fromEntries(changes.map((c) => [c.key, c.after ?? null])),
      });
      return this.section(deviceType, section, groupId, tx);
    });
  }

  async overview(deviceType: DeviceTypeCode): Promise<SettingsOverview> {
    const repo = new AgentSettingsRepository(this.db);
    const rows = await repo.rows(deviceType);
    const global = rows.find((r) => r.group_id === null)!;
    const merged = mergeSettings(deviceType, global.settings);
    const sections = await Promise.all(
      sectionsOf(deviceType).map(async (s) => {
        const last = (await repo.history(deviceType, null, s.key, 1))[0];
        return {
          section: s.key,
          version: global.version,
          updatedAt: last?.changedAt ?? null,
          updatedBy: last?.changedBy ?? null,
          values: pick(
            merged,
            fieldsOf(deviceType, s.key).map((f) => f.key),
          ),
          overrides: overridesOf(deviceType, rows, s.key),
        };
      }),
    );
    const versions = await repo.lockApps(deviceType);
    const current = versions.find((v) => v.isCurrent) ?? null;
    const counts = await repo.agentVersionCounts(deviceType);
    const devices = [...counts.values()].reduce((a, b) => a + b, 0);
    return {
      deviceType,
      sections,
      lockApp: { current, versions: versions.length, devices, outdated: current ? devices - (counts.get(current.versionApp) ?? 0) : 0 },
      businessApps: deviceType === 1 ? { total: await repo.businessAppCount() } : null,
    };
  }

  // Logos --------------------------------------------------------------------------------

  /** Stores an uploaded logo (PNG or JPEG by content, ≤ 512 KB) under its SHA-256. */
  async uploadLogo(actor: AuditActor, bytes: Buffer): Promise<LogoAnswer> {
    if (bytes.length === 0) throw new AppError(400, 'LOGO_EMPTY', M.logo.empty, 'logo');
    if (bytes.length > LOGO_MAX_BYTES) throw new AppError(413, 'LOGO_TOO_LARGE', M.logo.tooLarge(LOGO_MAX_BYTES / 1024), 'logo');
    const type = sniffImage(bytes);
    if (!type) throw new AppError(415, 'LOGO_NOT_AN_IMAGE', looksLikeSvg(bytes) ? M.logo.svg : M.logo.badType, 'logo');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await new AgentSettingsRepository(this.db).insertLogo(sha256, type, bytes, actor.email);
    return { logo: sha256, url: logoUrl(sha256) };
  }

  logo(sha256: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
    return new AgentSettingsRepository(this.db).logo(sha256);
  }

  // Lock-app versions --------------------------------------------------------------------

  async lockApps(deviceType: DeviceTypeCode): Promise<LockAppList> {
    const data = await new AgentSettingsRepository(this.db).lockApps(deviceType);
    return { data, total: data.length };
  }

  async createLockApp(actor: AuditActor, deviceType: DeviceTypeCode, body: LockAppBody): Promise<LockAppVersion> {
    return this.uniqueVersion(() =>
      transaction(this.db, async (tx) => {
        const repo = new AgentSettingsRepository(tx);
        if (await repo.versionTaken(deviceType, body.versionApp)) throw versionTaken();
        const id = await repo.insertLockApp(deviceType, body, packageChecksum(body.sha256), actor.email);
        const created = (await repo.lockApp(deviceType, id))!;
        await record(tx, { actor, entity: 'lock_app_version', entityId: id, action: 'create', after: lockAppSnapshot(created) });
        return created;
      }),
    );
  }

  async updateLockApp(actor: AuditActor, deviceType: DeviceTypeCode, id: number, body: LockAppBody): Promise<LockAppVersion> {
    return this.uniqueVersion(() =>
      transaction(this.db, async (tx) => {
        const repo = new AgentSettingsRepository(tx);
        const before = await repo.lockApp(deviceType, id, true);
        if (!before) throw lockAppNotFound();
        if (await repo.versionTaken(deviceType, body.versionApp, id)) throw versionTaken();
        await repo.updateLockApp(id, body, packageChecksum(body.sha256));
        const after = (await repo.lockApp(deviceType, id))!;
        // The agents download the current version: a change to it is a new settings version.
        if (after.isCurrent) await repo.bumpGlobal(deviceType);
        await record(tx, {
          actor,
          entity: 'lock_app_version',
          entityId: id,
          action: 'update',
          before: lockAppSnapshot(before),
          after: lockAppSnapshot(after),
        });
        return after;
      }),
    );
  }

  async deleteLockApp(actor: AuditActor, deviceType: DeviceTypeCode, id: number): Promise<void> {
    await transaction(this.db, async (tx) => {
      const repo = new AgentSettingsRepository(tx);
      const before = await repo.lockApp(deviceType, id, true);
      if (!before) throw lockAppNotFound();
      if (before.isCurrent) throw new AppError(409, 'LOCK_APP_CURRENT', M.lockApp.currentNotDeleted);
      await repo.deleteLockApp(id);
      await record(tx, { actor, entity: 'lock_app_version', entityId: id, action: 'delete', before: lockAppSnapshot(before) });
    });
  }

  /** Makes a version the current one of its type: what portal/getVersionApp answers (smartphones) and what the agents download. */
  async setCurrentLockApp(actor: AuditActor, deviceType: DeviceTypeCode, id: number): Promise<LockAppVersion> {
    return transaction(this.db, async (tx) => {
      const repo = new AgentSettingsRepository(tx);
      const chosen = await repo.lockApp(deviceType, id, true);
      if (!chosen) throw lockAppNotFound();
      if (chosen.isCurrent) return chosen;
      const previous = (await repo.lockApps(deviceType)).find((v) => v.isCurrent);
      await repo.setCurrentLockApp(deviceType, id);
      await repo.bumpGlobal(deviceType);
      await record(tx, {
        actor,
        entity: 'lock_app_version',
        entityId: id,
        action: 'set_current',
        before: { actual: previous ? appVersionLabel(previous.versionName, previous.versionApp) : null },
        after: { actual: appVersionLabel(chosen.versionName, chosen.versionApp) },
      });
      return (await repo.lockApp(deviceType, id))!;
    });
  }

  private async uniqueVersion<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw isUniqueViolation(err) ? versionTaken() : err;
    }
  }

  // Business apps ------------------------------------------------------------------------

  async businessApps(): Promise<BusinessAppList> {
    const data = await new AgentSettingsRepository(this.db).businessApps();
    return { data, total: data.length };
  }

  async createBusinessApp(actor: AuditActor, body: BusinessAppBody): Promise<BusinessApp> {
    return this.uniquePackage(() =>
      transaction(this.db, async (tx) => {
        const repo = new AgentSettingsRepository(tx);
        await this.checkGroups(repo, body.groupIds);
        if (await repo.packageTaken(body.packageName)) throw packageTaken();
        const id = await repo.insertBusinessApp(body, actor.email);
        await repo.bumpGlobal(1);
        const created = (await repo.businessApp(id))!;
        await record(tx, { actor, entity: 'business_app', entityId: id, action: 'create', after: businessAppSnapshot(created) });
        return created;
      }),
    );
  }

  async updateBusinessApp(actor: AuditActor, id: number, body: BusinessAppBody): Promise<BusinessApp> {
    return this.uniquePackage(() =>
      transaction(this.db, async (tx) => {
        const repo = new AgentSettingsRepository(tx);
        const before = await repo.businessApp(id, true);
        if (!before) throw businessAppNotFound();
        await this.checkGroups(repo, body.groupIds);
        if (await repo.packageTaken(body.packageName, id)) throw packageTaken();
        await repo.updateBusinessApp(id, body, actor.email);
        await repo.bumpGlobal(1);
        const after = (await repo.businessApp(id))!;
        await record(tx, {
          actor,
          entity: 'business_app',
          entityId: id,
          action: 'update',
          before: businessAppSnapshot(before),
          after: businessAppSnapshot(after),
        });
        return after;
      }),
    );
  }

  async deleteBusinessApp(actor: AuditActor, id: number): Promise<void> {
    await transaction(this.db, async (tx) => {
      const repo = new AgentSettingsRepository(tx);
      const before = await repo.businessApp(id, true);
      if (!before) throw businessAppNotFound();
      await repo.deleteBusinessApp(id);
      await repo.bumpGlobal(1);
      await record(tx, { actor, entity: 'business_app', entityId: id, action: 'delete', before: businessAppSnapshot(before) });
    });
  }

  /** Every group named exists; the first one that does not is named by its position as sent. */
  private async checkGroups(repo: AgentSettingsRepository, ids: readonly number[]): Promise<void> {
    const found = new Set(await repo.existingGroups(ids));
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0) throw new AppError(400, 'VALIDATION', M.businessApps.groupNotFound, `groupIds.${missing}`);
  }

  private async uniquePackage<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw isUniqueViolation(err) ? packageTaken() : err;
    }
  }
}

/** The groups that override something of a section, by name. */
function overridesOf(deviceType: DeviceTypeCode, rows: readonly SettingsRow[], section: SettingsSectionKey) {
  return rows
    .filter((r) => r.group_id !== null)
    .map((r) => ({ groupId: r.group_id!, groupName: r.group_name ?? String(r.group_id), keys: keysSet(deviceType, r.settings, section) }))
    .filter((o) => o.keys.length > 0)
    .sort((a, b) => a.groupName.localeCompare(b.groupName, 'es'));
}

const lockAppSnapshot = (v: LockAppVersion) => ({
  versionName: v.versionName,
  versionApp: v.versionApp,
  appType: v.appType,
  packageName: v.packageName,
  downloadUrl: v.downloadUrl,
  sha256: v.sha256,
  releaseNotes: v.releaseNotes,
});

const businessAppSnapshot = (a: BusinessApp) => ({ ...forAgents(a), groups: a.groups.map((g) => g.name) });

/** An SVG document (text whose first kilobyte opens an <svg> element): refused with its own reason. */
function looksLikeSvg(bytes: Buffer): boolean {
  return /<svg[\s>]/i.test(bytes.subarray(0, 1024).toString('utf8'));
}
