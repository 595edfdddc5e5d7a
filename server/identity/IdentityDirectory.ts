/**
 * Administrator operations on the identity users, the same for the embedded endpoint and a
 * real Cognito user pool (the [admin] pages use only this interface).
 */
export interface DirectoryUser {
  username: string;
  email?: string;
  enabled: boolean;
  /** FORCE_CHANGE_PASSWORD, CONFIRMED, RESET_REQUIRED (Cognito may report others). */
  status: string;
  attributes: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export interface CreatedDirectoryUser {
  user: DirectoryUser;
  /** Shown once to the administrator who created the user; absent when Cognito e-mails it. */
  temporaryPassword?: string;
}

export interface IdentityDirectory {
  readonly kind: 'embedded' | 'cognito';
  /** A user who must choose a password at first sign-in (NEW_PASSWORD_REQUIRED). */
  createUser(p: { email: string; attributes?: Record<string, string>; temporaryPassword?: string }): Promise<CreatedDirectoryUser>;
  getUser(username: string): Promise<DirectoryUser | undefined>;
  listUsers(p?: { limit?: number; nextToken?: string }): Promise<{ users: DirectoryUser[]; nextToken?: string }>;
  /** Disabling also ends every session of the user. */
  disableUser(username: string): Promise<void>;
  enableUser(username: string): Promise<void>;
  deleteUser(username: string): Promise<void>;
  /** The user must reset the password (forgot-password flow) before signing in again. */
  resetPassword(username: string): Promise<void>;
  setPassword(username: string, password: string, permanent: boolean): Promise<void>;
  signOutEverywhere(username: string): Promise<void>;
}
