import { sign } from 'node:crypto';
import type { SigningKey } from './keys';

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** A compact RS256 JWS with the header Cognito uses (`kid`, `alg`; no `typ`). */
export function signJwt(payload: Record<string, unknown>, key: SigningKey): string {
  const input = `${b64url(JSON.stringify({ kid: key.kid, alg: 'RS256' }))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${b64url(sign('sha256', Buffer.from(input), key.privateKey))}`;
}
