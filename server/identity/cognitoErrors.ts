/** An error of the Cognito JSON protocol: `__type` and `message` as the real service sends them. */
export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = type;
  }
}

const e = (type: string, message: string) => () => new CognitoError(type, message);

/**
 * The messages the client library and applications compare against: real Cognito's wording, since
 * amazon-cognito-identity-js passes `__type` and `message` through and applications match them verbatim.
 */
export const Cognito = {
  incorrect: e('NotAuthorizedException', 'Incorrect username or password.'),
  disabled: e('NotAuthorizedException', 'User is disabled.'),
  attemptsExceeded: e('NotAuthorizedException', 'Password attempts exceeded'),
  sessionExpired: e('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
  tempPasswordExpired: e('NotAuthorizedException', 'Temporary password has expired and must be reset by an administrator.'),
  invalidRefresh: e('NotAuthorizedException', 'Invalid Refresh Token'),
  refreshRevoked: e('NotAuthorizedException', 'Refresh Token has been revoked'),
  refreshExpired: e('NotAuthorizedException', 'Refresh Token has expired'),
  invalidAccess: e('NotAuthorizedException', 'Invalid Access Token'),
  accessExpired: e('NotAuthorizedException', 'Access Token has expired'),
  accessRevoked: e('NotAuthorizedException', 'Access Token has been revoked'),
  userNotFound: e('UserNotFoundException', 'User does not exist.'),
  resetRequired: e('PasswordResetRequiredException', 'Password reset required for the user'),
  usernameExists: e('UsernameExistsException', 'User account already exists'),
  codeMismatch: e('CodeMismatchException', 'Invalid verification code provided, please try again.'),
  expiredCode: e('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
  limitExceeded: e('LimitExceededException', 'Attempt limit exceeded, please try after some time.'),
  unsupportedToken: e('UnsupportedTokenTypeException', 'The token type is not supported.'),
  invalidParameter: (message: string) => new CognitoError('InvalidParameterException', message),
  invalidPassword: (reason: string) => new CognitoError('InvalidPasswordException', `Password does not conform to policy: ${reason}`),
  unknownClient: (clientId: string) => new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`),
  unknownOperation: e('UnknownOperationException', 'Unknown operation'),
  internal: () => new CognitoError('InternalErrorException', 'Internal error', 500),
};

/** Cognito's default password policy: 8+ characters with upper, lower, digit and symbol. */
export function checkPasswordPolicy(password: unknown): string {
  if (typeof password !== 'string' || password.length === 0) throw Cognito.invalidParameter('Password is required.');
  if (password.length < 8) throw Cognito.invalidPassword('Password not long enough');
  if (password.length > 256) throw Cognito.invalidPassword('Password is too long');
  if (!/[a-z]/.test(password)) throw Cognito.invalidPassword('Password must have lowercase characters');
  if (!/[A-Z]/.test(password)) throw Cognito.invalidPassword('Password must have uppercase characters');
  if (!/[0-9]/.test(password)) throw Cognito.invalidPassword('Password must have numeric characters');
  if (!/[^A-Za-z0-9]/.test(password)) throw Cognito.invalidPassword('Password must have symbol characters');
  return password;
}

/** Cognito's limit on user names: 1–128 characters. */
export const MAX_USERNAME_LENGTH = 128;
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * A user name as sent, refused (InvalidParameterException, Cognito's wording) when it is longer
 * than 128 characters or holds control characters: checked before the name is looked up,
 * stored (challenges, lock-out counters) or audited.
 */
export function checkUsername(name: string): string {
  if (name.length > MAX_USERNAME_LENGTH && [...name].length > MAX_USERNAME_LENGTH) {
    throw Cognito.invalidParameter(
      `1 validation error detected: Value at 'username' failed to satisfy constraint: Member must have length less than or equal to ${MAX_USERNAME_LENGTH}`,
    );
  }
  if (CONTROL_CHARACTER.test(name)) {
    throw Cognito.invalidParameter(
      "1 validation error detected: Value at 'username' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+",
    );
  }
  return name;
}
