/**
 * The request log's packed batches: every request reads back exactly as it
 * was recorded (any text in its path and Request-Id, with or without an error
 * code), through slices, joins, growth past the first buffers, and the trip to
 * another thread and back.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { RequestBatch } from '../../src/domain/request-batch.ts';
import type { RequestLogEntry } from '../../src/domain/key-life-records.ts';

const entryArb: fc.Arbitrary<RequestLogEntry> = fc.record({
  orgId: fc.constantFrom('org_1', 'org_2', 'org_ü'),
  keyId: fc.constantFrom('key_1', 'key_2', 'key_3'),
  keyPrefix: fc.constantFrom('svc_live_abcd', 'svc_test_wxyz'),
  at: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'PROPFIND'),
  // Any text, long ones included: astral characters, lone surrogates aside (a URL never holds one).
  path: fc.string({ unit: 'grapheme', maxLength: 300 }).map((s) => `/v1/codes/${s}`),
  status: fc.constantFrom(200, 304, 400, 401, 404, 429, 500, 503),
  errorCode: fc.constantFrom(null, 'invalid_parameter', 'code_not_found', 'rate_limit_exceeded'),
  durationMs: fc.integer({ min: 0, max: 10_000_000 }).map((us) => us / 1000),
  requestId: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }),
});

/** What another thread gets: the packed buffers after a structured clone. */
function acrossThreads(batch: RequestBatch): RequestBatch {
  const packed = batch.pack();
  return RequestBatch.unpack(structuredClone(packed, { transfer: [packed.numbers.buffer, packed.text.buffer] }));
}

test('every request reads back as it was recorded, through slices, joins and another thread', () => {
  fc.assert(
    fc.property(fc.array(entryArb, { maxLength: 120 }), fc.nat(), fc.nat(), (generated, a, b) => {
      const entries = generated.map((e) => ({ ...e }));
      // A batch starting small, so that its buffers grow.
      const batch = new RequestBatch(1);
      for (const e of entries) batch.add({ ...e, atMs: Date.parse(e.at) });
      assert.equal(batch.length, entries.length);
      assert.deepEqual(batch.entries(), entries);
      assert.deepEqual(RequestBatch.of(entries).entries(), entries);
      assert.deepEqual(acrossThreads(batch).entries(), entries);

      const start = entries.length === 0 ? 0 : a % entries.length;
      const end = start + (b % (entries.length - start + 1));
      const slice = batch.slice(start, end);
      assert.deepEqual(slice.entries(), entries.slice(start, end));
      assert.deepEqual(acrossThreads(slice).entries(), entries.slice(start, end));
      assert.deepEqual(new Set(slice.orgIds()), new Set(entries.slice(start, end).map((e) => e.orgId)));

      const max = b % (entries.length + 3);
      const joined = batch.slice(end).concat(batch.slice(0, start), max);
      assert.deepEqual(joined.entries(), [...entries.slice(end), ...entries.slice(0, start)].slice(0, max));
    }),
    { numRuns: 200 },
  );
});

test('a request added after a join or a trip across threads (an empty one too) lands after the others', () => {
  const e = (id: string): RequestLogEntry => ({
    orgId: 'org_1',
    keyId: 'key_1',
    keyPrefix: 'svc_live_abcd',
    at: '2026-12-01T12:00:00.000Z',
    method: 'GET',
    path: '/v1/codes/dx:é漢😀',
    status: 200,
    errorCode: null,
    durationMs: 0.25,
    requestId: id,
  });
  const joined = RequestBatch.of([e('a')]).concat(RequestBatch.of([e('b')]));
  joined.add({ ...e('c'), atMs: Date.parse(e('c').at) });
  const received = acrossThreads(joined);
  const fromEmpty = acrossThreads(new RequestBatch());
  fromEmpty.add({ ...e('first'), atMs: Date.parse(e('first').at) });
  assert.deepEqual(
    fromEmpty.entries().map((x) => x.requestId),
    ['first'],
    'a batch received empty takes requests too',
  );
  received.add({ ...e('d'), atMs: Date.parse(e('d').at), errorCode: 'code_not_found', status: 404 });
  assert.deepEqual(
    received.entries().map((x) => [x.requestId, x.status, x.errorCode, x.path]),
    [
      ['a', 200, null, '/v1/codes/dx:é漢😀'],
      ['b', 200, null, '/v1/codes/dx:é漢😀'],
      ['c', 200, null, '/v1/codes/dx:é漢😀'],
      ['d', 404, 'code_not_found', '/v1/codes/dx:é漢😀'],
    ],
  );
});
