/**
 * The authorization server's signing key (ID tokens; JWKS at /oauth/jwks) and cookie keys. The
 * first instance to start writes them to the store in one atomic claim; every other instance
 * reads that copy, so a session cookie or an ID token from one instance is good at all of them.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Store } from '../../store/store.js';

export interface ProviderKeys {
  readonly jwks: { keys: JWK[] };
  readonly cookieKeys: string[];
}

/** Kept for as long as a store keeps anything: the keys outlive every session and token they sign. */
const KEYS_TTL_MS = 10 * 365 * 24 * 3600_000;

function freshKeys(): ProviderKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' } as JWK;
  return { jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] };
}

export async function sharedKeys(store: Store, key: string): Promise<ProviderKeys> {
  const mine = freshKeys();
  if (await store.reserve(key, JSON.stringify(mine), KEYS_TTL_MS)) return mine;
  const theirs = await store.get(key);
  if (!theirs) throw new Error(`OAuth keys at ${key} vanished between claim and read`);
  return JSON.parse(theirs) as ProviderKeys;
}
