/**
 * Child process of the benchmark: imports a generated data set into a fresh
 * database, in manifest order, the way `codebook import` does (runImport on the
 * store the configuration names). Release 1 — the snapshot of every system —
 * is timed, then imported again (it must record no change) and timed again;
 * then the deltas follow. Each import's counts are checked against what the
 * generator says it wrote.
 *
 * usage: node bench/import-data.ts DATA_DIR DATABASE_FILE [--snapshot-only]
 * (DATABASE_FILE may be a postgres:// URL: the search bench's PostgreSQL figures.)
 * Progress goes to stderr; the timings, as one JSON line, to stdout. With
 * --snapshot-only the deltas are left out (to time the imports again).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { progressBar } from '../src/cli/progress.ts';
import { describeSummary } from '../src/cli/import.ts';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { importRequestOf, type GeneratedImport, type GenerateManifest } from '../src/tools/generate/data-set.ts';
import { runImport, type ImportSummary } from '../src/services/import/importer.ts';
import type { Store } from '../src/store/store.ts';

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

async function main(): Promise<void> {
  const [dir, dbFile, flag] = process.argv.slice(2);
  if (dir === undefined || dbFile === undefined) throw new Error('usage: node bench/import-data.ts DATA_DIR DATABASE_FILE [--snapshot-only]');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as GenerateManifest;
  const deps = await createDeps(loadConfig({ DATABASE_URL: /^postgres(ql)?:\/\//.test(dbFile) ? dbFile : `sqlite:${dbFile}`, LOG_LEVEL: 'silent' }));
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 200);
  try {
    const snapshots = manifest.imports.filter((i) => i.mode === 'snapshot');
    const deltas = flag === '--snapshot-only' ? [] : manifest.imports.filter((i) => i.mode !== 'snapshot');
    const none = { added: 0, revised: 0, retired: 0, reactivated: 0 };

    process.stderr.write(`importing release 1 (${manifest.codes} codes, ${snapshots.length} snapshot files)\n`);
    const snapshotFiles = [];
    for (const entry of snapshots) {
      const { summary, ms } = await importOne(deps.store, dir, entry);
      check(entry, summary, entry.expected);
      snapshotFiles.push({ system: entry.system, rows: entry.rows, ms: Math.round(ms) });
    }
    process.stderr.write('importing release 1 again (no change expected)\n');
    const reimportFiles = [];
    for (const entry of snapshots) {
      const { summary, ms } = await importOne(deps.store, dir, entry);
      check(entry, summary, none);
      reimportFiles.push({ system: entry.system, rows: entry.rows, ms: Math.round(ms) });
    }
    process.stderr.write(`importing ${deltas.length} delta files\n`);
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
