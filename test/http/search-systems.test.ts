/**
 * GET /v1/codes/search, /v1/systems, /v1/systems/{system} and its releases,
 * over HTTP: the q rules, cursors bound to the query, paging at depth, and
 * releases recorded by imports (a name reused for new changes is refused).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError } from '../access/helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  const rows = Array.from({ length: 450 }, (_, i) => ({
    code: `K${String(i).padStart(3, '0')}`,
    display: `Kidney part ${i}`,
    definition: i % 2 === 0 ? 'Renal' : '',
  }));
  await ctx.importRows(rows, { system: 'organ', release: '2024', effectiveDate: '2024-01-01', mode: 'snapshot' });
  await ctx.importRows([{ code: 'STP', display: 'São Tomé and Príncipe' }], { system: 'iso', release: 'v1', effectiveDate: '2024-01-01' });
});
after(() => ctx.close());

const json = async (url: string) => {
  const res = await ctx.get(url);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { id: string }[]; pagination: { has_more: boolean; next_cursor?: string } }>();
};

test('q is required, trimmed, 1–200 characters: otherwise invalid_parameter naming q', async () => {
  for (const url of ['/v1/codes/search', '/v1/codes/search?q=', '/v1/codes/search?q=%20%20', `/v1/codes/search?q=${'x'.repeat(201)}`]) {
    const error = assertError(await ctx.get(url), 400, 'invalid_parameter');
    assert.equal(error.param, 'q', url);
  }
  assert.equal((await ctx.get(`/v1/codes/search?q=${encodeURIComponent(` ${'é'.repeat(200)} `)}`)).statusCode, 200, '200 characters once trimmed');
  assertError(await ctx.get('/v1/codes/search?q=a&offset=5'), 400, 'unknown_parameter');
  assertError(await ctx.get('/v1/codes/search?q=a&q=b'), 400, 'invalid_parameter');
  assertError(await ctx.get('/v1/codes/search?q=a&status=gone'), 400, 'invalid_parameter');
});

test('search finds across accents and case, and answers the page envelope of code records', async () => {
  const page = await json('/v1/codes/search?q=SAO%20tome');
  assert.deepEqual(
    page.data.map((r) => r.id),
    ['iso:STP'],
  );
  assert.deepEqual(page.pagination, { has_more: false });
  assert.equal((await json('/v1/codes/search?q=renal&limit=1')).data.length, 1);
});

test('a walk of 450 results, page by page, returns each once in order; a cursor is bound to its q and filters', async () => {
  const all: string[] = [];
  let cursor: string | undefined;
  let first: string | undefined;
  do {
    const page = await json(`/v1/codes/search?q=k&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...page.data.map((r) => r.id));
    cursor = page.pagination.next_cursor;
    first ??= cursor;
  } while (cursor);
  assert.equal(all.length, 450);
  assert.equal(new Set(all).size, 450);
  assert.deepEqual(all.slice(0, 2), ['organ:K000', 'organ:K001']);
  assertError(await ctx.get(`/v1/codes/search?q=kidney&limit=7&cursor=${first}`), 400, 'invalid_cursor');
  assertError(await ctx.get(`/v1/codes/search?q=k&system=organ&limit=7&cursor=${first}`), 400, 'invalid_cursor');
  assertError(await ctx.get(`/v1/codes?limit=7&cursor=${first}`), 400, 'invalid_cursor');
  assert.equal((await ctx.get(`/v1/codes/search?q=%20k%20&limit=7&cursor=${first}`)).statusCode, 200, 'the same q, untrimmed');
});

test('systems: listed by id, with counts, latest release and effective date; unknown is system_not_found', async () => {
  const list = await json('/v1/systems?limit=1');
  assert.deepEqual(
    list.data.map((s) => s.id),
    ['iso'],
  );
  const next = await json(`/v1/systems?limit=1&cursor=${list.pagination.next_cursor}`);
  assert.deepEqual(
    next.data.map((s) => s.id),
    ['organ'],
  );
  const organ = (await ctx.get('/v1/systems/organ')).json();
  assert.deepEqual(organ, {
    object: 'system',
    id: 'organ',
    name: 'organ',
    description: null,
    url: null,
    publisher: null,
    license: null,
    counts: { active: 450, deprecated: 0, retired: 0 },
    latest_release: '2024',
    latest_effective_date: '2024-01-01',
    updated_at: organ.updated_at,
  });
  const error = assertError(await ctx.get('/v1/systems/nope'), 404, 'system_not_found');
  assert.equal(error.param, 'system');
  assertError(await ctx.get('/v1/systems/nope/releases'), 404, 'system_not_found');
});

test('a name no system can have (upper case, 65 characters, a leading "-", a space) is no such system on each of its paths', async () => {
  for (const name of ['T1', 'a'.repeat(65), '-x', 'x%20y']) {
    for (const path of [`/v1/systems/${name}`, `/v1/systems/${name}/releases`, `/v1/systems/${name}/roots`]) {
      const error = assertError(await ctx.get(path), 404, 'system_not_found');
      assert.equal(error.param, 'system', path);
      assert.equal(error.message, `No system ${JSON.stringify(decodeURIComponent(name))}. GET /v1/systems lists the systems.`, path);
    }
  }
});

test('each import records a release; a release name that would change codes again is refused, one that changes nothing is not', async () => {
  await ctx.importRows([{ code: 'A', display: 'One' }], { system: 'rel', release: '1', effectiveDate: '2024-01-01' });
  await assert.rejects(
    ctx.importRows([{ code: 'A', display: 'One, corrected' }], { system: 'rel', release: '1', effectiveDate: '2024-01-01' }),
    /release "1" of system rel was imported before/,
  );
  await ctx.importRows([{ code: 'A', display: 'One' }], { system: 'rel', release: '1', effectiveDate: '2024-01-01' });
  await ctx.importRows([{ code: 'A', display: 'One, corrected', status: 'deprecated' }], { system: 'rel', release: '1a', effectiveDate: '2024-02-01' });
  const releases = await json('/v1/systems/rel/releases');
  assert.deepEqual(releases.data, [
    {
      object: 'release',
      system: 'rel',
      id: '1',
      effective_date: '2024-01-01',
      mode: 'delta',
      imported_at: (releases.data[0] as { imported_at?: string }).imported_at,
      counts: { added: 1, revised: 0, retired: 0, reactivated: 0 },
      first_change_id: releases.data[0]!['first_change_id' as 'id'],
      last_change_id: releases.data[0]!['first_change_id' as 'id'],
    },
    {
      object: 'release',
      system: 'rel',
      id: '1a',
      effective_date: '2024-02-01',
      mode: 'delta',
      imported_at: (releases.data[1] as { imported_at?: string }).imported_at,
      counts: { added: 0, revised: 1, retired: 0, reactivated: 0 },
      first_change_id: releases.data[1]!['first_change_id' as 'id'],
      last_change_id: releases.data[1]!['first_change_id' as 'id'],
    },
  ]);
  const change = (await ctx.get(`/v1/changes?system=rel&limit=5`)).json().data.at(-1);
  assert.equal(change.id, releases.data[1]!['last_change_id' as 'id'], 'the release names the change it wrote');
  const rel = (await ctx.get('/v1/systems/rel')).json();
  assert.deepEqual([rel.counts, rel.latest_release], [{ active: 0, deprecated: 1, retired: 0 }, '1a']);
});
