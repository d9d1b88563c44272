/**
 * Opaque, signed, versioned paging cursors.
 *
 * Wire form: base64url(payload) "." base64url(HMAC-SHA256(secret, payload)[0..16]).
 * payload = JSON [version, collection, filters, ...sortKey]. The filters are the
 * canonical text of the query's filters, so a cursor from another collection or
 * other filters fails verification of the binding, not just of the signature.
 * The format is not part of the contract: a new version may replace this one,
 * and decode() keeps accepting the previous version for one release.
 */
import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.ts';

export const CURSOR_VERSION = 1;
const MAC_BYTES = 16;
const MAX_CURSOR_LENGTH = 2048;

export type SortKey = readonly (string | number)[];

export interface CursorCodec {
  encode(collection: string, filters: string, key: SortKey): string;
  /** Returns the sort key, or throws invalid_cursor. */
  decode(cursor: string, collection: string, filters: string): SortKey;
  /** The invalid_cursor error, for a key that verified but does not fit the collection. */
  invalid(reason: string): ApiError;
}

function invalid(reason: string): ApiError {
  return new ApiError(
    'invalid_cursor',
    `The cursor is not valid for this request: ${reason}. Send the next_cursor of the previous page unchanged, with the same filters.`,
    { param: 'cursor' },
  );
}

const SHA256_BLOCK = 64;

/**
 * HMAC-SHA256 (RFC 2104), byte for byte what createHmac('sha256', secret)
 * gives: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)). The padded key blocks are made
 * once, and each MAC is two one-shot crypto.hash() calls into buffers kept for
 * the codec's life: no Hmac object per cursor (a new one, even keyed with a
 * KeyObject, costs about three times as much; bench/cursor.ts measures it).
 * The digests come back as hex: crypto.hash() takes a slow path when asked
 * for a Buffer.
 */
function hmacSha256(secret: Buffer): (message: Buffer) => Buffer {
  const key = Buffer.alloc(SHA256_BLOCK);
  (secret.length > SHA256_BLOCK ? createHash('sha256').update(secret).digest() : secret).copy(key);
  let inner = Buffer.alloc(SHA256_BLOCK + 512);
  const outer = Buffer.alloc(SHA256_BLOCK + 32);
  for (let i = 0; i < SHA256_BLOCK; i++) {
    inner[i] = key[i]! ^ 0x36;
    outer[i] = key[i]! ^ 0x5c;
  }
  return (message) => {
    if (SHA256_BLOCK + message.length > inner.length) {
      const grown = Buffer.alloc(SHA256_BLOCK + message.length);
      inner.copy(grown, 0, 0, SHA256_BLOCK);
      inner = grown;
    }
    message.copy(inner, SHA256_BLOCK);
    outer.write(hash('sha256', inner.subarray(0, SHA256_BLOCK + message.length), 'hex'), SHA256_BLOCK, 'hex');
    return Buffer.from(hash('sha256', outer, 'hex'), 'hex');
  };
}

export function createCursorCodec(secret: string): CursorCodec {
  const hmac = hmacSha256(Buffer.from(secret, 'utf8'));
  const mac = (payload: Buffer) => hmac(payload).subarray(0, MAC_BYTES);

  return {
    invalid,
    encode(collection, filters, sortKey) {
      const payload = Buffer.from(JSON.stringify([CURSOR_VERSION, collection, filters, ...sortKey]), 'utf8');
      return `${payload.toString('base64url')}.${mac(payload).toString('base64url')}`;
    },

    decode(cursor, collection, filters) {
      if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) throw invalid('wrong length');
      const dot = cursor.indexOf('.');
      if (dot <= 0 || dot !== cursor.lastIndexOf('.')) throw invalid('malformed');
      const payloadText = cursor.slice(0, dot);
      const macText = cursor.slice(dot + 1);
      if (!/^[A-Za-z0-9_-]+$/.test(payloadText) || !/^[A-Za-z0-9_-]+$/.test(macText)) throw invalid('malformed');
      const payload = Buffer.from(payloadText, 'base64url');
      const given = Buffer.from(macText, 'base64url');
      // Re-encoding must give back the same text: rejects non-canonical base64 variants.
      if (payload.toString('base64url') !== payloadText || given.toString('base64url') !== macText) throw invalid('malformed');
      if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(payload))) throw invalid('signature mismatch');
      let parts: unknown;
      try {
        parts = JSON.parse(payload.toString('utf8'));
      } catch {
        throw invalid('malformed');
      }
      if (!Array.isArray(parts) || parts.length < 4) throw invalid('malformed');
      const [version, boundCollection, boundFilters, ...sortKey] = parts as unknown[];
      if (version !== CURSOR_VERSION) throw invalid('format no longer supported');
      if (boundCollection !== collection) throw invalid('it belongs to another collection');
      if (boundFilters !== filters) throw invalid('it was issued for other filters');
      if (!sortKey.every((part) => typeof part === 'string' || typeof part === 'number')) throw invalid('malformed');
      return sortKey;
    },
  };
}
