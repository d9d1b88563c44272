/**
 * `npm run bench -- --large [--codes N]`: the import of a 5 000 000-code
 * snapshot (four systems, two of them hierarchical) and its no-change
 * re-import, timed, with the importing process's peak RSS. A run of its own,
 * not part of CI: the files alone are ~0.7 GB and the import takes minutes.
 * The generated files are kept under bench/data/ like the other data sets;
 * the database is a scratch file, removed afterwards.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_ROOT, dataKey, generateFiles, IMPORT_FLAGS, removeDatabase, runChild } from './data.ts';
import type { ImportTimings } from './import-data.ts';
import { RESULTS } from './setup.ts';

const { values } = parseArgs({ options: { large: { type: 'boolean' }, codes: { type: 'string', default: '5000000' } }, strict: false });
const codes = Number(values.codes);
const params = { codes, changes: codes, dates: 2, seed: 1 };
const dir = join(DATA_ROOT, dataKey(params));
const files = join(dir, 'files');
const log = (line: string) => process.stderr.write(`${line}\n`);

if (!existsSync(join(files, 'manifest.json'))) {
  mkdirSync(dir, { recursive: true });
  log(`large: generating ${codes} codes in ${files}`);
  await generateFiles(params, files);
}
const scratch = join(dir, 'scratch.db');
const remove = () => removeDatabase(scratch);
remove();
const load = loadavg()[0]!.toFixed(2);
log(`large: importing the ${codes}-code snapshot and re-importing it (load average ${load})`);
try {
  const timings = JSON.parse(await runChild([...IMPORT_FLAGS, 'bench/import-data.ts', files, scratch, '--snapshot-only'])) as ImportTimings;
  const result = {
    codes,
    snapshotMs: timings.snapshotMs,
    reimportMs: timings.reimportMs,
    peakRssMb: timings.peakRssMb,
    loadAtStart: load,
    loadAtEnd: loadavg()[0]!.toFixed(2),
    timings,
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'latest-large.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `import of ${codes} codes: snapshot ${(timings.snapshotMs / 1000).toFixed(1)} s (target ≤ 240 s), re-import ${(timings.reimportMs / 1000).toFixed(1)} s, ` +
      `peak RSS ${timings.peakRssMb} MB (target ≤ 300 MB); load average ${load} → ${result.loadAtEnd}\n`,
  );
} finally {
  remove();
}
