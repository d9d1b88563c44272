/**
 * API key format: `svc_live_` or `svc_test_` + 32 characters drawn uniformly
 * from [A-Za-z0-9] with a CSPRNG. Only the SHA-256 of the whole key and a short
 * display prefix are ever stored.
 */
import { hash, randomBytes } from 'node:crypto';
import type { KeyMode } from '../../domain/access.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const KEY_RANDOM_LENGTH = 32;
export const KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9]{32}$/;
const DISPLAY_RANDOM_CHARS = 4;

/**
 * n characters uniform over the alphabet: bytes ≥ 248 (= 4 × 62) are thrown
 * away so that byte % 62 has no modulo bias.
 */
export function randomAlphanumeric(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === n) break;
    }
  }
  return out;
}

export function generateKey(mode: KeyMode): string {
  return `svc_${mode}_${randomAlphanumeric(KEY_RANDOM_LENGTH)}`;
}

/** The stored form of a secret (an API key, a session or link token): its SHA-256, in hex. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** `svc_live_` or `svc_test_` (both 9 characters) and the first 4 random characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, 9 + DISPLAY_RANDOM_CHARS);
}

/** A public id for a key (not secret), used to revoke and list it. */
export function newKeyId(): string {
  return `key_${randomAlphanumeric(16)}`;
}
