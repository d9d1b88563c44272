/**
 * Key-shaped texts are found however a key was percent-encoded, and the quick
 * test that lets every other text through at once never lets one past: the
 * finder answers as the plain one (decode everything, then match) does, on
 * texts made of keys with any of their characters encoded, between pieces
 * that come close to a key's start.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { holdsKeyShape, keyShapedTexts, percentDecoded } from '../../src/domain/key-shape.ts';

const SHAPE = /svc_(?:live|test)_[A-Za-z0-9]{32}/g;

/** The finder without its quick test: what it must keep answering. */
function plainFinder(text: string): string[] {
  const found = new Set<string>();
  for (const candidate of [text, percentDecoded(text)]) for (const m of candidate.matchAll(SHAPE)) found.add(m[0]);
  return [...found];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const key = fc
  .tuple(fc.constantFrom('live', 'test'), fc.array(fc.constantFrom(...ALNUM), { minLength: 32, maxLength: 32 }))
  .map(([mode, chars]) => `svc_${mode}_${chars.join('')}`);

/** Each character of text as itself, or as %XX in upper or lower case. */
const encodedAnyhow = (text: string) =>
  fc.array(fc.constantFrom('plain', 'upper', 'lower'), { minLength: text.length, maxLength: text.length }).map((ways) =>
    [...text]
      .map((c, i) => {
        const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
        return ways[i] === 'plain' ? c : `%${ways[i] === 'upper' ? hex.toUpperCase() : hex}`;
      })
      .join(''),
  );

/** Pieces near a key's start, so that the quick test is tried on what almost passes it. */
const nearMiss = fc.constantFrom(
  'svc',
  'svc-',
  's%76c',
  '%73vc%5',
  'sv%63_',
  '%73%76%63',
  'svc_live',
  'svc_test_',
  '%5F',
  '%5f',
  '+',
  '%',
  '%ZZ',
  '/',
  ':',
  'A',
);

test('a key is found however its characters were encoded, as the plain finder finds it', () => {
  fc.assert(
    fc.property(
      key.chain((k) => fc.tuple(fc.constant(k), encodedAnyhow(k))),
      fc.array(nearMiss, { maxLength: 4 }),
      fc.array(nearMiss, { maxLength: 4 }),
      ([k, encoded], before, after) => {
        const text = `${before.join('')}${encoded}${after.join('')}`;
        const found = keyShapedTexts(text);
        assert.ok(found.includes(k), `${text} holds ${k}`);
        assert.deepEqual(found, plainFinder(text));
        assert.equal(holdsKeyShape(text), true);
      },
    ),
    { numRuns: 500 },
  );
});

test('texts that come close to a key but hold none: nothing found, as the plain finder finds nothing', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(nearMiss, fc.string({ maxLength: 6 })), { maxLength: 12 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(keyShapedTexts(text), plainFinder(text), text);
    }),
    { numRuns: 500 },
  );
  for (const text of ['/v1/codes/dx%3AA01.1', '/v1/codes?limit=50&cursor=WzEsImNvZGVzIiwiIiwiaXNvNDIxNzpBRk4iXQ.xTMGmk0fH3Wv-Vyu0nDTuQ', 'svc_live_short']) {
    assert.deepEqual(keyShapedTexts(text), [], text);
  }
});
