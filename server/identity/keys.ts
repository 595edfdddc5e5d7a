import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { Db } from '../db/Db';

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
  const existing = await db.query<{ token_use: TokenUse }>('SELECT token_use FROM identity_keys');
  const have = new Set(existing.rows.map((r) => r.token_use));
  for (const use of (['id', 'access'] as const).filter((u) => !have.has(u))) {
    const { pem, jwk } = generate();
    await db.query(
      `INSERT INTO identity_keys (kid, token_use, private_pem, public_jwk) VALUES ($1, $2, $3, $4)
       ON CONFLICT (token_use) DO NOTHING`,
      [jwk.kid, use, pem, JSON.stringify(jwk)],
    );
  }
  const rows = await db.query<{ token_use: TokenUse; kid: string; private_pem: string; public_jwk: PublicJwk }>(
    'SELECT token_use, kid, private_pem, public_jwk FROM identity_keys',
  );
  const byUse = Object.fromEntries(
    rows.rows.map((r) => [r.token_use, { kid: r.kid, privateKey: createPrivateKey(r.private_pem), jwk: r.public_jwk }]),
  ) as Record<TokenUse, SigningKey>;
  return { id: byUse.id, access: byUse.access, jwks: { keys: [byUse.id.jwk, byUse.access.jwk] } };
}
