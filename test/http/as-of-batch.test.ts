/** as_of on code reads and lists, the batch lookup, and the release filter of changes, over HTTP. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha' },
      { code: 'B', display: 'Beta' },
    ],
    { system: 't', release: '2023-01', effectiveDate: '2023-01-01' },
  );
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha, revised' },
      { code: 'C', display: 'Gamma' },
    ],
    { system: 't', release: '2024-01', effectiveDate: '2024-01-01', mode: 'delta' },
  );
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha, revised' },
      { code: 'C', display: 'Gamma' },
    ],
    { system: 't', release: '2025-01', effectiveDate: '2025-01-01', mode: 'snapshot' },
  );
});
after(() => ctx.close());

function ok(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

function error(res: LightMyRequestResponse, status: number, code: string, param?: string) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json().error;
  assert.deepEqual([body.code, body.param], [code, param]);
  return body;
}

describe('as_of', () => {
  test("a code read on a date has that date's fields, release and status", async () => {
    const at2023 = ok(await ctx.get('/v1/codes/t:A?as_of=2023-06-30'));
    assert.deepEqual([at2023.display, at2023.release, at2023.effective_from], ['Alpha', '2023-01', '2023-01-01']);
    const at2024 = ok(await ctx.get('/v1/codes/t:A?as_of=2024-01-01'));
    assert.deepEqual([at2024.display, at2024.release], ['Alpha, revised', '2024-01'], 'a change effective on the date is applied');
    const b = ok(await ctx.get('/v1/codes/t:B?as_of=2024-12-31'));
    assert.equal(b.status, 'active');
    assert.equal(ok(await ctx.get('/v1/codes/t:B?as_of=2025-01-01')).status, 'retired');
    assert.equal(ok(await ctx.get('/v1/codes/t:B')).status, 'retired', 'without as_of: as the latest import left it');
  });

  test('a code added later is 404, saying it did not exist on that date', async () => {
    const body = error(await ctx.get('/v1/codes/t:C?as_of=2023-12-31'), 404, 'code_not_found', 'code_id');
    assert.match(body.message, /did not exist on 2023-12-31/);
    assert.doesNotMatch(error(await ctx.get('/v1/codes/t:Z?as_of=2023-12-31'), 404, 'code_not_found', 'code_id').message, /did not exist/);
    error(await ctx.get('/v1/codes/t:A?as_of=2022-12-31'), 404, 'code_not_found', 'code_id');
  });

  test('lists leave out codes added later, and a cursor binds its as_of', async () => {
    const list = async (query: string) => ok(await ctx.get(`/v1/codes?${query}`)).data.map((c: { id: string; display: string }) => `${c.id}=${c.display}`);
    assert.deepEqual(await list('as_of=2023-06-01'), ['t:A=Alpha', 't:B=Beta']);
    assert.deepEqual(await list('as_of=2024-06-01'), ['t:A=Alpha, revised', 't:B=Beta', 't:C=Gamma']);
    assert.deepEqual(await list('as_of=2025-06-01&status=active'), ['t:A=Alpha, revised', 't:C=Gamma']);
    assert.deepEqual(await list('as_of=2022-06-01'), []);
    const first = ok(await ctx.get('/v1/codes?as_of=2023-06-01&limit=1'));
    const cursor = encodeURIComponent(first.pagination.next_cursor);
    assert.deepEqual(
      ok(await ctx.get(`/v1/codes?as_of=2023-06-01&limit=1&cursor=${cursor}`)).data.map((c: { id: string }) => c.id),
      ['t:B'],
    );
    error(await ctx.get(`/v1/codes?as_of=2024-06-01&cursor=${cursor}`), 400, 'invalid_cursor', 'cursor');
    error(await ctx.get(`/v1/codes?cursor=${cursor}`), 400, 'invalid_cursor', 'cursor');
  });

  test('a bad date is 400 invalid_parameter naming as_of', async () => {
    for (const bad of ['2023-02-30', '2023-1-1', 'yesterday', '']) {
      error(await ctx.get(`/v1/codes/t:A?as_of=${bad}`), 400, 'invalid_parameter', 'as_of');
      error(await ctx.get(`/v1/codes?as_of=${bad}`), 400, 'invalid_parameter', 'as_of');
    }
  });

  test('without as_of a record is as the latest import left it, a release dated ahead included; as_of of today gives what holds today', async () => {
    await ctx.importRows([{ code: 'X', display: 'Now' }], { system: 'ahead', release: 'r1', effectiveDate: '2024-01-01' });
    await ctx.importRows([{ code: 'X', display: 'Later' }], { system: 'ahead', release: 'r2', effectiveDate: '2099-01-01', mode: 'delta' });
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual([ok(await ctx.get('/v1/codes/ahead:X')).display, ok(await ctx.get(`/v1/codes/ahead:X?as_of=${today}`)).display], ['Later', 'Now']);
  });
});

describe('POST /v1/codes/batch', () => {
  const post = (payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    ctx.request({ method: 'POST', url: '/v1/codes/batch', headers, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  test('answers the records found in request order, each once, and the ids not found', async () => {
    const body = ok(await post({ ids: ['t:C', 't:NOPE', 't:A', 't:C', 'x:Y', 't:NOPE'] }));
    assert.equal(body.object, 'batch');
    assert.deepEqual(
      body.data.map((c: { id: string }) => c.id),
      ['t:C', 't:A'],
    );
    assert.deepEqual(body.not_found, ['t:NOPE', 'x:Y']);
    assert.deepEqual(body.data[1], ok(await ctx.get('/v1/codes/t:A')), 'the same records as single reads');
  });

  test('with as_of, the records of that date; codes added later are not found', async () => {
    const body = ok(await post({ ids: ['t:A', 't:C', 't:B'], as_of: '2023-06-01' }));
    assert.deepEqual(
      body.data.map((c: { id: string; display: string }) => [c.id, c.display]),
      [
        ['t:A', 'Alpha'],
        ['t:B', 'Beta'],
      ],
    );
    assert.deepEqual(body.not_found, ['t:C']);
  });

  test('refuses bad bodies with the code each deserves', async () => {
    error(await post({ ids: ['t:A'] }, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    error(await post('{"ids": [', { 'content-type': 'application/json' }), 400, 'invalid_body');
    error(await post('[1]'), 400, 'invalid_body');
    error(await post({}), 400, 'invalid_parameter', 'ids');
    error(await post({ ids: [] }), 400, 'invalid_parameter', 'ids');
    error(await post({ ids: [1, 2] }), 400, 'invalid_parameter', 'ids');
    error(await post({ ids: 't:A' }), 400, 'invalid_parameter', 'ids');
    error(await post({ ids: Array.from({ length: 201 }, (_, i) => `t:${i}`) }), 400, 'invalid_parameter', 'ids');
    error(await post({ ids: ['t:A'], as_of: '2023-02-30' }), 400, 'invalid_parameter', 'as_of');
    error(await post({ ids: ['t:A'], limit: 5 }), 400, 'unknown_parameter', 'limit');
    error(await post({ ids: ['t:A'], padding: 'x'.repeat(70 * 1024) }), 413, 'payload_too_large');
    assert.equal((await post({ ids: Array.from({ length: 200 }, (_, i) => `t:${i}`) })).statusCode, 200, '200 ids is the maximum, not beyond it');
  });

  test('a bad id is named by its index and its rule: the length rule for an id too long', async () => {
    const RULE = 'ids must be an array of 1 to 200 code ids (strings such as "iso4217:EUR")';
    const message = async (payload: unknown) => error(await post(payload), 400, 'invalid_parameter', 'ids').message as string;
    assert.equal(await message({ ids: ['a'.repeat(1025)] }), `${RULE}; ids[0] is 1025 characters long, and an id has at most 1024.`);
    assert.equal(await message({ ids: ['t:A', 't:B', 'x'.repeat(5000)] }), `${RULE}; ids[2] is 5000 characters long, and an id has at most 1024.`);
    // Characters as the schema's maxLength counts them: code points, not UTF-16 units.
    assert.equal(await message({ ids: ['😀'.repeat(1025)] }), `${RULE}; ids[0] is 1025 characters long, and an id has at most 1024.`);
    assert.deepEqual(ok(await post({ ids: ['a'.repeat(1024), '😀'.repeat(1024)] })).not_found, ['a'.repeat(1024), '😀'.repeat(1024)]);
    assert.equal(await message({ ids: ['t:A', ''] }), `${RULE}; ids[1] is empty.`);
    assert.equal(await message({ ids: [1, 't:A'] }), `${RULE}; ids[0] is a number, not a string.`);
    assert.equal(await message({ ids: ['t:A', null] }), `${RULE}; ids[1] is null, not a string.`);
    assert.equal(await message({ ids: ['t:A', { id: 't:B' }] }), `${RULE}; ids[1] is an object, not a string.`);
  });

  test("a bad as_of is answered as the query string's is, echoing the value", async () => {
    for (const bad of ['2024-02-30', '2024-6-1', 'yesterday', '']) {
      const inQuery = error(await ctx.get(`/v1/codes/t:A?as_of=${bad}`), 400, 'invalid_parameter', 'as_of').message as string;
      const inBody = error(await post({ ids: ['t:A'], as_of: bad }), 400, 'invalid_parameter', 'as_of').message as string;
      assert.equal(inBody, inQuery);
      assert.equal(inBody, `The as_of parameter must be a calendar date written YYYY-MM-DD, such as 2024-06-25; got ${JSON.stringify(bad)}.`);
    }
    const notText = error(await post({ ids: ['t:A'], as_of: 20240225 }), 400, 'invalid_parameter', 'as_of').message as string;
    assert.equal(notText, 'The as_of parameter must be a calendar date written YYYY-MM-DD, such as 2024-06-25; got "20240225".');
  });

  test('other methods are 405 with Allow: POST', async () => {
    const res = await ctx.request({ method: 'GET', url: '/v1/codes/batch' });
    error(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, 'POST');
  });
});

test('GET /v1/changes?release= lists what one release changed, with or without system', async () => {
  const ids = async (query: string) =>
    ok(await ctx.get(`/v1/changes?${query}`)).data.map((c: { code_id: string; type: string; release: string }) => `${c.release} ${c.type} ${c.code_id}`);
  assert.deepEqual(await ids('release=2024-01'), ['2024-01 revised t:A', '2024-01 added t:C']);
  assert.deepEqual(await ids('release=2025-01&system=t'), ['2025-01 retired t:B']);
  assert.deepEqual(await ids('release=2025-01&system=other'), []);
  assert.deepEqual(await ids('release=nope'), []);
  const first = ok(await ctx.get('/v1/changes?release=2024-01&limit=1'));
  error(await ctx.get(`/v1/changes?release=2023-01&cursor=${encodeURIComponent(first.pagination.next_cursor)}`), 400, 'invalid_cursor', 'cursor');
});
