/**
 * The cursor codec signs with HMAC-SHA256 computed from two one-shot hashes
 * (cheaper than an Hmac object per cursor): it must be the very HMAC, so
 * cursors issued before keep working and nothing is weaker, and every
 * tampered, truncated or foreign cursor must still be refused.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createCursorCodec } from '../../src/http/cursor.ts';
import { ApiError } from '../../src/errors.ts';

const SECRET = 'a-cursor-secret-of-more-than-32-characters';

function refused(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, 'invalid_cursor');
    return true;
  }
}

/** The cursor as the codec before this one built it, with createHmac. */
function withCreateHmac(secret: string, payload: unknown[]): string {
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(bytes).digest().subarray(0, 16);
  return `${bytes.toString('base64url')}.${mac.toString('base64url')}`;
}

describe('cursor signatures', () => {
  test('are HMAC-SHA256 byte for byte, for short, block-sized and long secrets and long sort keys', () => {
    for (const secret of ['short', 'k'.repeat(64), 'a longer secret than one SHA-256 block, '.repeat(4), 'clé secrète ünïcode 🔑']) {
      const codec = createCursorCodec(secret);
      for (const id of ['demo:A', `long:${'x'.repeat(600)}`, `longer:${'é'.repeat(400)}`, 'demo:B']) {
        const cursor = codec.encode('codes', 'status=active', [id]);
        assert.equal(cursor, withCreateHmac(secret, [1, 'codes', 'status=active', id]));
        assert.deepEqual(codec.decode(cursor, 'codes', 'status=active'), [id]);
      }
    }
  });

  test('a cursor signed the old way (createHmac) is accepted', () => {
    const codec = createCursorCodec(SECRET);
    assert.deepEqual(codec.decode(withCreateHmac(SECRET, [1, 'changes', '', '2024-01-01', 42]), 'changes', ''), ['2024-01-01', 42]);
  });

  test('round-trips any sort key', () => {
    const codec = createCursorCodec(SECRET);
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer()), { minLength: 1, maxLength: 3 }), (key) => {
        assert.deepEqual(codec.decode(codec.encode('codes', '', key), 'codes', ''), key);
      }),
    );
  });
});

describe('tampered cursors are refused', () => {
  const codec = createCursorCodec(SECRET);
  const genuine = codec.encode('codes', 'system=demo', ['demo:K035.07']);
  const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  test('any one character changed, in the payload or the signature', () => {
    fc.assert(
      fc.property(fc.nat({ max: genuine.length - 1 }), fc.constantFrom(...BASE64URL), (at, char) => {
        const tampered = `${genuine.slice(0, at)}${char}${genuine.slice(at + 1)}`;
        fc.pre(tampered !== genuine && genuine[at] !== '.');
        assert.ok(
          refused(() => codec.decode(tampered, 'codes', 'system=demo')),
          tampered,
        );
      }),
      { numRuns: 500 },
    );
  });

  test('any bit of the payload or the signature flipped', () => {
    const [payloadText, macText] = genuine.split('.') as [string, string];
    for (const [part, text] of [
      ['payload', payloadText],
      ['mac', macText],
    ] as const) {
      const bytes = Buffer.from(text, 'base64url');
      for (let bit = 0; bit < bytes.length * 8; bit++) {
        const flipped = Buffer.from(bytes);
        flipped[bit >> 3]! ^= 1 << (bit & 7);
        const cursor = part === 'payload' ? `${flipped.toString('base64url')}.${macText}` : `${payloadText}.${flipped.toString('base64url')}`;
        assert.ok(
          refused(() => codec.decode(cursor, 'codes', 'system=demo')),
          `${part} bit ${bit}`,
        );
      }
    }
  });

  test('another secret, another collection, other filters, a forged payload, a truncated signature', () => {
    assert.ok(refused(() => createCursorCodec(`${SECRET}!`).decode(genuine, 'codes', 'system=demo')));
    assert.ok(refused(() => codec.decode(genuine, 'changes', 'system=demo')));
    assert.ok(refused(() => codec.decode(genuine, 'codes', 'system=other')));
    const forged = Buffer.from(JSON.stringify([1, 'codes', 'system=demo', 'demo:Z'])).toString('base64url');
    assert.ok(refused(() => codec.decode(`${forged}.${genuine.split('.')[1]}`, 'codes', 'system=demo')));
    assert.ok(refused(() => codec.decode(genuine.slice(0, -2), 'codes', 'system=demo')));
    // After a refusal the codec still verifies genuine cursors (its buffers are reused).
    assert.deepEqual(codec.decode(genuine, 'codes', 'system=demo'), ['demo:K035.07']);
  });
});
