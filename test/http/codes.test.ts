/** GET /v1/codes and GET /v1/codes/{code_id}, black-box over HTTP. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../helpers/context.ts';

interface Code {
  object: string;
  id: string;
  system: string;
  code: string;
  display: string;
  status: string;
}
interface Page {
  data: Code[];
  pagination: { has_more: boolean; next_cursor?: string };
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const path = (id: string) => `/v1/codes/${encodeURIComponent(id)}`;

/** Codes whose ids need percent-encoding, or whose byte order differs from JS string order. */
const AWKWARD = ['a/b', 'x.y-z', 'c:d', 'with space', 'é', '日本', '😀', '｡', 'a+b', 'a%b', 'a?b', 'a#b', 'x/changes', '..'];
const DEMO: Record<string, string>[] = [
  { code: 'A', display: 'Alpha' },
  { code: 'B', display: 'Beta', status: 'deprecated' },
  { code: 'C', display: 'Gamma', status: 'retired' },
  ...AWKWARD.map((code) => ({ code, display: `Awkward ${code}` })),
];
const BULK = Array.from({ length: 250 }, (_, i) => ({ code: `N${String(i).padStart(3, '0')}`, display: `Number ${i}` }));

const demoIds = DEMO.map((r) => `demo:${r.code}`).sort(byteOrder);
const bulkIds = BULK.map((r) => `bulk:${r.code}`).sort(byteOrder);
const allIds = [...demoIds, ...bulkIds].sort(byteOrder);

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows(DEMO, { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
  await ctx.importRows(BULK, { system: 'bulk', release: 'b1', effectiveDate: '2024-01-01' });
});
after(() => ctx.close());

function page(res: LightMyRequestResponse): Page {
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json<Page>();
  assert.deepEqual(Object.keys(body).sort(), ['data', 'pagination'], 'envelope keys');
  const expected = body.pagination.has_more ? ['has_more', 'next_cursor'] : ['has_more'];
  assert.deepEqual(Object.keys(body.pagination).sort(), expected, 'pagination keys');
  if (body.pagination.has_more) assert.equal(typeof body.pagination.next_cursor, 'string');
  return body;
}

/** Follows next_cursor to the end; returns every id in the order served. */
async function walk(query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor !== undefined) params.set('cursor', cursor);
    const body = page(await ctx.get(`/v1/codes?${params.toString()}`));
    assert.ok(body.data.length <= limit);
    ids.push(...body.data.map((c) => c.id));
    if (!body.pagination.has_more) return ids;
    cursor = body.pagination.next_cursor;
  }
  assert.fail('paging did not end');
}

function assertError(res: LightMyRequestResponse, status: number, code: string, param?: string): void {
  assert.equal(res.statusCode, status, res.body);
  const { error } = res.json();
  assert.equal(error.code, code);
  assert.equal(error.param, param);
  assert.equal(error.request_id, res.headers['request-id']);
}

describe('GET /v1/codes', () => {
  test('a first page holds 50 codes by default and says there is more', async () => {
    const body = page(await ctx.get('/v1/codes'));
    assert.equal(body.data.length, 50);
    assert.deepEqual(
      body.data.map((c) => c.id),
      allIds.slice(0, 50),
    );
    assert.equal(body.pagination.has_more, true);
  });

  test('a limit above 200 is clamped to 200, not refused', async () => {
    for (const limit of [201, 1000, 1_000_000]) {
      const body = page(await ctx.get(`/v1/codes?limit=${limit}`));
      assert.equal(body.data.length, 200, `limit=${limit}`);
      assert.equal(body.pagination.has_more, true);
    }
    assert.equal(page(await ctx.get('/v1/codes?limit=200')).data.length, 200);
    assert.equal(page(await ctx.get('/v1/codes?limit=1')).data.length, 1);
  });

  test('a limit that is not a positive integer is a 400 naming limit', async () => {
    // Decimal digits only: no exponent, hex, sign, spaces or fraction, even when it would be whole.
    for (const limit of ['0', '-1', 'abc', '1.5', '', '5,6', '1e2', '0x10', ' 5', '5 ', '+5', '2.0', 'Infinity']) {
      assertError(await ctx.get(`/v1/codes?limit=${encodeURIComponent(limit)}`), 400, 'invalid_parameter', 'limit');
    }
  });

  test('paging visits every code once, in UTF-8 byte order of id, whatever the limit', async () => {
    // 'demo:｡' (U+FF61) sorts before 'demo:😀' in bytes but after it in JS string order.
    assert.ok(demoIds.indexOf('demo:｡') < demoIds.indexOf('demo:😀'));
    for (const limit of [1, 7, 50, 200]) assert.deepEqual(await walk('', limit), allIds, `limit=${limit}`);
  });

  test('the last page has has_more false and no next_cursor', async () => {
    const body = page(await ctx.get('/v1/codes?system=demo&limit=200'));
    assert.deepEqual(body.pagination, { has_more: false });
    assert.deepEqual(
      body.data.map((c) => c.id),
      demoIds,
    );
  });

  test('system keeps the codes of one system, across pages', async () => {
    assert.deepEqual(await walk('system=demo', 4), demoIds);
    assert.deepEqual(await walk('system=bulk', 60), bulkIds);
    assert.deepEqual(page(await ctx.get('/v1/codes?system=nosuch')), { data: [], pagination: { has_more: false } });
  });

  test('status keeps the codes with that status, alone or with system', async () => {
    const statusOf = (code: string) => DEMO.find((r) => `demo:${r.code}` === code)?.status ?? 'active';
    assert.deepEqual(await walk('status=deprecated', 1), ['demo:B']);
    assert.deepEqual(await walk('status=retired', 1), ['demo:C']);
    assert.deepEqual(
      await walk('status=active', 37),
      allIds.filter((id) => !id.startsWith('demo:') || statusOf(id) === 'active'),
    );
    assert.deepEqual(
      await walk('system=demo&status=active', 3),
      demoIds.filter((id) => statusOf(id) === 'active'),
    );
    assert.deepEqual(await walk('system=bulk&status=retired', 3), []);
    for (const record of page(await ctx.get('/v1/codes?status=active&limit=200')).data) assert.equal(record.status, 'active');
  });

  test('an invalid system or status is a 400 naming it', async () => {
    for (const system of ['BAD', '-x', '', 'a b', 'x'.repeat(65)]) {
      assertError(await ctx.get(`/v1/codes?system=${encodeURIComponent(system)}`), 400, 'invalid_parameter', 'system');
    }
    for (const status of ['foo', 'Active', '']) {
      assertError(await ctx.get(`/v1/codes?status=${status}`), 400, 'invalid_parameter', 'status');
    }
  });
});

describe('GET /v1/codes/{code_id}', () => {
  test('returns the code record, the same as in the list', async () => {
    const res = await ctx.get(path('demo:A'));
    assert.equal(res.statusCode, 200);
    const code = res.json();
    assert.deepEqual(Object.keys(code).sort(), [
      'attributes',
      'code',
      'definition',
      'display',
      'effective_from',
      'id',
      'object',
      'parents',
      'release',
      'status',
      'system',
      'updated_at',
    ]);
    assert.deepEqual(
      {
        object: code.object,
        id: code.id,
        system: code.system,
        code: code.code,
        display: code.display,
        status: code.status,
        release: code.release,
        effective_from: code.effective_from,
      },
      { object: 'code', id: 'demo:A', system: 'demo', code: 'A', display: 'Alpha', status: 'active', release: 'r1', effective_from: '2024-01-01' },
    );
    const listed = page(await ctx.get('/v1/codes?system=demo&limit=200')).data.find((c) => c.id === 'demo:A');
    assert.deepEqual(code, listed);
  });

  test('ids with / . - : spaces and non-ASCII characters work percent-encoded', async () => {
    for (const code of AWKWARD) {
      const res = await ctx.get(path(`demo:${code}`));
      assert.equal(res.statusCode, 200, `${code}: ${res.body}`);
      assert.equal(res.json().id, `demo:${code}`);
      assert.equal(res.json().code, code);
    }
  });

  test('a code ending in /changes is the code, not the changes of another', async () => {
    const res = await ctx.get(path('demo:x/changes'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().object, 'code');
  });

  test('an unknown id is a 404 code_not_found', async () => {
    // Ids are exact: no case folding, no decoding twice, no path normalisation.
    for (const id of ['demo:ZZZ', 'demo:a', 'DEMO:A', 'nosuch:A', 'demo:a%2Fb', 'demo:A ', 'demo']) {
      assertError(await ctx.get(path(id)), 404, 'code_not_found', 'code_id');
    }
  });

  test('an unencoded / in the id does not reach the code', async () => {
    // It routes nowhere; the answer names code_id and says to send the / as %2F.
    assertError(await ctx.get('/v1/codes/demo:a/b'), 404, 'route_not_found', 'code_id');
  });

  // Routed as a bad parameter (src/http/unroutable-path.ts); Fastify alone would answer with its own body.
  test('malformed percent-encoding in the id is a 400 JSON error', async () => {
    for (const raw of ['%ZZ', '%E0%A4%A', '%C3', '%FF', 'demo%3A%', 'demo%3A%E0%A4%A/changes']) {
      const res = await ctx.get(`/v1/codes/${raw}`);
      assertError(res, 400, 'invalid_parameter', 'code_id');
      assert.match(String(res.headers['content-type']), /^application\/json/);
    }
  });
});
