/** `codebook generate` (the real CLI in a child process): deterministic files that import cleanly. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { importRequestOf, SYSTEMS, type GenerateManifest } from '../../src/tools/generate/data-set.ts';
import { LAB_ROOTS, labLevels } from '../../src/tools/generate/systems.ts';
import { runImport } from '../../src/services/import/importer.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { runCodebook, type CliResult } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';

const SIZE = ['--codes', '600', '--changes', '1500', '--dates', '5'];

let dir: string;
before(() => {
  dir = tempDir();
});
after(() => rmSync(dir, { recursive: true, force: true }));

function codebook(...args: string[]): Promise<CliResult> {
  return runCodebook(args, { cwd: dir, settings: { DATABASE_URL: `sqlite:${join(dir, 'unused.db')}` }, timeoutMs: 60_000 });
}

async function generate(name: string, seed: string): Promise<string> {
  const out = join(dir, name);
  const run = await codebook('generate', ...SIZE, '--seed', seed, '--out', out);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^generated 600 codes in 4 systems and 1500 changes over 5 dates \(seed \d+\)/);
  return out;
}

/** Every file of a folder, by name. */
function contents(folder: string): Map<string, string> {
  return new Map(
    readdirSync(folder)
      .sort()
      .map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
  );
}

test('the same seed writes identical files; another seed, other records', async () => {
  const [a, b, c] = await Promise.all([generate('a', '7'), generate('b', '7'), generate('c', '8')]);
  const first = contents(a);
  assert.ok(first.size > 3, 'a manifest and several CSV files');
  assert.deepEqual(contents(b), first);

  const other = contents(c);
  assert.deepEqual([...other.keys()], [...first.keys()], 'the same files, by name');
  const snapshot = [...first.keys()].find((name) => name.endsWith('dx-snapshot.csv'))!;
  assert.notEqual(other.get(snapshot), first.get(snapshot));
});

test('the files import in manifest order with the counts the manifest gives', async () => {
  const out = await generate('imported', '3');
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as GenerateManifest;
  assert.equal(manifest.imports.filter((i) => i.mode === 'snapshot').length, 4);
  assert.deepEqual(new Set(manifest.imports.map((i) => i.effective_date)).size, 5);

  const store = new SqliteStore({ path: join(dir, 'imported.db') });
  try {
    let lastChangeId = 0;
    for (const entry of manifest.imports) {
      const s = await runImport(store, importRequestOf(out, entry));
      assert.deepEqual({ added: s.added, revised: s.revised, retired: s.retired, reactivated: s.reactivated }, entry.expected, entry.file);
      assert.equal(s.unchanged, 0, `${entry.file}: every row of a generated file is a change`);
      lastChangeId = s.lastChangeId ?? lastChangeId;
    }
    assert.equal(await store.countCodes(), 600);
    assert.equal(lastChangeId, 1500, 'change ids run 1…M');
    const kinds = manifest.imports.reduce((a, i) => a + i.expected.retired + i.expected.reactivated, 0);
    assert.ok(kinds > 0, 'the deltas retire and reactivate some codes, not only revise');
  } finally {
    await store.close();
  }
});

test('arguments that cannot give the counts asked for are refused before anything is written', async () => {
  const run = await codebook('generate', '--codes', '100', '--changes', '50', '--dates', '3', '--out', join(dir, 'refused'));
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--changes must be an integer from 100/);
  assert.throws(() => readdirSync(join(dir, 'refused')), /ENOENT/);
});

test('--out naming a file, or a folder that is not empty, is refused with one line that says so', async () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'kept');
  const onFile = await codebook('generate', ...SIZE, '--seed', '1', '--out', file);
  assert.equal(onFile.code, 1);
  assert.equal(onFile.stderr, `codebook: --out ${file} is not a folder\n`);
  assert.equal(readFileSync(file, 'utf8'), 'kept');
  const full = await codebook('generate', ...SIZE, '--seed', '1', '--out', dir);
  assert.equal(full.code, 1);
  assert.match(full.stderr, /^codebook: --out .* is not empty; choose a new or empty folder\n$/);
});

test('the lab system is a six-level graph at 100 000 codes, some codes with two parents, without cycles', () => {
  const lab = SYSTEMS.find((s) => s.name === 'lab')!;
  const size = 100_000;
  assert.equal(labLevels(size).length, 6);
  let twoParents = 0;
  const depth = new Int8Array(size);
  for (let i = 0; i < size; i++) {
    const parents = lab.parents(i);
    assert.ok(parents.length <= 2 && new Set(parents).size === parents.length, `code ${i}: one or two distinct parents`);
    // Parents come before their children and sit one level up: no cycle, every path from a root equally long.
    for (const p of parents) {
      assert.ok(p < i, `code ${i}: parent ${p} comes first`);
      assert.equal(depth[p], depth[lab.parents(i)[0]!]);
    }
    depth[i] = parents.length === 0 ? 0 : depth[parents[0]!]! + 1;
    if (parents.length === 2) twoParents++;
  }
  assert.equal(Math.max(...depth), 5, 'six levels: depths 0 to 5');
  assert.equal(depth.filter((d) => d === 0).length, LAB_ROOTS);
  assert.ok(twoParents > 5_000 && twoParents < 15_000, `about a tenth of the codes have two parents (${twoParents})`);
});

test('a generated data set imports with its hierarchy: the lab roots, two-parent codes reached once as descendants', async () => {
  const out = join(dir, 'hierarchy');
  const run = await codebook('generate', '--codes', '20000', '--changes', '20000', '--dates', '1', '--seed', '5', '--out', out);
  assert.equal(run.code, 0, run.stderr);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as GenerateManifest;
  const labSize = manifest.systems.find((s) => s.system === 'lab')!.codes;
  const store = new SqliteStore({ path: join(dir, 'hierarchy.db') });
  try {
    for (const entry of manifest.imports) {
      await runImport(store, importRequestOf(out, entry));
    }
    const lab = SYSTEMS.find((s) => s.name === 'lab')!;
    const id = (i: number) => `lab:${lab.code(i)}`;
    const roots = await store.navigation.pageRoots({ system: 'lab', after: null, limit: 200, status: null });
    assert.equal(roots.count, LAB_ROOTS);
    // A code of the deepest level: one ancestor per level above, more where a second parent opens another path.
    const deepest = labSize - 1;
    const levels = labLevels(labSize).length;
    const ancestors = await store.navigation.pageAncestors({ id: id(deepest), after: null, limit: 200, status: null });
    const above = JSON.parse(`[${ancestors.json.toString('utf8')}]`) as { id: string }[];
    assert.ok(above.length >= levels - 1, `${above.length} ancestors over ${levels} levels`);
    // Every code below the first root once: the subtree counted from the generator's own parents.
    const below = new Set<number>();
    for (let i = 0; i < labSize; i++) if (lab.parents(i).some((p) => p === 0 || below.has(p))) below.add(i);
    let seen = 0;
    let after: string | null = null;
    for (;;) {
      const page = await store.navigation.pageDescendants({ id: id(0), after, limit: 200, status: null });
      seen += page.count;
      if (!page.hasMore) break;
      after = page.last;
    }
    assert.equal(seen, below.size);
  } finally {
    await store.close();
  }
});
