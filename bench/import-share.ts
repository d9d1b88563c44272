/**
 * `npm run bench -- --import-share [--pairs P] [--quick]`: what the search
 * index costs the snapshot import on SQLite (issue 13: the import with the
 * index maintained within 1.5× of the import without it). Each pair imports
 * the bench's release 1 (the snapshot of every system) twice, each time into
 * a fresh scratch file: with the search index, then without its writes
 * (`bench/import-data.ts --without-search-index`). Its ratio is the first
 * time over the second; the run reports the median of the pairs with their
 * spread, and flags pairs that disagree by more than 15 % (pairs.ts). A run
 * of its own, not part of the full bench: a pair takes ~2 minutes at
 * 1 000 000 codes. The generated files are the full bench's (or the quick
 * one's), generated here when missing; the scratch files are removed.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_ROOT, dataKey, FULL_DATA, generateFiles, IMPORT_FLAGS, QUICK_DATA, removeDatabase, runChild } from './data.ts';
import { DISAGREEMENT_LIMIT, median, ratioSpread } from './pairs.ts';
import type { ImportTimings } from './import-data.ts';
import { RESULTS } from './setup.ts';

/** Issue 13: the snapshot import with the search index within this multiple of the import without it. */
const TARGET = 1.5;

const { values } = parseArgs({
  options: { 'import-share': { type: 'boolean' }, quick: { type: 'boolean', default: false }, pairs: { type: 'string' } },
  strict: false,
});
const quick = values.quick === true;
const pairs = Number(values.pairs ?? (quick ? 1 : 3));
if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`--pairs must be a whole number of at least 1, not ${String(values.pairs)}`);
// The full and quick bench's data sets (seed 1, their default), so that their generated files are shared.
const params = { ...(quick ? QUICK_DATA : FULL_DATA), seed: 1 };
const dir = join(DATA_ROOT, dataKey(params));
const files = join(dir, 'files');
const log = (line: string) => process.stderr.write(`${line}\n`);

if (!existsSync(join(files, 'manifest.json'))) {
  mkdirSync(dir, { recursive: true });
  log(`import share: generating ${params.codes} codes in ${files}`);
  await generateFiles(params, files);
}

const scratch = join(dir, 'share-scratch.db');
const remove = () => removeDatabase(scratch);

/** The snapshot imported into a fresh scratch file, with or without the search index. */
async function timeSnapshot(withIndex: boolean): Promise<ImportTimings> {
  remove();
  try {
    const args = [...IMPORT_FLAGS, 'bench/import-data.ts', files, scratch, '--snapshot-only', '--no-reimport'];
    return JSON.parse(await runChild(withIndex ? args : [...args, '--without-search-index'])) as ImportTimings;
  } finally {
    remove();
  }
}

const load = loadavg()[0]!.toFixed(2);
log(`import share: ${pairs} pair(s) of the ${params.codes}-code snapshot, with the search index then without (load average ${load})`);
const runs: { withMs: number; withoutMs: number; ratio: number; withPeakRssMb: number }[] = [];
for (let i = 0; i < pairs; i++) {
  const withIndex = await timeSnapshot(true);
  const without = await timeSnapshot(false);
  const ratio = withIndex.snapshotMs / without.snapshotMs;
  runs.push({ withMs: withIndex.snapshotMs, withoutMs: without.snapshotMs, ratio, withPeakRssMb: withIndex.peakRssMb });
  log(`  pair ${i + 1}: ${(withIndex.snapshotMs / 1000).toFixed(1)} s with, ${(without.snapshotMs / 1000).toFixed(1)} s without: ${ratio.toFixed(2)}×`);
}
const result = {
  codes: params.codes,
  pairs: runs,
  ...ratioSpread(runs.map((r) => r.ratio)),
  target: TARGET,
  loadAtStart: load,
  loadAtEnd: loadavg()[0]!.toFixed(2),
};
mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, quick ? 'latest-import-share-quick.json' : 'latest-import-share.json'), `${JSON.stringify(result, null, 2)}\n`);
const seconds = (pick: (r: (typeof runs)[number]) => number) => (median(runs.map(pick)) / 1000).toFixed(1);
process.stdout.write(
  `search index's share of the ${params.codes}-code snapshot import: ${result.ratio.toFixed(2)}× ` +
    `(${result.ratioMin.toFixed(2)}–${result.ratioMax.toFixed(2)} over ${runs.length} pair(s); target ≤ ${TARGET}×)` +
    `${result.noisy ? `, NOISY: the pairs disagree by more than ${DISAGREEMENT_LIMIT * 100} %` : ''}; ` +
    `median ${seconds((r) => r.withMs)} s with the index, ${seconds((r) => r.withoutMs)} s without; load average ${load} → ${result.loadAtEnd}\n`,
);
