import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { test } from 'node:test';
import { xxhash128 } from 'hash-wasm';
import { XXH3_FROM_BYTES, entityTag, noneMatchFails, weakened } from '../../src/http/entity-tags.ts';

/** What a tag must be, computed apart from the module: SHA-256 below the line, XXH3-128 from it, 128 bits in base64url. */
async function expectedTag(bytes: Buffer): Promise<string> {
  if (bytes.length < XXH3_FROM_BYTES) return `"${hash('sha256', bytes, 'base64url').slice(0, 22)}"`;
  return `"${Buffer.from(await xxhash128(bytes), 'hex').toString('base64url')}"`;
}

test('a tag is the digest of the bytes, the same for a text and its UTF-8 bytes, on either side of the size line', async () => {
  const texts = [
    'a'.repeat(XXH3_FROM_BYTES - 1),
    'a'.repeat(XXH3_FROM_BYTES),
    // 400 characters, 1 200 bytes: fewer characters than the line, more bytes.
    '東'.repeat(400),
    // Lone surrogates: both sides encode each as U+FFFD (3 bytes), as Buffer.from does.
    '\uD800'.repeat(500),
    `${'a'.repeat(1020)}\uDC00`,
    `{"data":[${'{"id":"accents:S1","display":"São Tomé, Müller and 東京"},'.repeat(400)}null]}`,
  ];
  for (const text of texts) {
    const bytes = Buffer.from(text);
    const tag = entityTag(bytes);
    assert.match(tag, /^"[A-Za-z0-9_-]{22}"$/);
    assert.equal(entityTag(text), tag, `${bytes.length} bytes`);
    assert.equal(tag, await expectedTag(bytes), `${bytes.length} bytes`);
  }
});

test('one byte changed anywhere in a large body changes its tag', () => {
  const body = Buffer.from(`{"data":[${'{"id":"dx:A01.2","display":"Typhoid fever"},'.repeat(500)}null]}`);
  const tag = entityTag(body);
  for (const at of [0, 1, Math.floor(body.length / 2), body.length - 2, body.length - 1]) {
    const changed = Buffer.from(body);
    changed[at] = changed[at]! ^ 1;
    assert.notEqual(entityTag(changed), tag, `byte ${at}`);
  }
  assert.notEqual(entityTag(body.subarray(0, body.length - 1)), tag);
});

test('a weakened tag still matches under weak comparison', () => {
  const tag = entityTag(Buffer.alloc(4096, 'x'));
  assert.equal(noneMatchFails(weakened(tag), tag), true);
  assert.equal(noneMatchFails(`"other", ${tag}`, weakened(tag)), true);
  assert.equal(noneMatchFails('"other"', tag), false);
});
