import type { DirectoryUser, IdentityDirectory } from './IdentityDirectory';
import type { IdentityService } from './identityService';
import type { IdentityUser } from './identityRepository';

const toDirectoryUser = (u: IdentityUser): DirectoryUser => ({
  username: u.username,
  email: u.attributes.email,
  enabled: u.enabled,
  status: u.status,
  attributes: { sub: u.sub, ...u.attributes },
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
});

/** In-process calls to the embedded endpoint's store: nothing goes over HTTP. */
export function embeddedDirectory(identity: IdentityService): IdentityDirectory {
  return {
    kind: 'embedded',
    async createUser({ email, attributes, temporaryPassword }) {
      const created = await identity.admin.adminCreateUser({
        username: email.toLowerCase(),
        attributes: { ...attributes, email: email.toLowerCase(), email_verified: 'true' },
        temporaryPassword,
      });
      return { user: toDirectoryUser(created.user), temporaryPassword: created.temporaryPassword };
    },
    async getUser(username) {
      const user = await identity.admin.adminGetUser(username).catch(() => undefined);
      return user && toDirectoryUser(user);
    },
    async listUsers({ limit, nextToken } = {}) {
      const users = await identity.admin.listUsers(limit ?? 60, nextToken);
      const full = users.length === Math.min(Math.max(limit ?? 60, 1), 60);
      return { users: users.map(toDirectoryUser), nextToken: full ? users.at(-1)?.username : undefined };
    },
    disableUser: (username) => identity.admin.adminDisableUser(username),
    enableUser: (username) => identity.admin.adminEnableUser(username),
    deleteUser: (username) => identity.admin.adminDeleteUser(username),
    resetPassword: (username) => identity.admin.adminResetUserPassword(username),
    setPassword: (username, password, permanent) => identity.admin.adminSetUserPassword(username, password, permanent),
    signOutEverywhere: (username) => identity.admin.adminUserGlobalSignOut(username),
  };
}
