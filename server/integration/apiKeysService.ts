import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_TAG } from '../../shared/constants/integration';
import type { ApiKey, ApiKeyBody, ApiKeyCreated, ApiKeyRoles } from '../../shared/contracts/apiKeys';
import type { ListResponse } from '../../shared/contracts/fields';
import { AUTHZ_MESSAGES } from '../../shared/areaMessages/authz';
import { INTEGRATION_MESSAGES as M } from '../../shared/areaMessages/integration';
import { record, type AuditActor } from '../audit/auditRepository';
import type { Db } from '../db/Db';
import { constraintOf, isUniqueViolation } from '../db/pgErrors';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import type { InventorySettings } from '../devices';
import { beyond, callerGrants, describeGrant, isEmptyGrant } from '../api/roles/grantChecks';
import { ApiKeysRepository, type StoredApiKey } from './apiKeysRepository';
import { invalidCidr } from './cidr';

/** Hex characters of a key's public prefix after the tag (40 random bits: `mlk_0123456789`). */
const PREFIX_HEX = 10;
/** A whole key: `mlk_<prefix>_<secret>`, the secret being 32 random bytes in base64url. */
const KEY_FORMAT = new RegExp(`^(${API_KEY_TAG}[0-9a-f]{${PREFIX_HEX}})_([A-Za-z0-9_-]{43})$`);

/** The SHA-256 of a whole key, as stored. */
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** The public prefix of a well-formed key, or undefined. */
export function prefixOf(key: string): string | undefined {
  return KEY_FORMAT.exec(key)?.[1];
}

const notFound = () => new AppError(404, 'API_KEY_NOT_FOUND', M.apiKeys.notFound);

type Held = { paths: Set<string>; actions: Set<number> };

/** A key as answered to `caller`: manageable when its role holds nothing the caller lacks. */
const answer = ({ grants, ...key }: StoredApiKey, caller: Held): ApiKey => ({ ...key, manageable: isEmptyGrant(beyond(grants, caller)) });

/**
 * API keys (/v5/api-keys): list, create (the secret answered once), revoke; every change audited.
 * As with administrators, nobody acts on a key whose role holds a path or action they lack.
 */
export class ApiKeysService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
  ) {}

  /** A page of keys, each marked manageable when its role holds nothing beyond the caller's grants. */
  async list(page: { page: number; perPage: number }, caller: Held): Promise<ListResponse<ApiKey>> {
    const found = await new ApiKeysRepository(this.db).list({ offset: (page.page - 1) * page.perPage, limit: page.perPage }, this.settings.now());
    return { data: found.data.map((k) => answer(k, caller)), total: found.total };
  }

  /** The roles, each marked grantable when the caller holds everything it grants. */
  async roles(caller: { paths: Set<string>; actions: Set<number> }): Promise<ApiKeyRoles> {
    const roles = await new ApiKeysRepository(this.db).roles();
    return { data: roles.map((r) => ({ id: r.id, name: r.nombre, grantable: isEmptyGrant(beyond(r, caller)) })) };
  }

  /** Creates a key acting with `body.profileId`'s grants, never more than its creator holds now. */
  async create(actor: AuditActor, adminId: number, body: ApiKeyBody): Promise<ApiKeyCreated> {
    const bad = invalidCidr(body.allowedIps);
    if (bad !== undefined) throw new AppError(400, 'VALIDATION', M.field.cidr('IPs permitidas', bad), 'allowedIps');
    try {
      return await transaction(this.db, async (tx) => {
        const repo = new ApiKeysRepository(tx);
        const role = await repo.role(body.profileId);
        if (!role) throw new AppError(400, 'ROLE_NOT_FOUND', M.apiKeys.roleNotFound, 'profileId');
        const caller = await callerGrants(tx, adminId);
        const extra = beyond(role, caller);
        if (!isEmptyGrant(extra)) throw new AppError(403, 'API_KEY_BEYOND_CREATOR', M.apiKeys.beyondCreator(describeGrant(extra)), 'profileId');
        const prefix = `${API_KEY_TAG}${randomBytes(PREFIX_HEX / 2).toString('hex')}`;
        const secret = `${prefix}_${randomBytes(32).toString('base64url')}`;
        const id = await repo.insert({
          name: body.name,
          prefix,
          secretHash: hashKey(secret),
          profileId: role.id,
          allowedIps: body.allowedIps,
          expiresAt: body.expiresAt,
          createdByAdminId: adminId,
          createdBy: actor.email ?? String(adminId),
        });
        const key = (await repo.find(id, this.settings.now()))!;
        await record(tx, { actor, entity: 'api_key', entityId: id, action: 'create', after: facts(key) });
        return { key: answer(key, caller), secret };
      });
    } catch (err) {
      // The name of a key that is not revoked is unique: the index decides (no check-then-insert race).
      if (isUniqueViolation(err) && constraintOf(err) === 'api_keys_name') throw new AppError(409, 'API_KEY_NAME_TAKEN', M.apiKeys.nameTaken, 'name');
      throw err;
    }
  }

  /** Revokes a key, refused (403 ESCALATION, nothing written) when its role holds a path or action the caller lacks. */
  async revoke(actor: AuditActor, adminId: number, id: number): Promise<ApiKey> {
    return transaction(this.db, async (tx) => {
      const repo = new ApiKeysRepository(tx);
      const now = this.settings.now();
      const before = await repo.find(id, now, true);
      if (!before) throw notFound();
      if (before.state === 'revoked') throw new AppError(409, 'API_KEY_REVOKED', M.apiKeys.alreadyRevoked);
      const caller = await callerGrants(tx, adminId);
      const more = beyond(before.grants, caller);
      if (!isEmptyGrant(more)) throw new AppError(403, 'ESCALATION', AUTHZ_MESSAGES.apiKeySuperior('revocar', describeGrant(more)));
      await repo.revoke(id, actor.email ?? '', now);
      const after = (await repo.find(id, now))!;
      await record(tx, { actor, entity: 'api_key', entityId: id, action: 'revoke', before: facts(before), after: facts(after) });
      return answer(after, caller);
    });
  }
}

/** What the audit log keeps of a key (never its secret or hash). */
const facts = (k: StoredApiKey) => ({
  name: k.name,
  prefix: k.prefix,
  profileId: k.profileId,
  profileName: k.profileName,
  allowedIps: k.allowedIps,
  expiresAt: k.expiresAt,
  revokedAt: k.revokedAt,
});
