import { Cognito, CognitoError } from './cognitoErrors';
import type { IdentityService } from './identityService';
import type { IdentityUser } from './identityRepository';

/** The administrator operations the embedded endpoint serves over HTTP (SigV4-signed only). */
export const ADMIN_OPERATIONS: ReadonlySet<string> = new Set([
  'AdminCreateUser',
  'AdminGetUser',
  'ListUsers',
  'AdminDisableUser',
  'AdminEnableUser',
  'AdminDeleteUser',
  'AdminResetUserPassword',
  'AdminSetUserPassword',
  'AdminUserGlobalSignOut',
]);

/** Targets that need a signature: the routed admin operations and any other Admin* name. */
export const requiresSignature = (operation: string): boolean => ADMIN_OPERATIONS.has(operation) || operation.startsWith('Admin');

type Params = Record<string, unknown>;

const requiredString = (body: Params, name: string): string => {
  const v = body[name];
  if (typeof v !== 'string' || v.length === 0) throw Cognito.invalidParameter(`Missing required parameter ${name}`);
  return v;
};

const optionalString = (body: Params, name: string): string | undefined => {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw Cognito.invalidParameter(`${name} must be a string`);
  return v;
};

/** Dates on the wire: epoch seconds as JSON numbers (the SDK turns them into `Date`). */
const epochSeconds = (d: Date) => d.getTime() / 1000;

const attributeList = (u: IdentityUser, only?: ReadonlySet<string>) =>
  [{ Name: 'sub', Value: u.sub }, ...Object.entries(u.attributes).map(([Name, Value]) => ({ Name, Value }))].filter((a) => !only || only.has(a.Name));

const userType = (u: IdentityUser, only?: ReadonlySet<string>) => ({
  Username: u.username,
  Attributes: attributeList(u, only),
  UserCreateDate: epochSeconds(u.createdAt),
  UserLastModifiedDate: epochSeconds(u.updatedAt),
  Enabled: u.enabled,
  UserStatus: u.status,
});

function parseAttributes(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!Array.isArray(value)) throw Cognito.invalidParameter('UserAttributes must be a list');
  const out: Record<string, string> = {};
  for (const item of value as unknown[]) {
    const { Name, Value } = (item ?? {}) as { Name?: unknown; Value?: unknown };
    if (typeof Name !== 'string' || Name.length === 0) throw Cognito.invalidParameter('Each attribute needs a Name');
    if (Value !== undefined && typeof Value !== 'string') throw Cognito.invalidParameter(`Invalid value for attribute ${Name}`);
    if (Name === 'sub') throw Cognito.invalidParameter('Cannot modify the non-mutable attribute sub');
    out[Name] = Value ?? '';
  }
  return out;
}

function parseLimit(value: unknown): number {
  if (value === undefined || value === null || value === 0) return 60;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 60) {
    throw Cognito.invalidParameter('Limit must be an integer from 0 to 60');
  }
  return value;
}

const encodeToken = (username: string) => Buffer.from(username, 'utf8').toString('base64url');
const decodeToken = (token: string | undefined) => (token === undefined ? undefined : Buffer.from(token, 'base64url').toString('utf8'));

/**
 * One administrator operation of the JSON protocol, with the request and response shapes of
 * Cognito's API, on the embedded user pool. The caller has already verified the signature.
 * A temporary password the endpoint generated (no `TemporaryPassword`, no `MessageAction:
 * SUPPRESS`) is delivered the way embedded mode delivers reset codes: to the server log.
 */
export async function handleAdminOperation(identity: IdentityService, operation: string, body: Params): Promise<unknown> {
  if (!ADMIN_OPERATIONS.has(operation)) throw Cognito.unknownOperation();
  const poolId = requiredString(body, 'UserPoolId');
  if (poolId !== identity.userPoolId) throw new CognitoError('ResourceNotFoundException', `User pool ${poolId} does not exist.`);

  switch (operation) {
    case 'AdminCreateUser': {
      const username = requiredString(body, 'Username');
      const attributes = parseAttributes(body.UserAttributes);
      const temporaryPassword = optionalString(body, 'TemporaryPassword');
      const action = optionalString(body, 'MessageAction');
      if (action === 'RESEND') throw Cognito.invalidParameter('MessageAction RESEND is not supported by the embedded endpoint');
      if (action !== undefined && action !== 'SUPPRESS') throw Cognito.invalidParameter(`Invalid MessageAction: ${action}`);
      // The embedded endpoint has no e-mail to deliver a generated password, and passwords never
      // go to the log: over HTTP the caller chooses the temporary password.
      if (!temporaryPassword) throw Cognito.invalidParameter('TemporaryPassword is required by the embedded endpoint');
      const created = await identity.admin.adminCreateUser({ username, attributes, temporaryPassword });
      return { User: userType(created.user) };
    }
    case 'AdminGetUser': {
      const user = await identity.admin.adminGetUser(requiredString(body, 'Username'));
      const { Attributes, ...rest } = userType(user);
      return { ...rest, UserAttributes: Attributes };
    }
    case 'ListUsers': {
      if (body.Filter !== undefined && body.Filter !== '') throw Cognito.invalidParameter('Filter is not supported by the embedded endpoint');
      const limit = parseLimit(body.Limit);
      const only = Array.isArray(body.AttributesToGet) ? new Set((body.AttributesToGet as unknown[]).map(String)) : undefined;
      const users = await identity.admin.listUsers(limit, decodeToken(optionalString(body, 'PaginationToken')));
      const last = users.at(-1);
      return {
        Users: users.map((u) => userType(u, only)),
        ...(users.length === limit && last ? { PaginationToken: encodeToken(last.username) } : {}),
      };
    }
    case 'AdminSetUserPassword': {
      const permanent = body.Permanent ?? false;
      if (typeof permanent !== 'boolean') throw Cognito.invalidParameter('Permanent must be a boolean');
      await identity.admin.adminSetUserPassword(requiredString(body, 'Username'), requiredString(body, 'Password'), permanent);
      return {};
    }
    case 'AdminDisableUser':
      await identity.admin.adminDisableUser(requiredString(body, 'Username'));
      return {};
    case 'AdminEnableUser':
      await identity.admin.adminEnableUser(requiredString(body, 'Username'));
      return {};
    case 'AdminDeleteUser':
      await identity.admin.adminDeleteUser(requiredString(body, 'Username'));
      return {};
    case 'AdminResetUserPassword':
      await identity.admin.adminResetUserPassword(requiredString(body, 'Username'));
      return {};
    case 'AdminUserGlobalSignOut':
      await identity.admin.adminUserGlobalSignOut(requiredString(body, 'Username'));
      return {};
    default:
      throw Cognito.unknownOperation();
  }
}
