import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminResetUserPasswordCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { DirectoryUser, IdentityDirectory } from './IdentityDirectory';

export interface CognitoDirectoryOptions {
  region: string;
  userPoolId: string;
  /** Another endpoint than AWS's (the embedded endpoint in tests). */
  endpoint?: string;
  /** Explicit credentials (tests); otherwise the SDK's default provider chain (environment, role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The SDK's user shape: `Attributes` in ListUsers/AdminCreateUser, `UserAttributes` in AdminGetUser. */
interface SdkUser {
  Username?: string;
  Attributes?: AttributeType[];
  UserAttributes?: AttributeType[];
  Enabled?: boolean;
  UserStatus?: string;
  UserCreateDate?: Date;
  UserLastModifiedDate?: Date;
}

const toDirectoryUser = (u: SdkUser): DirectoryUser => {
  const attributes: Record<string, string> = {};
  for (const { Name, Value } of u.Attributes ?? u.UserAttributes ?? []) {
    if (Name) attributes[Name] = Value ?? '';
  }
  const createdAt = u.UserCreateDate ?? new Date(0);
  return {
    username: u.Username ?? '',
    email: attributes.email,
    enabled: u.Enabled ?? false,
    status: u.UserStatus ?? 'UNKNOWN',
    attributes,
    createdAt,
    updatedAt: u.UserLastModifiedDate ?? createdAt,
  };
};

const MAX_PAGE = 60;

/** A Cognito user pool through the AWS SDK v3 (IAM-signed Admin* calls). */
export function cognitoDirectory(opts: CognitoDirectoryOptions): IdentityDirectory {
  const client = new CognitoIdentityProviderClient({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.credentials ? { credentials: { ...opts.credentials } } : {}),
  });
  const UserPoolId = opts.userPoolId;

  return {
    kind: 'cognito',
    async createUser({ email, attributes, temporaryPassword }) {
      const username = email.toLowerCase();
      const all = { ...attributes, email: username, email_verified: 'true' };
      const out = await client.send(
        new AdminCreateUserCommand({
          UserPoolId,
          Username: username,
          UserAttributes: Object.entries(all).map(([Name, Value]) => ({ Name, Value })),
          DesiredDeliveryMediums: ['EMAIL'],
          // A password the administrator chose is handed over by them: no invitation e-mail.
          // Without one, Cognito generates it and e-mails the invitation.
          ...(temporaryPassword ? { TemporaryPassword: temporaryPassword, MessageAction: 'SUPPRESS' as const } : {}),
        }),
      );
      if (!out.User) throw new Error('AdminCreateUser returned no user');
      return { user: toDirectoryUser(out.User), ...(temporaryPassword ? { temporaryPassword } : {}) };
    },
    async getUser(username) {
      try {
        return toDirectoryUser(await client.send(new AdminGetUserCommand({ UserPoolId, Username: username })));
      } catch (err) {
        if ((err as Error).name === 'UserNotFoundException') return undefined;
        throw err;
      }
    },
    async listUsers({ limit, nextToken } = {}) {
      const out = await client.send(
        new ListUsersCommand({
          UserPoolId,
          Limit: Math.min(Math.max(Math.trunc(limit ?? MAX_PAGE), 1), MAX_PAGE),
          ...(nextToken ? { PaginationToken: nextToken } : {}),
        }),
      );
      return { users: (out.Users ?? []).map(toDirectoryUser), ...(out.PaginationToken ? { nextToken: out.PaginationToken } : {}) };
    },
    async disableUser(username) {
      await client.send(new AdminDisableUserCommand({ UserPoolId, Username: username }));
      // The interface promises that sessions end: revoke the refresh tokens explicitly too.
      await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId, Username: username }));
    },
    async enableUser(username) {
      await client.send(new AdminEnableUserCommand({ UserPoolId, Username: username }));
    },
    async deleteUser(username) {
      await client.send(new AdminDeleteUserCommand({ UserPoolId, Username: username }));
    },
    async resetPassword(username) {
      await client.send(new AdminResetUserPasswordCommand({ UserPoolId, Username: username }));
    },
    async setPassword(username, password, permanent) {
      await client.send(new AdminSetUserPasswordCommand({ UserPoolId, Username: username, Password: password, Permanent: permanent }));
    },
    async signOutEverywhere(username) {
      await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId, Username: username }));
    },
  };
}
