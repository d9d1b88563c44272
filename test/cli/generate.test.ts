/** `codebook generate` (the real CLI in a child process): deterministic files that import cleanly. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { GenerateManifest } from '../../src/tools/generate/data-set.ts';
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
      const s = await runImport(store, {
        file: join(out, entry.file),
        system: entry.system,
        release: entry.release,
        effectiveDate: entry.effective_date,
        format: entry.format,
        mode: entry.mode,
      });
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
