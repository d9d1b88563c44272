/**
 * Paging properties of the navigation collections, black-box over HTTP, on
 * both backends: children, descendants, ancestors, roots and the as-of list.
 * Each run imports a random graph (parents among earlier codes: no cycle,
 * some codes with two parents) into a system of its own, revises part of it
 * on a later date, then walks every collection with random limits while
 * imports (new codes under existing ones, revisions) land between the pages.
 * A walk is in the documented order, never repeats a record, and returns
 * every record that matched when it started and was not revised meanwhile;
 * an as-of walk returns exactly the codes of its date, whatever lands later.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

interface Envelope {
  data: { id: string; status: string; display: string }[];
  pagination: { has_more: boolean; next_cursor?: string };
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

// Letters whose UTF-8 byte order differs from JS string order, and path-hostile ones.
const ALPHABET = ['A', 'a', 'Z', '0', 'é', '日', '😀', '｡', '/', '.', '-', ' ', '%', '+'];
const codeText = fc
  .array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 3 })
  .map((c) => c.join(''))
  .filter((c) => c.trim() === c);
const STATUSES = ['active', 'active', 'active', 'deprecated', 'retired'] as const;

/** A code of the graph: its parents are codes that come before it. */
interface Node {
  code: string;
  parents: readonly number[];
  status: number;
}
const graph = fc.uniqueArray(codeText, { minLength: 1, maxLength: 14 }).chain((codes) =>
  fc.tuple(
    ...codes.map((code, i) =>
      fc.record({
        code: fc.constant(code),
        parents: i === 0 ? fc.constant<number[]>([]) : fc.uniqueArray(fc.nat({ max: i - 1 }), { maxLength: 2 }),
        status: fc.nat({ max: STATUSES.length - 1 }),
      }),
    ),
  ),
);

/** An import between pages: new codes under existing ones, and revisions (display or status) of existing ones. */
const batch = fc.record({
  added: fc.array(fc.record({ code: codeText, parent: fc.nat(), status: fc.nat({ max: STATUSES.length - 1 }) }), { maxLength: 3 }),
  revised: fc.array(fc.record({ pick: fc.nat(), status: fc.nat({ max: STATUSES.length - 1 }) }), { maxLength: 2 }),
});
type Batch = { added: { code: string; parent: number; status: number }[]; revised: { pick: number; status: number }[] };

const limits = fc.array(fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 260 })), { minLength: 1, maxLength: 5 });
const imports = fc.array(fc.tuple(fc.nat({ max: 12 }), batch), { maxLength: 2 });

interface Rec {
  parents: string[];
  status: string;
  display: string;
}

function navigationProperties(name: string, open: () => Promise<TestContext>, runs: number): void {
  describe(`navigation paging over HTTP (${name}): ${runs} runs, each over a random graph of up to 14 codes`, () => {
    let ctx: TestContext;
    let systems = 0;
    let day = 0;
    /** Every import on a later date than the one before: nothing is back-dated. */
    const nextDate = () => new Date(Date.UTC(2024, 0, 1) + ++day * 86_400_000).toISOString().slice(0, 10);
    before(async () => {
      ctx = await open();
    });
    after(() => ctx.close());

    async function importInto(system: string, model: Map<string, Rec>, rows: [string, Rec][], mode: 'snapshot' | 'delta'): Promise<string> {
      const date = nextDate();
      await ctx.importRows(
        rows.map(([code, r]) => ({ code, display: r.display, status: r.status, parents: r.parents.join(';') })),
        { system, release: `r${date}`, effectiveDate: date, mode },
      );
      for (const [code, r] of rows) model.set(code, r);
      return date;
    }

    /** Walks `path` page by page with the limits in turn, importing between pages; the ids in the order seen. */
    async function walk(path: string, pageLimits: number[], between: [number, Batch][], land: (b: Batch) => Promise<void>): Promise<Envelope['data']> {
      const seen: Envelope['data'] = [];
      const pending = [...between].sort((a, b) => a[0] - b[0]);
      let cursor: string | undefined;
      for (let page = 0; ; page++) {
        assert.ok(page < 500, 'the walk does not end');
        const limit = pageLimits[page % pageLimits.length]!;
        const url = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const res = await ctx.get(url);
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        const body = res.json<Envelope>();
        assert.ok(body.data.length <= Math.min(limit, 200));
        if (body.pagination.has_more) assert.ok(body.data.length > 0 && body.pagination.next_cursor !== undefined);
        else assert.equal(body.pagination.next_cursor, undefined);
        seen.push(...body.data);
        if (!body.pagination.has_more) return seen;
        cursor = body.pagination.next_cursor;
        while (pending.length > 0 && pending[0]![0] <= page) await land(pending.shift()![1]);
      }
    }

    test('every collection: in order, each record once, every unrevised starting record', async () => {
      await fc.assert(
        fc.asyncProperty(
          graph,
          fc.nat(),
          fc.constantFrom(null, 'active'),
          limits,
          fc.array(fc.tuple(fc.constantFrom('children', 'descendants', 'ancestors', 'roots', 'as-of'), imports), { minLength: 5, maxLength: 5 }),
          async (nodes: Node[], pick, status, pageLimits, walks) => {
            const system = `g${String(++systems).padStart(4, '0')}`;
            const model = new Map<string, Rec>();
            const record = (n: Node, version = 1): Rec => ({
              parents: n.parents.map((p) => nodes[p]!.code),
              status: STATUSES[n.status]!,
              display: `${n.code} v${version}`,
            });
            const first = await importInto(
              system,
              model,
              nodes.map((n) => [n.code, record(n)]),
              'snapshot',
            );
            const atFirst = new Map([...model].map(([code, r]) => [code, { ...r }]));
            // A second release: a few codes revised, one added, so the as-of dates differ.
            const later = nodes.filter((_, i) => i % 3 === pick % 3).map((n): [string, Rec] => [n.code, record(n, 2)]);
            const extra = `${nodes[0]!.code}+`;
            if (!model.has(extra)) later.push([extra, { parents: [nodes[0]!.code], status: 'active', display: 'extra' }]);
            const second = await importInto(system, model, later, 'delta');
            const atSecond = new Map([...model].map(([code, r]) => [code, { ...r }]));

            const target = [...model.keys()][pick % model.size]!;
            const idOf = (code: string) => `${system}:${code}`;
            const filter = status === null ? '' : `status=${status}`;
            const keep = (code: string) => status === null || model.get(code)!.status === status;

            for (const [collection, between] of walks) {
              const revised = new Set<string>();
              const added = new Set<string>();
              const land = async (b: Batch) => {
                const codes = [...model.keys()];
                const rows: [string, Rec][] = [];
                for (const r of b.revised) {
                  const code = codes[r.pick % codes.length]!;
                  if (rows.some(([c]) => c === code)) continue;
                  rows.push([code, { ...model.get(code)!, status: STATUSES[r.status]!, display: `${code} revised` }]);
                  revised.add(code);
                }
                for (const a of b.added) {
                  if (model.has(a.code) || rows.some(([c]) => c === a.code)) continue;
                  rows.push([a.code, { parents: [codes[a.parent % codes.length]!], status: STATUSES[a.status]!, display: 'added' }]);
                  added.add(a.code);
                }
                if (rows.length > 0) await importInto(system, model, rows, 'delta');
              };

              const children = (code: string) => [...model].filter(([, r]) => r.parents.includes(code)).map(([c]) => c);
              const reach = (start: string, step: (code: string) => string[]) => {
                const distance = new Map<string, number>();
                let frontier = [start];
                for (let d = 1; frontier.length > 0; d++) {
                  const next: string[] = [];
                  for (const c of frontier)
                    for (const n of step(c))
                      if (n !== start && !distance.has(n)) {
                        distance.set(n, d);
                        next.push(n);
                      }
                  frontier = next;
                }
                return distance;
              };

              if (collection === 'as-of') {
                // A date of the first release, or of the second: later imports change neither.
                const [date, state] = pick % 2 === 0 ? [first, atFirst] : [second, atSecond];
                const path = `/v1/codes?system=${system}&as_of=${date}${filter ? `&${filter}` : ''}`;
                const seen = await walk(path, pageLimits, between, land);
                const expected = [...state].filter(([, r]) => status === null || r.status === status).map(([code]) => code);
                assert.deepEqual(
                  seen.map((r) => r.id),
                  expected.map(idOf).sort(byteOrder),
                  `${path}: exactly the codes of ${date}, by id`,
                );
                for (const r of seen) assert.equal(r.display, state.get(r.id.slice(system.length + 1))!.display, `${r.id} as it stood on ${date}`);
                continue;
              }

              // The expected members at the start, each with its sort key.
              let start: [string, number][];
              let path: string;
              if (collection === 'roots') {
                start = [...model].filter(([, r]) => r.parents.length === 0).map(([c]) => [c, 0]);
                path = `/v1/systems/${system}/roots`;
              } else {
                path = `/v1/codes/${encodeURIComponent(idOf(target))}/${collection}`;
                if (collection === 'children') start = children(target).map((c) => [c, 0]);
                else if (collection === 'descendants') start = [...reach(target, children)];
                else start = [...reach(target, (c) => model.get(c)!.parents)];
              }
              if (filter) path += `?${filter}`;
              start = start.filter(([c]) => keep(c));
              const distance = new Map(start);
              const key = (id: string): [number, string] => [collection === 'ancestors' ? (distance.get(id) ?? Infinity) : 0, id];
              const compare = (a: [number, string], b: [number, string]) => a[0] - b[0] || byteOrder(a[1], b[1]);

              const seen = (await walk(path, pageLimits, between, land)).map((r) => r.id.slice(system.length + 1));
              for (let i = 1; i < seen.length; i++)
                assert.ok(compare(key(seen[i - 1]!), key(seen[i]!)) < 0, `${path}: out of order or repeated: ${seen[i - 1]} then ${seen[i]}`);
              const missing = start.map(([c]) => c).filter((c) => !revised.has(c) && !seen.includes(c));
              assert.deepEqual(missing, [], `${path}: starting records that never appeared`);
              const strangers = seen.filter((c) => !distance.has(c) && !added.has(c) && !revised.has(c));
              assert.deepEqual(strangers, [], `${path}: records that never matched`);
            }
          },
        ),
        { numRuns: runs, endOnFailure: true },
      );
    });
  });
}

navigationProperties('SQLite', () => createTestContext(), 100);

const skip = await skipUnlessPostgres();
let db: TestDatabase | null = null;
describe('PostgreSQL', { skip }, () => {
  before(async () => {
    db = await createTestDatabase('codebook_navpaging');
  });
  after(async () => {
    await db?.drop();
  });
  navigationProperties('PostgreSQL', async () => createTestContext({ DATABASE_URL: db!.url }), 50);
});
