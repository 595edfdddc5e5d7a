import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { Db } from '../db/Db';
import { IdentityRepository } from './identityRepository';

export type TokenUse = 'id' | 'access';

export interface PublicJwk {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  jwk: PublicJwk;
}

export interface SigningKeys {
  id: SigningKey;
  access: SigningKey;
  jwks: { keys: PublicJwk[] };
}

function generate(): { pem: string; jwk: PublicJwk } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pub = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  return {
    pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    jwk: { kty: 'RSA', kid: randomBytes(32).toString('base64'), alg: 'RS256', use: 'sig', n: pub.n, e: pub.e },
  };
}

/**
 * The two RSA-2048 signing keys (ID and access tokens, distinct kids), generated on the first
 * start and kept in the database, so a restart keeps every issued token valid.
 */
export async function loadOrCreateKeys(db: Db): Promise<SigningKeys> {
  const repo = new IdentityRepository(db);
  const have = new Set(await repo.signingKeyUses());
  for (const use of (['id', 'access'] as const).filter((u) => !have.has(u))) {
    const { pem, jwk } = generate();
    await repo.insertSigningKey({ kid: jwk.kid, tokenUse: use, privatePem: pem, publicJwk: jwk });
  }
  const rows = await repo.signingKeys();
  const byUse = Object.fromEntries(
    rows.map((r) => [r.tokenUse, { kid: r.kid, privateKey: createPrivateKey(r.privatePem), jwk: r.publicJwk }]),
  ) as Record<TokenUse, SigningKey>;
  return { id: byUse.id, access: byUse.access, jwks: { keys: [byUse.id.jwk, byUse.access.jwk] } };
}
