/** Store suite, search: matching, the four groups, paging at every size, filters, revisions. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CodeStatus } from '../../src/domain/records.ts';
import { searchTerms } from '../../src/domain/search-text.ts';
import type { SearchKey } from '../../src/store/search-walk.ts';
import type { CodeWrite, Store } from '../../src/store/store.ts';
import { codeRow, withStore, writeCodes, type OpenStore } from './suite-fixtures.ts';

/** A code row with a display and a definition of its own. */
export function textRow(id: string, display: string, definition: string | null = null, status: CodeStatus = 'active'): CodeWrite {
  const row = codeRow(id, status, display);
  const record = { ...JSON.parse(row.json), definition };
  return { ...row, json: JSON.stringify(record), definition, hash: `${row.hash}-${definition}` };
}

interface Filters {
  system?: string;
  status?: CodeStatus;
}

/** Every id a search returns, page by page, following each page's last key. */
export async function searchAll(store: Store, q: string, limit = 200, filters: Filters = {}, after: SearchKey | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (let pages = 0; ; pages++) {
    assert.ok(pages < 10_000, 'the search does not end');
    const page = await store.searchCodes({ terms: searchTerms(q), after, limit, system: filters.system ?? null, status: filters.status ?? null });
    assert.ok(page.count <= limit);
    if (page.count > 0) ids.push(...(JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[]).map((r) => r.id));
    if (!page.hasMore) return ids;
    assert.ok(page.count > 0, 'has_more with an empty page');
    after = page.last;
  }
}

const CODES: CodeWrite[] = [
  textRow('icd:E11', 'Diabetes mellitus type 2', 'A chronic metabolic disorder.'),
  textRow('icd:E10', 'Type 1 diabetes mellitus', null),
  textRow('icd:E1', 'Endocrine', null),
  textRow('icd:A01.1', 'Paratyphoid fever A', null),
  textRow('icd:A01.19', 'Paratyphoid, other', null),
  textRow('icd:A011', 'Not the same code', null),
  textRow('iso:STP', 'São Tomé and Príncipe', 'Islands in the Gulf of Guinea.'),
  textRow('iso:DEU', 'Germany', 'Home of Herr MÜLLER.'),
  textRow('iso:MU', 'Müller', null, 'retired'),
  textRow('iso:GRC', 'ΕΛΛΆΔΑ', 'ΟΔΟΣ and straße'),
  textRow('x:e11', 'e11 in another system', null),
  textRow('x:DIAB', 'Not about it', null, 'deprecated'),
  textRow('x:Z9', 'Diabetic foot', null),
];

export function searchTests(open: OpenStore): void {
  test('search matches folded words as you type, and code prefixes with punctuation kept', async () => {
    await withStore(open, async (store) => {
      await writeCodes(store, CODES);
      assert.deepEqual(await searchAll(store, 'diab mell'), ['icd:E11', 'icd:E10']);
      assert.deepEqual(await searchAll(store, 'sao tome'), ['iso:STP']);
      assert.deepEqual(await searchAll(store, 'SÃO  TOMÉ'), ['iso:STP'], 'case, accents and repeated spaces');
      assert.deepEqual(await searchAll(store, 'muller'), ['iso:MU', 'iso:DEU'], 'display first, then a definition');
      assert.deepEqual(await searchAll(store, 'a01.1'), ['icd:A01.1', 'icd:A01.19'], 'code prefix, not A011');
      assert.deepEqual(await searchAll(store, 'guinea'), ['iso:STP'], 'a word found only in a definition');
      assert.deepEqual(await searchAll(store, 'ελλαδα'), ['iso:GRC']);
      assert.deepEqual(await searchAll(store, 'οδος strasse'), ['iso:GRC'], 'final sigma and ß fold');
      assert.deepEqual(await searchAll(store, 'zebra'), []);
      assert.deepEqual(await searchAll(store, 'iabetes'), [], 'a word must start with the query word');
      assert.deepEqual(await searchAll(store, '.'), [], 'punctuation alone starts no code');
    });
  });

  test('a compatibility form that decomposes into a capital folds to lower case: № is no, ℃ is °c', async () => {
    await withStore(open, async (store) => {
      await writeCodes(store, [
        textRow('ru:N1234', '№1234 приказ', 'Температура в ℃, не в ℉.'),
        textRow('ru:OTHER', 'Другой приказ', null),
        textRow('m:BOLD', '𝐁𝐨𝐥𝐝 letters', null),
      ]);
      assert.deepEqual(await searchAll(store, 'no1234'), ['ru:N1234'], 'a whole word of the display');
      assert.deepEqual(await searchAll(store, '№1234'), ['ru:N1234'], 'the query folds the same way');
      assert.deepEqual(await searchAll(store, 'no12'), ['ru:N1234'], 'the display starts with it');
      assert.deepEqual(await searchAll(store, 'приказ no1234'), ['ru:N1234']);
      assert.deepEqual(await searchAll(store, 'температура ℃'), ['ru:N1234'], 'a word of the definition, and ℃ as c');
      assert.deepEqual(await searchAll(store, 'bold'), ['m:BOLD'], 'mathematical capitals');
    });
  });

  test('search orders in four groups: code equals, code starts, display starts, other matches', async () => {
    await withStore(open, async (store) => {
      await writeCodes(store, CODES);
      // e11: code equals (two systems, by id); then codes starting e11 (none); display starting "e11" is x:e11 (already in 1).
      assert.deepEqual(await searchAll(store, 'E11'), ['icd:E11', 'x:e11']);
      // e1: equals icd:E1; starts: E10, E11, e11 (by folded code, then id); display "Endocrine" is E1 itself.
      assert.deepEqual(await searchAll(store, 'e1'), ['icd:E1', 'icd:E10', 'icd:E11', 'x:e11']);
      // diab: code equals x:DIAB; display starts: E11 "Diabetes…", Z9 "Diabetic…" (by display); others: E10.
      assert.deepEqual(await searchAll(store, 'diab'), ['x:DIAB', 'icd:E11', 'x:Z9', 'icd:E10']);
    });
  });

  test('a one-letter query word finds every word it starts, whatever character comes second', async () => {
    await withStore(open, async (store) => {
      // Neither code nor display starts with the letters asked for: every match is a word further in.
      await writeCodes(store, [
        textRow('o:1', 'Hans Ørsted', null),
        textRow('o:2', 'The øl of the house', null),
        textRow('o:3', 'Blue cø', null),
        textRow('o:4', 'Mixed cаt', 'Cyrillic а second'),
        textRow('o:5', 'Big c', null),
        textRow('o:6', 'Ab c9', null),
        textRow('o:7', 'Zed 𠀀y', null),
        textRow('o:8', 'Zed 𠀀𠀁', null),
        textRow('o:9', 'Word αβγ', null),
        textRow('o:10', 'Nothing here', 'at all'),
      ]);
      const sorted = async (q: string) => (await searchAll(store, q)).sort();
      assert.deepEqual(await sorted('c'), ['o:3', 'o:4', 'o:5', 'o:6'], 'c with a non-ASCII second character, alone, with a digit');
      assert.deepEqual(await sorted('ø'), ['o:1', 'o:2'], 'ø (which does not fold) then ASCII');
      assert.deepEqual(await sorted('𠀀'), ['o:7', 'o:8'], 'beyond the BMP, then ASCII or beyond the BMP again');
      assert.deepEqual(await sorted('α'), ['o:9']);
      assert.deepEqual(await sorted('c cy'), ['o:4'], 'with another word');
      assert.deepEqual(await sorted('q'), []);
    });
  });

  test('a word cut at 100 characters in the middle of a character beyond the BMP is still found by its start', async () => {
    await withStore(open, async (store) => {
      // Run-together text: 99 code units, then 𠀀 (two code units) across the cut.
      await writeCodes(store, [textRow('zh:A1', 'Plain display', `${'中文'.repeat(49)}国𠀀文字`)]);
      assert.deepEqual(await searchAll(store, '中文中文'), ['zh:A1']);
      assert.deepEqual(await searchAll(store, '中文'.repeat(20)), ['zh:A1']);
    });
  });

  test('search pages give the same walk at every page size, with filters', async () => {
    await withStore(open, async (store) => {
      const rows: CodeWrite[] = [];
      for (let i = 0; i < 120; i++) {
        const n = String(i).padStart(3, '0');
        const status = (['active', 'deprecated', 'retired'] as const)[i % 3];
        rows.push(
          textRow(`${i % 2 === 0 ? 'a' : 'b'}:K${n}`, i % 4 === 0 ? `Kidney ${n}` : `Organ ${n} of the kidney`, i % 5 === 0 ? 'kidney stone' : null, status),
        );
      }
      rows.push(textRow('a:K', 'Kidney', null), textRow('b:KIDNEY', 'Other', null));
      await writeCodes(store, rows.reverse());
      const whole = await searchAll(store, 'k', 500);
      assert.equal(whole.length, rows.length);
      assert.equal(new Set(whole).size, whole.length);
      assert.deepEqual([...whole.slice(0, 3), whole.at(-1)], ['a:K', 'a:K000', 'b:K001', 'b:KIDNEY'], 'code equals, then code prefix in folded code order');
      for (const limit of [1, 2, 7, 50]) assert.deepEqual(await searchAll(store, 'k', limit), whole, `limit ${limit}`);
      const kidney = await searchAll(store, 'kidney', 500);
      assert.deepEqual(kidney.slice(0, 3), ['b:KIDNEY', 'a:K', 'a:K000'], 'code equals, then displays by folded display');
      assert.equal(kidney.length, 2 + 120);
      for (const limit of [1, 3, 13]) assert.deepEqual(await searchAll(store, 'kidney', limit), kidney, `limit ${limit}`);
      for (const [system, status] of [
        ['a', undefined],
        [undefined, 'retired'],
        ['b', 'deprecated'],
        ['nope', undefined],
      ] as const) {
        const want = kidney.filter(
          (id) => (system === undefined || id.startsWith(`${system}:`)) && (status === undefined || rows.find((r) => r.id === id)!.status === status),
        );
        for (const limit of [2, 200]) assert.deepEqual(await searchAll(store, 'kidney', limit, { system, status }), want, `${system}/${status}/${limit}`);
      }
    });
  });

  test('a revised code keeps its place, and the index follows its new text and status', async () => {
    await withStore(open, async (store) => {
      await writeCodes(store, [textRow('x:1', 'alpha one'), textRow('x:2', 'beta two', 'has alpha'), textRow('x:3', 'gamma', 'alpha again')]);
      assert.deepEqual(await searchAll(store, 'alpha'), ['x:1', 'x:2', 'x:3']);
      await writeCodes(store, [textRow('x:2', 'beta two', 'no longer', 'retired'), textRow('x:3', 'gamma', 'alpha again', 'deprecated')]);
      assert.deepEqual(await searchAll(store, 'alpha'), ['x:1', 'x:3']);
      assert.deepEqual(await searchAll(store, 'alpha', 200, { status: 'deprecated' }), ['x:3']);
      assert.deepEqual(await searchAll(store, 'retired'), [], 'status is not searched as a word');
      assert.deepEqual(await searchAll(store, 'no long'), ['x:2']);
    });
  });

  test('a record revised without a change to its words keeps them; one whose definition or display alone changed has its new words only', async () => {
    await withStore(open, async (store) => {
      const other = (row: CodeWrite): CodeWrite => ({ ...row, json: JSON.stringify({ ...JSON.parse(row.json), attributes: { note: 'revised' } }) });
      await writeCodes(store, [
        textRow('w:1', 'Lateral view', 'Seen from the side.'),
        textRow('w:2', 'Medial view', 'Seen from the middle.'),
        textRow('w:3', 'Dorsal view', 'Seen from the back.'),
        textRow('w:4', 'Ventral view', 'Seen from the front.'),
      ]);
      // Retired, revised in a field search does not read, a definition alone and a display alone changed.
      await writeCodes(store, [
        textRow('w:1', 'Lateral view', 'Seen from the side.', 'retired'),
        other(textRow('w:2', 'Medial view', 'Seen from the middle.')),
        textRow('w:3', 'Dorsal view', 'Looked at from above.'),
        textRow('w:4', 'Anterior view', 'Seen from the front.'),
      ]);
      assert.deepEqual(await searchAll(store, 'side'), ['w:1'], 'the retired code by a word of its definition');
      assert.deepEqual(await searchAll(store, 'lateral'), ['w:1'], 'and of its display');
      assert.deepEqual(await searchAll(store, 'side', 200, { status: 'retired' }), ['w:1']);
      assert.deepEqual(await searchAll(store, 'side', 200, { status: 'active' }), []);
      assert.deepEqual(await searchAll(store, 'view', 200, { status: 'active' }), ['w:2', 'w:3', 'w:4']);
      assert.deepEqual(await searchAll(store, 'middle'), ['w:2'], 'revised in another field: its words as they were');
      assert.deepEqual(await searchAll(store, 'above'), ['w:3'], 'the new definition');
      assert.deepEqual(await searchAll(store, 'back'), [], 'not the old one');
      assert.deepEqual(await searchAll(store, 'anterior'), ['w:4'], 'the new display');
      assert.deepEqual(await searchAll(store, 'ventral'), [], 'not the old one');
      assert.deepEqual(await searchAll(store, 'front'), ['w:4'], 'and its definition, unchanged');
      // Back to active, and then a word of the definition changed: each revision since is followed.
      await writeCodes(store, [textRow('w:1', 'Lateral view', 'Seen from the side.')]);
      assert.deepEqual(await searchAll(store, 'side', 200, { status: 'active' }), ['w:1']);
      await writeCodes(store, [textRow('w:1', 'Lateral view', 'Seen from the edge.', 'retired')]);
      assert.deepEqual(await searchAll(store, 'side'), []);
      assert.deepEqual(await searchAll(store, 'edge', 200, { status: 'retired' }), ['w:1']);
    });
  });
}
