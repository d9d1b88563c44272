/**
 * Search paging, as a property, on both backends: a walk over the results of
 * a search returns every record that matched when it started and was not
 * revised during it exactly once, and nothing twice that was added meanwhile,
 * while imports (new codes and revisions) land between its pages. With no
 * import, it returns exactly what a plain model of the matching rules finds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { foldText, recordWords, searchTerms } from '../../src/domain/search-text.ts';
import type { SearchKey } from '../../src/store/search-walk.ts';
import type { Store } from '../../src/store/store.ts';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { importRowsInto, openTempSqliteStore, tempDir } from '../helpers/context.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';

const WORDS = ['diabetes', 'diabetic', 'mellitus', 'melon', 'São', 'sao', 'Tomé', 'tome', 'alpha', 'Älpha', 'beta', 'A1', 'a.1', 'x-ray'];
const CODE_PARTS = ['A', 'a', '1', '.', 'D', 'I', 'é', '-'];
const QUERIES = [
  'a',
  'A1',
  'a.1',
  'd',
  'di',
  'diab',
  'diab mell',
  'sao tome',
  'tom',
  'al',
  'me',
  'x-r',
  'ray',
  'zzz',
  'a1 d',
  'd a1 m',
  'a1.t',
  'diab a',
  'i a1',
];

interface Text {
  code: string;
  display: string;
  definition: string;
}

const text = fc.record({
  code: fc.array(fc.constantFrom(...CODE_PARTS), { minLength: 1, maxLength: 5 }).map((p) => p.join('')),
  display: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  definition: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }).map((w) => w.join(' ')),
});

/** The matching rules, stated plainly. */
function matches(q: string, t: Text): boolean {
  const terms = searchTerms(q);
  if (foldText(t.code).startsWith(terms.folded)) return true;
  const words = recordWords(t.code, t.display, t.definition === '' ? null : t.definition);
  return terms.words.length > 0 && terms.words.every((w) => words.some((word) => word.startsWith(w)));
}

function searchProperties(name: string, open: () => Promise<{ store: Store; dir: string; close(): Promise<void> }>): void {
  describe(`search paging (${name})`, () => {
    let opened: { store: Store; dir: string; close(): Promise<void> };
    const model = new Map<string, Text>();
    let releases = 0;
    let serial = 0;

    async function importTexts(system: string, texts: Text[]): Promise<void> {
      const rows = texts.map((t) => ({ code: t.code, display: t.display, definition: t.definition }));
      await importRowsInto(opened.store, opened.dir, rows, { system, release: `r${++releases}`, effectiveDate: '2024-01-01' });
      for (const t of texts) model.set(`${system}:${t.code}`, t);
    }

    before(async () => {
      opened = await open();
      const start = fc.sample(text, { numRuns: 400, seed: 7 });
      const unique = [...new Map(start.map((t) => [t.code, t])).values()];
      await importTexts('base', unique);
    });
    after(() => opened.close());

    test('each record that matched at the start and was not revised appears exactly once; new ones at most once', async () => {
      const batch = fc.record({
        added: fc.array(text, { maxLength: 4 }),
        revised: fc.array(fc.record({ pick: fc.nat(), display: text.map((t) => t.display) }), { maxLength: 3 }),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...QUERIES),
          fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }),
          fc.array(fc.tuple(fc.nat({ max: 30 }), batch), { maxLength: 3 }),
          async (q, limits, imports) => {
            const startMatches = new Set([...model].filter(([, t]) => matches(q, t)).map(([id]) => id));
            const known = new Set(model.keys());
            const revised = new Set<string>();
            const seen: string[] = [];
            const pending = [...imports].sort((a, b) => a[0] - b[0]);
            let after: SearchKey | null = null;
            for (let page = 0; ; page++) {
              assert.ok(page < 5_000);
              const limit = limits[page % limits.length]!;
              const result = await opened.store.searchCodes({ terms: searchTerms(q), after, limit, system: null, status: null });
              if (result.count > 0) seen.push(...(JSON.parse(`[${result.json.toString('utf8')}]`) as { id: string }[]).map((r) => r.id));
              if (!result.hasMore) break;
              after = result.last;
              while (pending.length > 0 && pending[0]![0] <= page) {
                const [, b] = pending.shift()!;
                const ids = [...model.keys()];
                const revisions = b.revised.map(({ pick, display }) => {
                  const id = ids[pick % ids.length]!;
                  revised.add(id);
                  return { ...model.get(id)!, display, id };
                });
                const bySystem = new Map<string, Text[]>();
                for (const r of revisions)
                  bySystem.set(r.id.slice(0, r.id.indexOf(':')), [
                    ...(bySystem.get(r.id.slice(0, r.id.indexOf(':'))) ?? []),
                    { code: r.code, display: r.display, definition: r.definition },
                  ]);
                for (const [system, texts] of bySystem) await importTexts(system, texts);
                await importTexts(`new${++serial % 3}`, [...new Map(b.added.map((t) => [t.code, t])).values()]);
              }
            }
            const counts = new Map<string, number>();
            for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
            for (const id of startMatches)
              if (!revised.has(id)) assert.equal(counts.get(id), 1, `${id} matched "${q}" at the start: seen ${counts.get(id) ?? 0} times`);
            for (const [id, n] of counts) {
              if (!known.has(id)) assert.equal(n, 1, `${id}, added during the walk, seen ${n} times`);
              if (!revised.has(id) && known.has(id)) assert.ok(startMatches.has(id), `${id} does not match "${q}"`);
            }
            if (imports.length === 0) assert.deepEqual(new Set(seen), startMatches);
          },
        ),
        { numRuns: 25, seed: 20261125 },
      );
    });
  });
}

searchProperties('sqlite', async () => {
  const o = await openTempSqliteStore();
  return { store: o.store, dir: o.dir, close: () => o.cleanup() };
});

// The long-word paths of group 4: a word expanded into at most one term, else FTS5's own prefix query.
searchProperties('sqlite, one expanded term', async () => {
  const dir = tempDir();
  const store = new SqliteStore({ path: join(dir, 'codebook.db'), searchTuning: { expandTerms: 1 } });
  return { store, dir, close: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
});

// One-character words beside a word with a digit, tested on every record that word finds (search-broad-words.ts).
searchProperties('sqlite, one-character words tested on the records', async () => {
  const dir = tempDir();
  const store = new SqliteStore({ path: join(dir, 'codebook.db'), searchTuning: { smallSet: 1_000_000 } });
  return { store, dir, close: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
});

const skip = await skipUnlessPostgres();
let db: TestDatabase | null = null;
describe('PostgreSQL', { skip }, () => {
  before(async () => {
    db = await createTestDatabase('codebook_search');
  });
  after(() => db?.drop());
  for (const [name, searchTuning] of [
    ['postgres', {}],
    // A walk of 7 records: most pages end the walk and read the rest through the GIN index.
    ['postgres, a walk of 7', { walk: 7 }],
  ] as const)
    searchProperties(name, async () => {
      const store = await PostgresStore.open({ url: db!.url, schema: await db!.createSchema(), max: 2, searchTuning });
      const dir = await openTempSqliteStore();
      await dir.store.close();
      return {
        store,
        dir: dir.dir,
        close: async () => {
          await store.close();
          await dir.cleanup();
        },
      };
    });
});
