/** Children, descendants, ancestors and roots over HTTP, on a hierarchy whose parents form a graph. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../helpers/context.ts';

interface Page {
  data: { id: string; status: string }[];
  pagination: { has_more: boolean; next_cursor?: string };
}

//        R1          R2
//       /  \          |
//      A    B         E
//     / \  /
//    C   D            (D has two parents: A and B)
//    |
//    F (retired)
const TREE: Record<string, string>[] = [
  { code: 'R1', display: 'Root one', parents: '' },
  { code: 'R2', display: 'Root two', parents: '' },
  { code: 'A', display: 'A', parents: 'R1' },
  { code: 'B', display: 'B', parents: 'R1' },
  { code: 'C', display: 'C', parents: 'A' },
  { code: 'D', display: 'D', parents: 'A;B' },
  { code: 'E', display: 'E', parents: 'R2' },
  { code: 'F', display: 'F', parents: 'C', status: 'retired' },
];

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows(TREE, { system: 'h', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
  await ctx.importRows(
    [
      { code: 'X', display: 'Flat' },
      { code: 'Y', display: 'Flat' },
    ],
    { system: 'flat', release: 'f1', effectiveDate: '2024-01-01' },
  );
});
after(() => ctx.close());

function page(res: LightMyRequestResponse): Page {
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Page>();
}

/** Every id of a walk, following next_cursor page by page. */
async function walk(path: string, limit: number, extra = ''): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const body = page(await ctx.get(`${path}?limit=${limit}${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
    assert.ok(body.data.length <= limit);
    ids.push(...body.data.map((c) => c.id));
    if (!body.pagination.has_more) {
      assert.equal(body.pagination.next_cursor, undefined);
      return ids;
    }
    cursor = body.pagination.next_cursor;
  }
  return assert.fail('paging did not end');
}

const ids = (...codes: string[]) => codes.map((c) => `h:${c}`);

test('children are the codes naming the code among their parents, by id, at every page size', async () => {
  for (const limit of [1, 2, 50]) {
    assert.deepEqual(await walk('/v1/codes/h:R1/children', limit), ids('A', 'B'));
    assert.deepEqual(await walk('/v1/codes/h:A/children', limit), ids('C', 'D'));
    assert.deepEqual(await walk('/v1/codes/h:B/children', limit), ids('D'), 'a code with two parents is a child of each');
    assert.deepEqual(await walk('/v1/codes/h:F/children', limit), []);
  }
});

test('descendants are every code below, each once although two paths lead to D', async () => {
  for (const limit of [1, 3, 50]) {
    assert.deepEqual(await walk('/v1/codes/h:R1/descendants', limit), ids('A', 'B', 'C', 'D', 'F'));
    assert.deepEqual(await walk('/v1/codes/h:R2/descendants', limit), ids('E'));
  }
  assert.deepEqual(await walk('/v1/codes/h:R1/descendants', 2, '&status=active'), ids('A', 'B', 'C', 'D'), 'status filters the page');
  assert.deepEqual(await walk('/v1/codes/h:R1/descendants', 2, '&status=retired'), ids('F'));
});

test('ancestors come nearest first, then by id', async () => {
  for (const limit of [1, 2, 50]) {
    assert.deepEqual(await walk('/v1/codes/h:F/ancestors', limit), ids('C', 'A', 'R1'));
    assert.deepEqual(await walk('/v1/codes/h:D/ancestors', limit), ids('A', 'B', 'R1'), 'R1 once, at its shortest distance');
    assert.deepEqual(await walk('/v1/codes/h:R1/ancestors', limit), []);
  }
});

test('roots are the codes of the system without parents; in a flat system every code is one', async () => {
  assert.deepEqual(await walk('/v1/systems/h/roots', 1), ids('R1', 'R2'));
  assert.deepEqual(await walk('/v1/systems/flat/roots', 1), ['flat:X', 'flat:Y']);
  assert.deepEqual(await walk('/v1/systems/h/roots', 5, '&status=retired'), [], 'a known system with no root of that status is an empty page');
});

test('an unknown code is 404 code_not_found, an unknown system 404 system_not_found', async () => {
  for (const path of ['children', 'descendants', 'ancestors']) {
    const res = await ctx.get(`/v1/codes/h:NOPE/${path}`);
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(res.json().error.code, 'code_not_found');
  }
  const res = await ctx.get('/v1/systems/nope/roots');
  assert.equal(res.statusCode, 404, res.body);
  assert.deepEqual([res.json().error.code, res.json().error.param], ['system_not_found', 'system']);
});

test('a cursor binds the code, the collection and the status filter', async () => {
  const first = page(await ctx.get('/v1/codes/h:R1/descendants?limit=1'));
  const cursor = encodeURIComponent(first.pagination.next_cursor!);
  for (const url of [
    `/v1/codes/h:A/descendants?cursor=${cursor}`,
    `/v1/codes/h:R1/children?cursor=${cursor}`,
    `/v1/codes/h:R1/descendants?status=active&cursor=${cursor}`,
  ]) {
    const res = await ctx.get(url);
    assert.equal(res.statusCode, 400, url);
    assert.equal(res.json().error.code, 'invalid_cursor');
  }
});

test('a later import that moves a code moves its whole subtree', async () => {
  // C moves from A to E: C and F are now under R2, and no longer under R1.
  await ctx.importRows([{ code: 'C', display: 'C', parents: 'E' }], { system: 'h', release: 'r2', effectiveDate: '2024-02-01' });
  assert.deepEqual(await walk('/v1/codes/h:R1/descendants', 2), ids('A', 'B', 'D'));
  assert.deepEqual(await walk('/v1/codes/h:R2/descendants', 2), ids('C', 'E', 'F'));
  assert.deepEqual(await walk('/v1/codes/h:F/ancestors', 2), ids('C', 'E', 'R2'));
  // And back, so the other tests see the tree they expect whatever the order.
  await ctx.importRows([{ code: 'C', display: 'C', parents: 'A' }], { system: 'h', release: 'r3', effectiveDate: '2024-03-01' });
  assert.deepEqual(await walk('/v1/codes/h:R1/descendants', 2), ids('A', 'B', 'C', 'D', 'F'));
});
