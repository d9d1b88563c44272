/** Request ids keep their form (req_ and 32 hex digits) and never repeat, across the refills of their pool of random bytes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newRequestId } from '../../src/http/request-id.ts';

test('request ids are req_ and 32 hex digits, and 10 000 in a row (many refills of the pool) are all different', () => {
  const ids = Array.from({ length: 10_000 }, () => newRequestId());
  for (const id of ids) assert.match(id, /^req_[0-9a-f]{32}$/);
  assert.equal(new Set(ids).size, ids.length);
  // Each hex digit equally likely: over 320 000 digits, every one of the 16 within a few percent of 20 000.
  const counts = new Map<string, number>();
  for (const id of ids) for (const digit of id.slice(4)) counts.set(digit, (counts.get(digit) ?? 0) + 1);
  assert.equal(counts.size, 16);
  for (const [digit, n] of counts) assert.ok(Math.abs(n - 20_000) < 1_200, `digit ${digit}: ${n}`);
});
