import { createHash, getDiffieHellman } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  N,
  computeU,
  computeX,
  createVerifier,
  g,
  hexToBigInt,
  hkdfKey,
  isValidTimestamp,
  k,
  padHex,
  parseSrpA,
  passwordClaimSignature,
  poolNameOf,
  serverEphemeral,
  serverS,
  verifierMatches,
  verifyPasswordClaim,
} from './srp';

interface Vector {
  name: string;
  inputs: {
    userPoolId: string;
    poolName: string;
    USER_ID_FOR_SRP: string;
    password: string;
    SALT: string;
    a: string;
    b: string;
    SECRET_BLOCK: string;
    TIMESTAMP: string;
  };
  derived: {
    padHex_salt: string;
    x: string;
    v: string;
    SRP_A: string;
    SRP_B: string;
    u: string;
    S: string;
    hkdf_key_hex: string;
    PASSWORD_CLAIM_SIGNATURE: string;
  };
}

// The SRP known-answer vectors, kept in the repository (a clone has nothing beside it).
const FIXTURE_PATH = path.join(__dirname, 'fixtures', 'cognito-srp-vectors.json');
const fixture = JSON.parse(fs.readFileSync(FIXTURE_PATH, 'utf8')) as { k: string; vectors: Vector[] };
const vectors = fixture.vectors;

const K_HEX = '538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6';

/** The PASSWORD_VERIFIER state and client answer of a vector. */
function claimOf(t: Vector) {
  const { inputs: i, derived: d } = t;
  return {
    A: hexToBigInt(d.SRP_A),
    B: hexToBigInt(d.SRP_B),
    b: hexToBigInt(i.b),
    v: hexToBigInt(d.v),
    poolName: i.poolName,
    userId: i.USER_ID_FOR_SRP,
    secretBlock: i.SECRET_BLOCK,
    timestamp: i.TIMESTAMP,
    signature: d.PASSWORD_CLAIM_SIGNATURE,
  };
}

/** Replaces the character at `index` with a different one of the same kind (digit, letter, other). */
function flipChar(s: string, index: number): string {
  const c = s[index];
  if (c === undefined) throw new Error(`no character at ${index}`);
  let r: string;
  if (/[0-9]/.test(c)) r = c === '0' ? '1' : '0';
  else if (/[A-Za-z]/.test(c)) r = c === 'A' ? 'B' : c === 'a' ? 'b' : c === c.toUpperCase() ? 'A' : 'a';
  else r = c === '+' ? '/' : '+';
  return s.slice(0, index) + r + s.slice(index + 1);
}

describe('constants', () => {
  test('N is the RFC 5054 / RFC 3526 3072-bit prime and g = 2', () => {
    const hex = N.toString(16);
    expect(hex).toHaveLength(768);
    expect(hex.startsWith('ffffffffffffffffc90fdaa22168c234')).toBe(true);
    expect(hex.endsWith('a93ad2caffffffffffffffff')).toBe(true);
    expect(hex).toBe(getDiffieHellman('modp15').getPrime('hex'));
    expect(g).toBe(2n);
  });

  test('k = H(PAD(N) ‖ PAD(g)) = 0x538282c4…9ee6', () => {
    expect(k.toString(16)).toBe(K_HEX);
    expect(k.toString(16)).toBe(fixture.k);
    const recomputed = createHash('sha256')
      .update(Buffer.from('00' + N.toString(16), 'hex'))
      .update(Buffer.from([2]))
      .digest('hex');
    expect(recomputed).toBe(K_HEX);
  });
});

describe('padHex', () => {
  test('a set top bit gets a 00 sign byte', () => {
    expect(padHex(0x80n)).toBe('0080');
    expect(padHex(0xffn)).toBe('00ff');
    expect(padHex(0x7fn)).toBe('7f');
    expect(padHex(0x8000n)).toBe('008000');
    const nHex = padHex(N);
    expect(nHex).toBe('00' + N.toString(16));
    expect(nHex).toHaveLength(770); // 385 bytes: PAD is not fixed-width
  });

  test('an odd number of digits gets a leading 0 (and no sign byte after it)', () => {
    expect(padHex(0xabcn)).toBe('0abc');
    expect(padHex(0x1n)).toBe('01');
    expect(padHex(0x8abn)).toBe('08ab');
    expect(padHex(0x100n)).toBe('0100');
  });

  test('zero is 00', () => {
    expect(padHex(0n)).toBe('00');
  });

  test('values shorter than 384 bytes are not widened', () => {
    const tv3 = vectors[2]!;
    expect(tv3.derived.SRP_A).toHaveLength(766);
    expect(padHex(hexToBigInt(tv3.derived.SRP_A))).toBe(tv3.derived.SRP_A);
    expect(padHex(hexToBigInt(tv3.derived.u))).toBe('0' + tv3.derived.u); // 63 digits → 64
    expect(padHex(2n ** 8n)).toBe('0100');
  });

  test('is the normalised salt of every vector, and rejects negative input', () => {
    for (const t of vectors) expect(padHex(hexToBigInt(t.inputs.SALT))).toBe(t.derived.padHex_salt);
    expect(() => padHex(-1n)).toThrow(RangeError);
  });
});

describe('hexToBigInt and poolNameOf', () => {
  test('hexToBigInt accepts odd length, leading zeros and upper case; rejects non-hex', () => {
    expect(hexToBigInt('abc')).toBe(0xabcn);
    expect(hexToBigInt('ABC')).toBe(0xabcn);
    expect(hexToBigInt('000a')).toBe(10n);
    expect(hexToBigInt('0')).toBe(0n);
    expect(() => hexToBigInt('')).toThrow();
    expect(() => hexToBigInt('xyz')).toThrow();
    expect(() => hexToBigInt('0x10')).toThrow();
    expect(() => hexToBigInt(' 10')).toThrow();
    expect(() => hexToBigInt('10 ')).toThrow();
    expect(() => hexToBigInt('10\n')).toThrow();
  });

  test('poolNameOf takes the part after the underscore, as the client does', () => {
    for (const t of vectors) expect(poolNameOf(t.inputs.userPoolId)).toBe(t.inputs.poolName);
    expect(poolNameOf('us-east-1_LocalDev01')).toBe('LocalDev01');
    expect(poolNameOf('local_dev_Abc')).toBe('dev'); // client: UserPoolId.split('_')[1]
    expect(() => poolNameOf('nounderscore')).toThrow();
    expect(() => poolNameOf('us-east-1_')).toThrow();
  });
});

describe.each(vectors)('known-answer vector $name', (t) => {
  const { inputs: i, derived: d } = t;
  const b = hexToBigInt(i.b);
  const v = hexToBigInt(d.v);

  test('computeX gives x from the wire salt and from PAD(salt)', () => {
    expect(computeX(i.SALT, i.poolName, i.USER_ID_FOR_SRP, i.password).toString(16)).toBe(d.x);
    expect(computeX(d.padHex_salt, i.poolName, i.USER_ID_FOR_SRP, i.password).toString(16)).toBe(d.x);
  });

  test('createVerifier gives v and the normalised salt', () => {
    const fromPad = createVerifier(i.poolName, i.USER_ID_FOR_SRP, i.password, Buffer.from(d.padHex_salt, 'hex'));
    expect(fromPad).toEqual({ salt: d.padHex_salt, verifier: d.v });
    // The 16 raw salt bytes as sent on the wire (TV2: top bit set, TV3: leading zero bytes).
    const fromWire = createVerifier(i.poolName, i.USER_ID_FOR_SRP, i.password, Buffer.from(i.SALT, 'hex'));
    expect(fromWire).toEqual({ salt: d.padHex_salt, verifier: d.v });
  });

  test('serverEphemeral(v, b) gives SRP_B', () => {
    const eph = serverEphemeral(v, b);
    expect(eph.b).toBe(b);
    expect(eph.B.toString(16)).toBe(d.SRP_B);
  });

  test('computeU, serverS and hkdfKey match', () => {
    const A = parseSrpA(d.SRP_A);
    expect(A).toBe(hexToBigInt(d.SRP_A));
    const B = hexToBigInt(d.SRP_B);
    const u = computeU(A!, B);
    expect(u.toString(16)).toBe(d.u);
    const S = serverS(A!, v, u, b);
    expect(S.toString(16)).toBe(d.S);
    const key = hkdfKey(u, S);
    expect(key).toHaveLength(16);
    expect(key.toString('hex')).toBe(d.hkdf_key_hex);
  });

  test('passwordClaimSignature equals PASSWORD_CLAIM_SIGNATURE', () => {
    const sig = passwordClaimSignature(Buffer.from(d.hkdf_key_hex, 'hex'), i.poolName, i.USER_ID_FOR_SRP, i.SECRET_BLOCK, i.TIMESTAMP);
    expect(sig).toHaveLength(32);
    expect(sig.toString('base64')).toBe(d.PASSWORD_CLAIM_SIGNATURE);
  });

  test('verifyPasswordClaim accepts the claim', () => {
    expect(verifyPasswordClaim(claimOf(t))).toBe(true);
  });

  test('verifyPasswordClaim rejects a TIMESTAMP with one character flipped', () => {
    const claim = claimOf(t);
    const flipped = flipChar(claim.timestamp, claim.timestamp.lastIndexOf(':') + 2); // last digit of seconds
    expect(isValidTimestamp(flipped)).toBe(true); // still well-formed: only the signature can fail
    expect(verifyPasswordClaim(claim)).toBe(true);
    expect(verifyPasswordClaim({ ...claim, timestamp: flipped })).toBe(false);
  });

  test('verifyPasswordClaim rejects a SECRET_BLOCK with one character flipped', () => {
    const claim = claimOf(t);
    const flipped = flipChar(claim.secretBlock, 0);
    expect(flipped).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(flipped, 'base64').equals(Buffer.from(claim.secretBlock, 'base64'))).toBe(false);
    expect(verifyPasswordClaim(claim)).toBe(true);
    expect(verifyPasswordClaim({ ...claim, secretBlock: flipped })).toBe(false);
  });

  test('verifyPasswordClaim rejects a username with one character flipped', () => {
    const claim = claimOf(t);
    expect(verifyPasswordClaim(claim)).toBe(true);
    expect(verifyPasswordClaim({ ...claim, userId: flipChar(claim.userId, 0) })).toBe(false);
    expect(verifyPasswordClaim({ ...claim, userId: claim.userId.toUpperCase() })).toBe(false);
    expect(verifyPasswordClaim({ ...claim, poolName: flipChar(claim.poolName, 0) })).toBe(false);
  });

  test('verifyPasswordClaim rejects when the stored verifier is for a different password', () => {
    const claim = claimOf(t);
    const other = createVerifier(i.poolName, i.USER_ID_FOR_SRP, i.password + 'x', Buffer.from(d.padHex_salt, 'hex'));
    const otherV = hexToBigInt(other.verifier);
    expect(otherV).not.toBe(v);
    const otherB = serverEphemeral(otherV, b).B;
    expect(verifyPasswordClaim(claim)).toBe(true);
    expect(verifyPasswordClaim({ ...claim, v: otherV, B: otherB })).toBe(false);
    expect(verifyPasswordClaim({ ...claim, v: otherV })).toBe(false);
  });

  test('verifyPasswordClaim rejects malformed or altered signatures and inconsistent state', () => {
    const claim = claimOf(t);
    const sig = Buffer.from(claim.signature, 'base64');
    const bitFlipped = Buffer.from(sig);
    bitFlipped[31] = bitFlipped[31]! ^ 1;
    expect(verifyPasswordClaim(claim)).toBe(true);
    for (const signature of [
      bitFlipped.toString('base64'),
      '',
      'not base64!',
      claim.signature.slice(0, -1), // padding removed
      sig.subarray(0, 31).toString('base64'), // 31 bytes
      Buffer.concat([sig, Buffer.from([0])]).toString('base64'), // 33 bytes
      claim.signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, ''), // base64url
    ]) {
      expect(verifyPasswordClaim({ ...claim, signature })).toBe(false);
    }
    // Same 32 bytes, but a non-canonical last character (its 2 unused low bits set).
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const last = alphabet.indexOf(claim.signature[42]!);
    const nonCanonical = claim.signature.slice(0, 42) + alphabet[last + 1]! + '=';
    expect(Buffer.from(nonCanonical, 'base64').equals(sig)).toBe(true);
    expect(verifyPasswordClaim({ ...claim, signature: nonCanonical })).toBe(false);
    expect(verifyPasswordClaim({ ...claim, b: claim.b + 1n })).toBe(false); // B no longer k·v + g^b
    expect(verifyPasswordClaim({ ...claim, A: 0n })).toBe(false);
    expect(verifyPasswordClaim({ ...claim, A: N })).toBe(false);
    expect(verifyPasswordClaim({ ...claim, timestamp: claim.timestamp.replace(' UTC ', ' GMT ') })).toBe(false);
  });

  test('verifyPasswordClaim rejects a B that was not derived from v and b, even when signed over it', () => {
    const claim = claimOf(t);
    const sign = (B: bigint): string => {
      const u = computeU(claim.A, B);
      const key = hkdfKey(u, serverS(claim.A, claim.v, u, claim.b));
      return passwordClaimSignature(key, claim.poolName, claim.userId, claim.secretBlock, claim.timestamp).toString('base64');
    };
    expect(sign(claim.B)).toBe(claim.signature);
    expect(verifyPasswordClaim({ ...claim, signature: sign(claim.B) })).toBe(true);
    const otherB = claim.B + 1n;
    expect(verifyPasswordClaim({ ...claim, B: otherB, signature: sign(otherB) })).toBe(false);
  });

  test('verifyPasswordClaim rejects A ≡ 0 (mod N) even with the signature for S = 0', () => {
    const claim = claimOf(t);
    expect(verifyPasswordClaim(claim)).toBe(true);
    for (const A of [0n, N, 2n * N]) {
      const u = computeU(A, claim.B);
      expect(serverS(A, claim.v, u, claim.b)).toBe(0n); // what a password-less attacker can predict
      const forged = passwordClaimSignature(hkdfKey(u, 0n), claim.poolName, claim.userId, claim.secretBlock, claim.timestamp);
      expect(verifyPasswordClaim({ ...claim, A, signature: forged.toString('base64') })).toBe(false);
    }
  });

  test('verifierMatches: right password only, for this user and pool', () => {
    expect(verifierMatches(i.poolName, i.USER_ID_FOR_SRP, i.password, d.padHex_salt, d.v)).toBe(true);
    expect(verifierMatches(i.poolName, i.USER_ID_FOR_SRP, i.password, i.SALT, d.v)).toBe(true);
    expect(verifierMatches(i.poolName, i.USER_ID_FOR_SRP, i.password + ' ', d.padHex_salt, d.v)).toBe(false);
    expect(verifierMatches(i.poolName, i.USER_ID_FOR_SRP, 'Passw0rd!-wrong', d.padHex_salt, d.v)).toBe(false);
    expect(verifierMatches(i.poolName, i.USER_ID_FOR_SRP + 'x', i.password, d.padHex_salt, d.v)).toBe(false);
    expect(verifierMatches(i.poolName + 'x', i.USER_ID_FOR_SRP, i.password, d.padHex_salt, d.v)).toBe(false);
  });
});

describe('TV3 fixture timestamp', () => {
  test('names the right weekday (2024-02-29 was a Thursday), so its claim is accepted as signed', () => {
    const tv3 = vectors[2]!;
    expect(new Date(Date.UTC(2024, 1, 29)).getUTCDay()).toBe(4);
    expect(tv3.inputs.TIMESTAMP).toBe('Thu Feb 29 00:00:00 UTC 2024');
    expect(isValidTimestamp(tv3.inputs.TIMESTAMP)).toBe(true);
    expect(verifyPasswordClaim(claimOf(tv3))).toBe(true);
    // The wrong weekday the fixture once had fails the timestamp's calendar check.
    expect(isValidTimestamp('Wed Feb 29 00:00:00 UTC 2024')).toBe(false);
  });
});

describe('parseSrpA', () => {
  test('rejects 0, N, N+1, 2N and other multiples of N', () => {
    for (const A of [0n, N, N + 1n, 2n * N]) expect(parseSrpA(A.toString(16))).toBeNull();
    expect(parseSrpA('0')).toBeNull();
    expect(parseSrpA('0'.repeat(1024))).toBeNull();
    expect(parseSrpA(N.toString(16).toUpperCase())).toBeNull();
    expect(parseSrpA('000' + N.toString(16))).toBeNull();
  });

  test('rejects non-hex, empty, over-long and non-string input', () => {
    expect(parseSrpA('')).toBeNull();
    expect(parseSrpA('xyz')).toBeNull();
    expect(parseSrpA('0x1234')).toBeNull();
    expect(parseSrpA('12 34')).toBeNull();
    expect(parseSrpA('1234\n')).toBeNull();
    expect(parseSrpA('-1')).toBeNull();
    expect(parseSrpA('0'.repeat(1024) + '1')).toBeNull(); // 1025 chars, value 1
    for (const x of [undefined, null, 5, 5n, ['ab'], { A: 'ab' }]) expect(parseSrpA(x)).toBeNull();
  });

  test('accepts odd-length hex, leading zeros, upper case, N - 1 and the vectors', () => {
    expect(parseSrpA('abc')).toBe(0xabcn);
    expect(parseSrpA('ABC')).toBe(0xabcn);
    expect(parseSrpA('1')).toBe(1n);
    expect(parseSrpA('0'.repeat(1023) + '1')).toBe(1n); // 1024 chars
    expect(parseSrpA((N - 1n).toString(16))).toBe(N - 1n);
    for (const t of vectors) expect(parseSrpA(t.derived.SRP_A)).toBe(hexToBigInt(t.derived.SRP_A));
  });
});

describe('isValidTimestamp', () => {
  test('the vector timestamps pass', () => {
    expect(vectors).toHaveLength(3);
    for (const t of vectors) expect(isValidTimestamp(t.inputs.TIMESTAMP)).toBe(true);
    expect(isValidTimestamp('Tue Mar 5 09:04:07 UTC 2024')).toBe(true);
    expect(isValidTimestamp('Sun Dec 31 23:59:59 UTC 2023')).toBe(true);
    expect(isValidTimestamp('Thu Feb 29 00:00:00 UTC 2024')).toBe(true);
    expect(isValidTimestamp('Sat Nov 21 22:42:36 UTC 2026')).toBe(true);
  });

  test('a zero-padded day fails', () => {
    expect(isValidTimestamp('Tue Mar 05 09:04:07 UTC 2024')).toBe(false);
  });

  test('a weekday that does not match the date fails', () => {
    const wrong = ['Sun', 'Mon', 'Wed', 'Thu', 'Fri', 'Sat'];
    for (const wd of wrong) expect(isValidTimestamp(`${wd} Mar 5 09:04:07 UTC 2024`)).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 09:04:07 UTC 2024')).toBe(true);
  });

  test('days that do not exist fail (Feb 30, Feb 29 of a common year, Apr 31)', () => {
    for (const wd of ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']) {
      expect(isValidTimestamp(`${wd} Feb 30 12:00:00 UTC 2024`)).toBe(false);
      expect(isValidTimestamp(`${wd} Feb 29 12:00:00 UTC 2023`)).toBe(false);
      expect(isValidTimestamp(`${wd} Apr 31 12:00:00 UTC 2024`)).toBe(false);
    }
    expect(isValidTimestamp('Tue Apr 30 12:00:00 UTC 2024')).toBe(true);
  });

  test('24:00:00 and other out-of-range times fail', () => {
    expect(isValidTimestamp('Tue Mar 5 24:00:00 UTC 2024')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 23:60:00 UTC 2024')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 23:59:60 UTC 2024')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 9:04:07 UTC 2024')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 23:59:59 UTC 2024')).toBe(true);
  });

  test('a lower-case month or weekday fails', () => {
    expect(isValidTimestamp('Tue mar 5 09:04:07 UTC 2024')).toBe(false);
    expect(isValidTimestamp('tue Mar 5 09:04:07 UTC 2024')).toBe(false);
    expect(isValidTimestamp('Tue MAR 5 09:04:07 UTC 2024')).toBe(false);
  });

  test('extra or missing spaces and other deviations fail', () => {
    expect(isValidTimestamp('Tue Mar  5 09:04:07 UTC 2024')).toBe(false); // C asctime style
    expect(isValidTimestamp('Tue  Mar 5 09:04:07 UTC 2024')).toBe(false);
    expect(isValidTimestamp(' Tue Mar 5 09:04:07 UTC 2024')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 09:04:07 UTC 2024 ')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 09:04:07 UTC 2024\n')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 09:04:07 GMT 2024')).toBe(false);
    expect(isValidTimestamp('Tue Mar 5 09:04:07 UTC 24')).toBe(false);
    expect(isValidTimestamp('Tuesday Mar 5 09:04:07 UTC 2024')).toBe(false);
    expect(isValidTimestamp('')).toBe(false);
    expect(isValidTimestamp(undefined as unknown as string)).toBe(false);
  });
});

describe('serverEphemeral with a random b', () => {
  const v = hexToBigInt(vectors[0]!.derived.v);

  test('draws a fresh b of at most 256 bits, 1 <= b < N, and B = (k·v + g^b) mod N', () => {
    const first = serverEphemeral(v);
    const second = serverEphemeral(v);
    for (const { b, B } of [first, second]) {
      expect(b >= 1n && b < N).toBe(true);
      expect(b < 2n ** 256n).toBe(true);
      expect(B > 0n && B < N).toBe(true);
      expect(serverEphemeral(v, b).B).toBe(B);
    }
    expect(first.b).not.toBe(second.b);
    expect(first.B).not.toBe(second.B);
  });

  test('rejects out-of-range v and b', () => {
    expect(() => serverEphemeral(0n)).toThrow(RangeError);
    expect(() => serverEphemeral(N)).toThrow(RangeError);
    expect(() => serverEphemeral(v, 0n)).toThrow(RangeError);
    expect(() => serverEphemeral(v, N)).toThrow(RangeError);
    expect(serverEphemeral(v, 1n).B).toBe((k * v + 2n) % N);
  });
});

describe('createVerifier with a random salt', () => {
  test('uses 16 fresh random bytes, normalised with PAD', () => {
    const a = createVerifier('LocalDev01', 'alice', 'Passw0rd!');
    const b = createVerifier('LocalDev01', 'alice', 'Passw0rd!');
    expect(a.salt).not.toBe(b.salt);
    expect(a.verifier).not.toBe(b.verifier);
    for (const r of [a, b]) {
      expect(padHex(hexToBigInt(r.salt))).toBe(r.salt);
      expect(hexToBigInt(r.salt) < 2n ** 128n).toBe(true);
      expect(r.verifier).toMatch(/^[0-9a-f]+$/);
      expect(r.verifier).toBe(hexToBigInt(r.verifier).toString(16));
      expect(verifierMatches('LocalDev01', 'alice', 'Passw0rd!', r.salt, r.verifier)).toBe(true);
      expect(verifierMatches('LocalDev01', 'alice', 'Passw0rd?', r.salt, r.verifier)).toBe(false);
    }
  });

  test('verifierMatches returns false for malformed stored data', () => {
    const r = createVerifier('LocalDev01', 'alice', 'Passw0rd!');
    expect(verifierMatches('LocalDev01', 'alice', 'Passw0rd!', r.salt, r.verifier)).toBe(true);
    expect(verifierMatches('LocalDev01', 'alice', 'Passw0rd!', r.salt, '')).toBe(false);
    expect(verifierMatches('LocalDev01', 'alice', 'Passw0rd!', r.salt, 'zz')).toBe(false);
    expect(verifierMatches('LocalDev01', 'alice', 'Passw0rd!', '', r.verifier)).toBe(false);
    expect(verifierMatches('LocalDev01', 'alice', 'Passw0rd!', r.salt, '1' + '0'.repeat(768))).toBe(false);
  });
});
