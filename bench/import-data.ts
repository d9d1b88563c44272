/**
 * Child process of the benchmark: imports a generated data set into a fresh
 * database, in manifest order, the way `codebook import` does (runImport on the
 * store the configuration names). Release 1 — the snapshot of every system —
 * is timed, then imported again (it must record no change) and timed again;
 * then the deltas follow. Each import's counts are checked against what the
 * generator says it wrote.
 *
 * usage: node bench/import-data.ts DATA_DIR DATABASE_FILE [--snapshot-only] [--no-reimport] [--without-search-index]
 * (DATABASE_FILE may be a postgres:// URL: the search bench's PostgreSQL figures.)
 * Progress goes to stderr; the timings, as one JSON line, to stdout. With
 * --snapshot-only the deltas are left out (to time the imports again), with
 * --no-reimport the re-import too. --without-search-index (SQLite only)
 * imports without writing the search index, into a file whose search is then
 * wrong: only for measuring what the index costs (bench/import-share.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { progressBar } from '../src/cli/progress.ts';
import { describeSummary } from '../src/cli/import.ts';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { importRequestOf, type GeneratedImport, type GenerateManifest } from '../src/tools/generate/data-set.ts';
import { runImport, type ImportSummary } from '../src/services/import/importer.ts';
import type { Store } from '../src/store/store.ts';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.ts';

export interface ImportTimings {
  codes: number;
  changes: number;
  /** Release 1: every system's snapshot, in one figure (the sum of its imports' wall time). */
  snapshotMs: number;
  snapshotFiles: { system: string; rows: number; ms: number }[];
  /** The same snapshot files again: no change recorded. */
  reimportMs: number;
  reimportFiles: { system: string; rows: number; ms: number }[];
  deltasMs: number;
  deltaFiles: number;
  peakRssMb: number;
}

async function importOne(store: Store, dir: string, entry: GeneratedImport): Promise<{ summary: ImportSummary; ms: number }> {
  const bar = progressBar();
  const started = performance.now();
  const summary = await runImport(store, importRequestOf(dir, entry), { onProgress: bar.update });
  const ms = performance.now() - started;
  bar.done();
  process.stderr.write(`  imported ${describeSummary(summary)}\n`);
  return { summary, ms };
}

function check(entry: GeneratedImport, s: ImportSummary, expected: GeneratedImport['expected']): void {
  const got = { added: s.added, revised: s.revised, retired: s.retired, reactivated: s.reactivated };
  if (JSON.stringify(got) !== JSON.stringify(expected)) {
    throw new Error(`${entry.file}: expected ${JSON.stringify(expected)}, the import recorded ${JSON.stringify(got)}`);
  }
}

/** What main needs of the service's dependencies, for a store made here. */
function withStore(store: Store): { store: Store; close: () => Promise<void> } {
  return { store, close: () => store.close() };
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'snapshot-only': { type: 'boolean' }, 'no-reimport': { type: 'boolean' }, 'without-search-index': { type: 'boolean' } },
  });
  const [dir, dbFile] = positionals;
  if (dir === undefined || dbFile === undefined) {
    throw new Error('usage: node bench/import-data.ts DATA_DIR DATABASE_FILE [--snapshot-only] [--no-reimport] [--without-search-index]');
  }
  const postgres = /^postgres(ql)?:\/\//.test(dbFile);
  if (values['without-search-index'] === true && postgres) throw new Error('--without-search-index is for SQLite files only');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as GenerateManifest;
  const deps =
    values['without-search-index'] === true
      ? withStore(new SqliteStore({ path: dbFile, searchIndex: false }))
      : await createDeps(loadConfig({ DATABASE_URL: postgres ? dbFile : `sqlite:${dbFile}`, LOG_LEVEL: 'silent' }));
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 200);
  try {
    const snapshots = manifest.imports.filter((i) => i.mode === 'snapshot');
    const deltas = values['snapshot-only'] === true ? [] : manifest.imports.filter((i) => i.mode !== 'snapshot');
    const none = { added: 0, revised: 0, retired: 0, reactivated: 0 };

    process.stderr.write(`importing release 1 (${manifest.codes} codes, ${snapshots.length} snapshot files)\n`);
    const snapshotFiles = [];
    for (const entry of snapshots) {
      const { summary, ms } = await importOne(deps.store, dir, entry);
      check(entry, summary, entry.expected);
      snapshotFiles.push({ system: entry.system, rows: entry.rows, ms: Math.round(ms) });
    }
    const reimportFiles = [];
    if (values['no-reimport'] !== true) process.stderr.write('importing release 1 again (no change expected)\n');
    for (const entry of values['no-reimport'] === true ? [] : snapshots) {
      const { summary, ms } = await importOne(deps.store, dir, entry);
      check(entry, summary, none);
      reimportFiles.push({ system: entry.system, rows: entry.rows, ms: Math.round(ms) });
    }
    if (deltas.length > 0) process.stderr.write(`importing ${deltas.length} delta files\n`);
    const deltaStarted = performance.now();
    for (const entry of deltas) check(entry, (await importOne(deps.store, dir, entry)).summary, entry.expected);
    const deltasMs = performance.now() - deltaStarted;
    // Before the count below: it reads every code through the server connection's memory map, which the imports never do.
    const peakRssMb = Math.round(Math.max(peakRss, process.memoryUsage.rss()) / 1e6);
    clearInterval(sampler);

    const timings: ImportTimings = {
      codes: await deps.store.countCodes(),
      changes: manifest.changes,
      snapshotMs: snapshotFiles.reduce((a, f) => a + f.ms, 0),
      snapshotFiles,
      reimportMs: reimportFiles.reduce((a, f) => a + f.ms, 0),
      reimportFiles,
      deltasMs: Math.round(deltasMs),
      deltaFiles: deltas.length,
      peakRssMb,
    };
    process.stdout.write(`${JSON.stringify(timings)}\n`);
  } finally {
    clearInterval(sampler);
    await deps.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`import-data: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
