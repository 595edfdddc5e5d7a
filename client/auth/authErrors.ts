import { MESSAGES, SPEC_TEXT } from '../../shared/messages';
import type { AuthError } from './authClient';

/** The Spanish message for an error of the identity service (codes and messages as Cognito sends them). */
export function authErrorMessage(err: unknown, context: 'signIn' | 'changePassword' | 'other' = 'other'): string {
  const e = err as AuthError;
  const m = MESSAGES.auth;
  switch (e?.code) {
    case 'NetworkError':
      return SPEC_TEXT.networkError;
    case 'UserNotFoundException':
      return m.wrongCredentials;
    case 'PasswordResetRequiredException':
      return m.resetRequired;
    case 'InvalidPasswordException':
      return m.invalidPassword;
    case 'CodeMismatchException':
      return m.codeMismatch;
    case 'ExpiredCodeException':
      return m.codeExpired;
    case 'LimitExceededException':
    case 'TooManyRequestsException':
      return m.limitExceeded;
    case 'NotAuthorizedException':
      if (e.message === 'User is disabled.') return m.disabled;
      if (e.message === 'Password attempts exceeded') return m.tooManyAttempts;
      if (/session is expired/i.test(e.message)) return m.sessionExpired;
      if (/Temporary password has expired/i.test(e.message)) return m.tempPasswordExpired;
      return context === 'changePassword' ? m.wrongCurrentPassword : m.wrongCredentials;
    default:
      return m.generic;
  }
}
