/**
 * What the README promises a walk over search results or ancestors while
 * imports land between its pages, on both backends: codes ADDED meanwhile
 * never disturb it. Every record that matched at the start comes exactly
 * once, in order, and an added code comes once if it sorts after the walk's
 * position, never if it sorts before. (A code REVISED meanwhile may move
 * across the position on these two, whose order an import can change: the
 * README says so and tells clients what to do; nothing here pins it.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

interface Envelope {
  data: { id: string }[];
  pagination: { has_more: boolean; next_cursor?: string };
}

/** Walks `path` to its end at `limit` a page, running `between` once, after the first page; the ids in the order seen. */
async function walk(ctx: TestContext, path: string, limit: number, between: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const url = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await ctx.get(url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    const body = res.json<Envelope>();
    seen.push(...body.data.map((r) => r.id));
    if (!body.pagination.has_more) return seen;
    cursor = body.pagination.next_cursor;
    if (page === 0) await between();
  }
  return assert.fail(`${path}: the walk does not end`);
}

function walksUnderImports(name: string, open: () => Promise<TestContext>): void {
  describe(`walks while imports add codes (${name})`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await open();
    });
    after(() => ctx.close());

    for (const limit of [1, 2, 3]) {
      test(`search, ${limit} a page: each starting match once, in order; an added one once after the position, never before it`, async () => {
        const system = `rp${limit}`;
        await ctx.importRows(
          [
            { code: 'W1', display: 'Widget 1', definition: '' },
            { code: 'W2', display: 'Widget 2', definition: '' },
            { code: 'W3', display: 'Widget 3', definition: '' },
            { code: 'G1', display: 'Gadget 1', definition: 'a widget gadget' },
            { code: 'G2', display: 'Gadget 2', definition: 'a widget gadget' },
          ],
          { system, release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' },
        );
        const ids = (...codes: string[]) => codes.map((c) => `${system}:${c}`);
        // The first page ends at W1, W2 or W3, in the group "display starts with q".
        const seen = await walk(ctx, `/v1/codes/search?q=widget&system=${system}`, limit, async () => {
          await ctx.importRows(
            [
              { code: 'WIDGETS', display: 'Widgets', definition: '' }, // code starts with q: a group before the position
              { code: 'W0', display: 'Widget 0', definition: '' }, // display starts with q, before Widget 1
              { code: 'W9', display: 'Widget 9', definition: '' }, // display starts with q, after Widget 3
              { code: 'G9', display: 'Gadget 9', definition: 'a widget gadget' }, // every other match: after the ones imported before
              { code: 'N1', display: 'Nothing to see', definition: '' }, // no match
            ],
            { system, release: 'r2', effectiveDate: '2024-02-01' },
          );
        });
        assert.deepEqual(seen, ids('W1', 'W2', 'W3', 'W9', 'G1', 'G2', 'G9'));
        // A walk started now sees the added codes where they sort.
        assert.deepEqual(
          await walk(ctx, `/v1/codes/search?q=widget&system=${system}`, limit, async () => {}),
          ids('WIDGETS', 'W0', 'W1', 'W2', 'W3', 'W9', 'G1', 'G2', 'G9'),
        );
      });

      test(`ancestors, ${limit} a page: each starting ancestor once, nearest first, while codes are added all around them`, async () => {
        const system = `an${limit}`;
        //  R ← A ← B ← C,  A ← K ← C   (C's ancestors: B and K at 1, A at 2, R at 3)
        await ctx.importRows(
          [
            { code: 'R', display: 'Root', parents: '' },
            { code: 'A', display: 'A', parents: 'R' },
            { code: 'B', display: 'B', parents: 'A' },
            { code: 'K', display: 'K', parents: 'A' },
            { code: 'C', display: 'C', parents: 'B;K' },
          ],
          { system, release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' },
        );
        const seen = await walk(ctx, `/v1/codes/${system}:C/ancestors`, limit, async () => {
          await ctx.importRows(
            [
              { code: 'A0', display: 'Under the root', parents: 'R' },
              { code: 'B1', display: 'Beside B', parents: 'A;B' },
              { code: 'D', display: 'Below C', parents: 'C' },
              { code: 'E', display: 'Below D and K', parents: 'D;K' },
              { code: 'Q', display: 'Another root', parents: '' },
            ],
            { system, release: 'r2', effectiveDate: '2024-02-01' },
          );
        });
        assert.deepEqual(
          seen,
          ['B', 'K', 'A', 'R'].map((c) => `${system}:${c}`),
        );
        // The added codes are where the walk would find them: E's ancestors hold the new D.
        assert.deepEqual(
          await walk(ctx, `/v1/codes/${system}:E/ancestors`, limit, async () => {}),
          ['D', 'K', 'A', 'C', 'B', 'R'].map((c) => `${system}:${c}`),
        );
      });
    }
  });
}

walksUnderImports('SQLite', () => createTestContext());

const skip = await skipUnlessPostgres();
let db: TestDatabase | null = null;
describe('PostgreSQL', { skip }, () => {
  before(async () => {
    db = await createTestDatabase('codebook_walks');
  });
  after(() => db?.drop());
  walksUnderImports('PostgreSQL', () => createTestContext({ DATABASE_URL: db!.url }));
});
