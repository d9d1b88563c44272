/**
 * Every error the read side produces, through HTTP, in the one body shape
 * {"error": {"code", "message", "param"?, "request_id"}} with request_id equal
 * to the Request-Id header.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows(
    ['A', 'B', 'C', 'D'].map((code) => ({ code, display: `Code ${code}` })),
    { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' },
  );
  await ctx.importRows(
    [
      { code: 'A', display: 'Code A, again' },
      { code: 'B', display: 'Code B, again' },
    ],
    { system: 'demo', release: 'r2', effectiveDate: '2024-02-01' },
  );
});
after(() => ctx.close());

/** Asserts the one error shape, and returns the error object. */
function assertError(res: LightMyRequestResponse, status: number, code: string, param?: string) {
  assert.equal(res.statusCode, status, `${code}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  const keys = param === undefined ? ['code', 'message', 'request_id'] : ['code', 'message', 'param', 'request_id'];
  assert.deepEqual(Object.keys(body.error).sort(), keys);
  assert.equal(body.error.code, code);
  if (param !== undefined) assert.equal(body.error.param, param);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0);
  assert.match(body.error.request_id, /^req_[0-9a-f]{32}$/);
  assert.equal(body.error.request_id, res.headers['request-id']);
  return body.error as { code: string; message: string; param?: string; request_id: string };
}

const ENDPOINTS = ['/v1/codes', '/v1/codes/demo%3AA', '/v1/changes', '/v1/codes/demo%3AA/changes'];
const COLLECTIONS = ENDPOINTS.filter((path) => path.endsWith('codes') || path.endsWith('changes'));

/** The next_cursor of the first page (limit 1) of a collection. */
async function cursorOf(url: string): Promise<string> {
  const res = await ctx.get(`${url}${url.includes('?') ? '&' : '?'}limit=1`);
  assert.equal(res.statusCode, 200, res.body);
  const cursor = res.json().pagination.next_cursor;
  assert.equal(typeof cursor, 'string');
  return cursor;
}

const withCursor = (url: string, cursor: string) => `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

/** Replaces the character at i by another base64url character. */
const flip = (text: string, i: number) => text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);

test('unknown_parameter: offset, page and a typo, on every endpoint', async () => {
  for (const path of ENDPOINTS) {
    for (const name of ['offset', 'page', 'limt', 'Limit', 'cursor_']) {
      assertError(await ctx.get(`${path}?${name}=2`), 400, 'unknown_parameter', name);
    }
  }
  // With a valid parameter beside it, the unknown one is still named.
  assertError(await ctx.get('/v1/codes?limit=5&offset=10'), 400, 'unknown_parameter', 'offset');
});

test('invalid_parameter names the parameter', async () => {
  const cases: [string, string][] = [
    ['/v1/codes?limit=0', 'limit'],
    ['/v1/codes?limit=-1', 'limit'],
    ['/v1/codes?limit=abc', 'limit'],
    ['/v1/codes?limit=1.5', 'limit'],
    ['/v1/codes?system=Not%20a%20system', 'system'],
    ['/v1/codes?status=gone', 'status'],
    ['/v1/changes?type=deleted', 'type'],
    ['/v1/changes?effective_from=2024-02-30', 'effective_from'],
    ['/v1/changes?effective_to=2024-13-01', 'effective_to'],
    ['/v1/codes/demo%3AA/changes?limit=0', 'limit'],
  ];
  for (const [url, param] of cases) assertError(await ctx.get(url), 400, 'invalid_parameter', param);
});

describe('invalid_cursor', () => {
  test('tampered, truncated, forged or random cursors are refused', async () => {
    for (const url of COLLECTIONS) {
      const cursor = await cursorOf(url);
      assert.equal((await ctx.get(withCursor(url, cursor))).statusCode, 200, 'the genuine cursor works');
      const bad = [
        flip(cursor, 2), // payload
        flip(cursor, cursor.length - 8), // signature
        cursor.slice(0, -1),
        cursor.slice(0, Math.floor(cursor.length / 2)),
        `${cursor}A`,
        cursor.toUpperCase(),
        `${Buffer.from(JSON.stringify([1, 'codes', '', 'demo:C'])).toString('base64url')}.${'A'.repeat(22)}`,
        'hello',
        'abc.def',
        '....',
        '%%%',
        '',
        'x'.repeat(5000),
      ];
      for (const text of bad) {
        assertError(await ctx.get(withCursor(url, text)), 400, 'invalid_cursor', 'cursor');
      }
    }
  });

  test('a cursor only works on the collection that issued it', async () => {
    const codes = await cursorOf('/v1/codes');
    const changes = await cursorOf('/v1/changes');
    assertError(await ctx.get(withCursor('/v1/changes', codes)), 400, 'invalid_cursor', 'cursor');
    assertError(await ctx.get(withCursor('/v1/codes', changes)), 400, 'invalid_cursor', 'cursor');
    assertError(await ctx.get(withCursor('/v1/codes/demo%3AA/changes', changes)), 400, 'invalid_cursor', 'cursor');
    // The same code's changes, through the other endpoint.
    const ofA = await cursorOf('/v1/codes/demo%3AA/changes');
    assertError(await ctx.get(withCursor('/v1/changes?code_id=demo:A', ofA)), 400, 'invalid_cursor', 'cursor');
    assertError(await ctx.get(withCursor('/v1/codes/demo%3AA/changes', await cursorOf('/v1/changes?code_id=demo:A'))), 400, 'invalid_cursor', 'cursor');
  });

  test('a cursor only works with the filters it was issued with', async () => {
    const cases: [string, string[]][] = [
      ['/v1/codes?system=demo', ['/v1/codes', '/v1/codes?system=other', '/v1/codes?system=demo&status=active']],
      ['/v1/codes?status=active', ['/v1/codes', '/v1/codes?status=retired']],
      ['/v1/changes?type=added', ['/v1/changes', '/v1/changes?type=revised', '/v1/changes?type=added&system=demo']],
      ['/v1/changes?effective_from=2024-01-01', ['/v1/changes?effective_from=2023-01-01', '/v1/changes?effective_to=2024-01-01']],
      ['/v1/changes?code_id=demo:A', ['/v1/changes?code_id=demo:B', '/v1/changes']],
      ['/v1/codes/demo%3AA/changes', ['/v1/codes/demo%3AB/changes', '/v1/codes/demo%3AA/changes?type=added']],
    ];
    for (const [issuedBy, others] of cases) {
      const cursor = await cursorOf(issuedBy);
      // The limit may change between pages; the filters may not.
      assert.equal((await ctx.get(withCursor(`${issuedBy}${issuedBy.includes('?') ? '&' : '?'}limit=3`, cursor))).statusCode, 200);
      for (const other of others) assertError(await ctx.get(withCursor(other, cursor)), 400, 'invalid_cursor', 'cursor');
    }
  });
});

test('code_not_found, for the code and for its changes', async () => {
  for (const url of ['/v1/codes/demo%3AZZZ', '/v1/codes/demo%3AZZZ/changes', '/v1/codes/demo%3Aa', '/v1/codes/nosuch%3AA/changes']) {
    assertError(await ctx.get(url), 404, 'code_not_found', 'code_id');
  }
});

test('route_not_found, under /v1 and outside it', async () => {
  for (const url of ['/v1/nope', '/v1', '/v1/', '/v1/code', '/v1/changes/1', '/v2/codes', '/nope', '/V1/codes']) {
    assertError(await ctx.get(url), 404, 'route_not_found');
  }
  // Under /v1/codes/, the code id is what is at fault (a raw "/" in it, most often).
  assertError(await ctx.get('/v1/codes/demo%3AA/nope'), 404, 'route_not_found', 'code_id');
  assertError(await ctx.request({ method: 'POST', url: '/v1/nope' }), 404, 'route_not_found');
});

test('method_not_allowed, with Allow: GET, HEAD', async () => {
  for (const url of ENDPOINTS) {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'] as const) {
      const res = await ctx.request({ method, url, payload: method === 'DELETE' || method === 'TRACE' ? undefined : {} });
      assertError(res, 405, 'method_not_allowed');
      assert.equal(res.headers.allow, 'GET, HEAD', `${method} ${url}`);
    }
  }
});

describe('api_key_in_query', () => {
  const KEY = 'svc_live_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE';
  const percentEncodeAll = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

  test('a key-shaped value in the query is refused, and never echoed', async () => {
    assert.equal(KEY.length, 'svc_live_'.length + 32);
    const queries = [
      `x=${KEY}`,
      `cursor=${KEY}`,
      `limit=${KEY}`,
      `api_key=${KEY}`,
      `x=${KEY.replace('svc_live_', 'svc_test_')}`,
      `x=${KEY.replaceAll('_', '%5F')}`,
      `x=${encodeURIComponent(KEY)}`,
      `x=${percentEncodeAll(KEY)}`,
      `${KEY}=1`,
    ];
    for (const url of ENDPOINTS) {
      for (const query of queries) {
        const res = await ctx.get(`${url}?${query}`);
        assertError(res, 400, 'api_key_in_query');
        assert.ok(!res.body.includes(KEY.slice(9)), 'the key is echoed');
      }
    }
  });

  test('comes before authentication: a bad Authorization header does not hide it', async () => {
    assertError(await ctx.get(`/v1/codes?x=${KEY}`, { authorization: 'Bearer nonsense' }), 400, 'api_key_in_query');
  });

  test('something shorter than a key is just an unknown parameter', async () => {
    assertError(await ctx.get(`/v1/codes?x=${KEY.slice(0, -1)}`), 400, 'unknown_parameter', 'x');
  });

  test('is not fooled by a malformed escape elsewhere in the query', async () => {
    assertError(await ctx.get(`/v1/codes?limit=%ZZ&cursor=${percentEncodeAll(KEY)}`), 400, 'api_key_in_query');
  });
});

test('internal_error: a failing handler answers 500 without internals', async () => {
  const failing = await createTestContext();
  try {
    await failing.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
    // The database stays up; only the queries behind the handlers fail.
    const db = (failing.store as unknown as { db: { exec(sql: string): void } }).db;
    db.exec('ALTER TABLE codes RENAME TO codes_moved_away');
    db.exec('ALTER TABLE changes RENAME TO changes_moved_away');
    for (const url of ENDPOINTS) {
      const res = await failing.get(url);
      const error = assertError(res, 500, 'internal_error');
      for (const leak of ['moved_away', 'no such table', 'SQLITE', 'Error:', '    at ', '.ts', 'node:', 'stack']) {
        assert.ok(!res.body.includes(leak), `${url}: the body shows "${leak}": ${error.message}`);
      }
    }
    db.exec('ALTER TABLE codes_moved_away RENAME TO codes');
    db.exec('ALTER TABLE changes_moved_away RENAME TO changes');
    assert.equal((await failing.get('/v1/codes')).statusCode, 200);
  } finally {
    await failing.close();
  }
});
