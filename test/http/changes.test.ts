/** GET /v1/changes and GET /v1/codes/{code_id}/changes, black-box over HTTP. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../helpers/context.ts';

interface Change {
  object: string;
  id: number;
  code_id: string;
  type: string;
  effective_date: string;
  release: string;
  fields: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  recorded_at: string;
}
interface Page {
  data: Change[];
  pagination: { has_more: boolean; next_cursor?: string };
}
type Row = [id: number, codeId: string, type: string, date: string];

let ctx: TestContext;
/** Every change, in (effective_date, id) order, as [id, code_id, type, effective_date]. */
let history: Row[];

before(async () => {
  ctx = await createTestContext();
  const imports: [string, string, Record<string, string>[]][] = [
    [
      'demo',
      '2024-01-01',
      [
        { code: 'A', display: 'Alpha' },
        { code: 'B', display: 'Beta' },
        { code: 'a/b', display: 'Slash' },
        { code: 'C', display: 'Gamma' },
      ],
    ],
    [
      'demo',
      '2024-02-01',
      [
        { code: 'A', display: 'Alpha 2' },
        { code: 'B', display: 'Beta', status: 'retired' },
      ],
    ],
    [
      'other',
      '2024-02-01',
      [
        { code: 'B', display: 'Other B' },
        { code: 'D', display: 'Other D' },
      ],
    ],
    [
      'demo',
      '2024-03-01',
      [
        { code: 'B', display: 'Beta' },
        { code: 'C', display: 'Gamma', status: 'deprecated' },
        { code: 'E', display: 'Epsilon' },
      ],
    ],
  ];
  for (const [i, [system, effectiveDate, rows]] of imports.entries()) {
    await ctx.importRows(rows, { system, release: `r${i + 1}`, effectiveDate });
  }
  // Within one import, changes take ids in byte order of code.
  history = [
    [1, 'demo:A', 'added', '2024-01-01'],
    [2, 'demo:B', 'added', '2024-01-01'],
    [3, 'demo:C', 'added', '2024-01-01'],
    [4, 'demo:a/b', 'added', '2024-01-01'],
    [5, 'demo:A', 'revised', '2024-02-01'],
    [6, 'demo:B', 'retired', '2024-02-01'],
    [7, 'other:B', 'added', '2024-02-01'],
    [8, 'other:D', 'added', '2024-02-01'],
    [9, 'demo:B', 'reactivated', '2024-03-01'],
    [10, 'demo:C', 'revised', '2024-03-01'],
    [11, 'demo:E', 'added', '2024-03-01'],
  ];
  // 250 more additions, later, for the default and maximum page sizes.
  const bulk = Array.from({ length: 250 }, (_, i) => ({ code: `N${String(i).padStart(3, '0')}`, display: `Number ${i}` }));
  await ctx.importRows(bulk, { system: 'bulk', release: 'b1', effectiveDate: '2024-04-01' });
});
after(() => ctx.close());

function page(res: LightMyRequestResponse): Page {
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<Page>();
  assert.deepEqual(Object.keys(body).sort(), ['data', 'pagination'], 'envelope keys');
  assert.deepEqual(Object.keys(body.pagination).sort(), body.pagination.has_more ? ['has_more', 'next_cursor'] : ['has_more'], 'pagination keys');
  return body;
}

const rowOf = (c: Change): Row => [c.id, c.code_id, c.type, c.effective_date];

/** Follows next_cursor to the end of a collection, with the given filters. */
async function walk(path: string, query: string, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor !== undefined) params.set('cursor', cursor);
    const body = page(await ctx.get(`${path}?${params.toString()}`));
    assert.ok(body.data.length <= limit);
    rows.push(...body.data.map(rowOf));
    if (!body.pagination.has_more) return rows;
    cursor = body.pagination.next_cursor;
  }
  assert.fail('paging did not end');
}

/** The demo history (no bulk rows), walked one change per page and in one page. */
async function demoWalk(path: string, query: string): Promise<Row[]> {
  const one = (await walk(path, query, 1)).filter((r) => !r[1].startsWith('bulk:'));
  const all = (await walk(path, query, 200)).filter((r) => !r[1].startsWith('bulk:'));
  assert.deepEqual(one, all, `limit 1 and limit 200 disagree for ${path}?${query}`);
  return all;
}

function assertInvalid(res: LightMyRequestResponse, param: string): void {
  assert.equal(res.statusCode, 400, res.body);
  const { error } = res.json();
  assert.equal(error.code, 'invalid_parameter');
  assert.equal(error.param, param);
}

describe('GET /v1/changes', () => {
  test('lists every change by (effective_date, id), across pages sharing a date', async () => {
    assert.deepEqual(await demoWalk('/v1/changes', ''), history);
    for (const limit of [2, 3, 7]) assert.deepEqual((await walk('/v1/changes', '', limit)).slice(0, history.length), history);
  });

  test('a change record says what changed, with the old and new values', async () => {
    const data = page(await ctx.get('/v1/changes?code_id=demo:A')).data;
    const [added, revised] = data;
    assert.deepEqual(
      { ...added, recorded_at: undefined },
      {
        object: 'change',
        id: 1,
        code_id: 'demo:A',
        type: 'added',
        effective_date: '2024-01-01',
        release: 'r1',
        fields: [],
        before: null,
        after: { display: 'Alpha', definition: null, status: 'active', parents: [], attributes: {} },
        recorded_at: undefined,
      },
    );
    assert.deepEqual([revised?.type, revised?.fields, revised?.before, revised?.after], ['revised', ['display'], { display: 'Alpha' }, { display: 'Alpha 2' }]);
    assert.ok(!Number.isNaN(Date.parse(added!.recorded_at)));
  });

  test('a page holds 50 changes by default; a limit above 200 is clamped to 200', async () => {
    const first = page(await ctx.get('/v1/changes'));
    assert.equal(first.data.length, 50);
    assert.equal(first.pagination.has_more, true);
    for (const limit of [201, 5000]) assert.equal(page(await ctx.get(`/v1/changes?limit=${limit}`)).data.length, 200);
  });

  test('system, code_id and type filter, alone and together', async () => {
    const only = (keep: (r: Row) => boolean) => history.filter(keep);
    assert.deepEqual(
      await demoWalk('/v1/changes', 'system=other'),
      only((r) => r[1].startsWith('other:')),
    );
    assert.deepEqual(
      await demoWalk('/v1/changes', 'code_id=demo:B'),
      only((r) => r[1] === 'demo:B'),
    );
    assert.deepEqual(
      await demoWalk('/v1/changes', 'code_id=demo:a/b'),
      only((r) => r[1] === 'demo:a/b'),
    );
    for (const type of ['added', 'revised', 'retired', 'reactivated']) {
      assert.deepEqual(
        await demoWalk('/v1/changes', `type=${type}`),
        only((r) => r[2] === type),
        type,
      );
    }
    assert.deepEqual(
      await demoWalk('/v1/changes', 'system=demo&type=revised'),
      only((r) => r[1].startsWith('demo:') && r[2] === 'revised'),
    );
    assert.deepEqual(await demoWalk('/v1/changes', 'system=other&code_id=demo:A'), []);
    assert.deepEqual(page(await ctx.get('/v1/changes?code_id=nosuch:X')), { data: [], pagination: { has_more: false } });
  });

  test('effective_from and effective_to are inclusive', async () => {
    const between = (from: string, to: string) => history.filter((r) => r[3] >= from && r[3] <= to);
    assert.deepEqual(await demoWalk('/v1/changes', 'effective_from=2024-02-01'), between('2024-02-01', '9999'));
    assert.deepEqual(await demoWalk('/v1/changes', 'effective_to=2024-02-01'), between('0000', '2024-02-01'));
    assert.deepEqual(await demoWalk('/v1/changes', 'effective_from=2024-02-01&effective_to=2024-02-01'), between('2024-02-01', '2024-02-01'));
    assert.deepEqual(await demoWalk('/v1/changes', 'effective_from=2024-01-02&effective_to=2024-02-29'), between('2024-01-02', '2024-02-29'));
    // A reversed range is a mistake to point out, not an empty answer.
    assertInvalid(await ctx.get('/v1/changes?effective_from=2024-03-01&effective_to=2024-01-01'), 'effective_from');
    assert.deepEqual(await demoWalk('/v1/changes', 'type=added&effective_to=2024-01-01'), between('0000', '2024-01-01'));
  });

  test('invalid filter values are a 400 naming the parameter', async () => {
    for (const date of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '20240101', '2024-1-01', '2024-01-01T00:00:00Z', 'today', '']) {
      assertInvalid(await ctx.get(`/v1/changes?effective_from=${encodeURIComponent(date)}`), 'effective_from');
      assertInvalid(await ctx.get(`/v1/changes?effective_to=${encodeURIComponent(date)}`), 'effective_to');
    }
    for (const type of ['foo', 'Added', 'deleted', '']) assertInvalid(await ctx.get(`/v1/changes?type=${type}`), 'type');
    for (const system of ['BAD', '_x', '']) assertInvalid(await ctx.get(`/v1/changes?system=${system}`), 'system');
    assertInvalid(await ctx.get('/v1/changes?code_id='), 'code_id');
    for (const limit of ['0', '-1', 'abc', '1.5', '1e1', '0x10']) assertInvalid(await ctx.get(`/v1/changes?limit=${limit}`), 'limit');
  });
});

describe('GET /v1/codes/{code_id}/changes', () => {
  const changesOf = (id: string) => `/v1/codes/${encodeURIComponent(id)}/changes`;

  test('lists the changes of one code, oldest first, across pages', async () => {
    assert.deepEqual(
      await demoWalk(changesOf('demo:B'), ''),
      history.filter((r) => r[1] === 'demo:B'),
    );
    assert.deepEqual(
      await demoWalk(changesOf('other:B'), ''),
      history.filter((r) => r[1] === 'other:B'),
    );
    assert.deepEqual(await demoWalk(changesOf('demo:a/b'), ''), [[4, 'demo:a/b', 'added', '2024-01-01']]);
  });

  test('type and the effective dates filter, inclusive; no match is an empty page', async () => {
    const ofB = history.filter((r) => r[1] === 'demo:B');
    assert.deepEqual(
      await demoWalk(changesOf('demo:B'), 'type=retired'),
      ofB.filter((r) => r[2] === 'retired'),
    );
    assert.deepEqual(
      await demoWalk(changesOf('demo:B'), 'effective_from=2024-02-01'),
      ofB.filter((r) => r[3] >= '2024-02-01'),
    );
    assert.deepEqual(
      await demoWalk(changesOf('demo:B'), 'effective_to=2024-02-01'),
      ofB.filter((r) => r[3] <= '2024-02-01'),
    );
    assert.deepEqual(await demoWalk(changesOf('demo:B'), 'effective_from=2024-02-01&effective_to=2024-02-01'), [[6, 'demo:B', 'retired', '2024-02-01']]);
    // Every code has its "added" change; these filters leave nothing of demo:A.
    for (const query of ['type=retired', 'effective_from=2024-02-02', 'effective_to=2023-12-31', 'type=added&effective_from=2024-01-02']) {
      assert.deepEqual(page(await ctx.get(`${changesOf('demo:A')}?${query}`)), { data: [], pagination: { has_more: false } }, query);
    }
  });

  test('an unknown code is a 404 code_not_found, even with filters', async () => {
    for (const url of [changesOf('demo:Z'), changesOf('demo:a'), `${changesOf('nosuch:A')}?type=added`]) {
      const res = await ctx.get(url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error.code, 'code_not_found');
    }
  });

  test('invalid filter values are a 400 naming the parameter', async () => {
    assertInvalid(await ctx.get(`${changesOf('demo:A')}?effective_from=2024-02-30`), 'effective_from');
    assertInvalid(await ctx.get(`${changesOf('demo:A')}?effective_to=2024-02-30`), 'effective_to');
    assertInvalid(await ctx.get(`${changesOf('demo:A')}?type=foo`), 'type');
    assertInvalid(await ctx.get(`${changesOf('demo:A')}?limit=0`), 'limit');
    assertInvalid(await ctx.get(`${changesOf('demo:A')}?limit=2.0`), 'limit');
  });

  test('system and code_id are not parameters of this endpoint', async () => {
    for (const param of ['system=demo', 'code_id=demo:A']) {
      const res = await ctx.get(`${changesOf('demo:A')}?${param}`);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'unknown_parameter');
      assert.equal(res.json().error.param, param.split('=')[0]);
    }
  });
});
