/**
 * The benchmark's data: generated once per set of parameters under
 * bench/data/<key>/ and imported into a database there, then reused. The
 * import timings of the build are kept beside it (build.json), so a later run
 * reports them without importing a million codes again; --rebuild measures
 * them afresh.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMPORT_HEAP_FLAGS } from '../src/cli/bounded-heap.ts';
import type { GenerateManifest } from '../src/tools/generate/data-set.ts';
import { databaseFiles } from '../src/store/sqlite/activity.ts';
import type { ImportTimings } from './import-data.ts';

export const ROOT = join(import.meta.dirname, '..');
export const DATA_ROOT = join(ROOT, 'bench', 'data');

export interface DataParams {
  codes: number;
  changes: number;
  dates: number;
  seed: number;
}

/** The data sets of the full bench and of the quick one (CI's), less the seed. */
export const FULL_DATA = { codes: 1_000_000, changes: 2_000_000, dates: 24 };
export const QUICK_DATA = { codes: 20_000, changes: 40_000, dates: 6 };

export interface BenchData {
  dir: string;
  dbFile: string;
  manifest: GenerateManifest;
  build: BuildRecord;
  /** True when an earlier run built it. */
  reused: boolean;
}

export interface BuildRecord {
  params: DataParams;
  builtAt: string;
  generateMs: number;
  imports: ImportTimings;
}

/** V8 flags of the importing child: the ones `codebook import` runs with (src/cli/bounded-heap.ts). */
export const IMPORT_FLAGS = IMPORT_HEAP_FLAGS;

export function dataKey(p: DataParams): string {
  return `c${p.codes}-m${p.changes}-d${p.dates}-s${p.seed}`;
}

/** Runs a child on this Node.js; resolves with its stdout (or sends it to stderr), rejects on a non-zero exit. */
export function runChild(args: string[], options: { stdoutToStderr?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', options.stdoutToStderr ? process.stderr : 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${args.join(' ')} exited with ${signal ?? code}`));
    });
  });
}

export async function ensureData(params: DataParams, options: { rebuild: boolean; log: (line: string) => void }): Promise<BenchData> {
  const dir = join(DATA_ROOT, dataKey(params));
  const filesDir = join(dir, 'files');
  const dbFile = join(dir, 'codebook.db');
  const buildFile = join(dir, 'build.json');

  if (!options.rebuild && existsSync(buildFile) && existsSync(dbFile)) {
    const build = JSON.parse(readFileSync(buildFile, 'utf8')) as BuildRecord;
    const manifest = JSON.parse(readFileSync(join(filesDir, 'manifest.json'), 'utf8')) as GenerateManifest;
    options.log(`data: reusing ${dir} (built ${build.builtAt})`);
    return { dir, dbFile, manifest, build, reused: true };
  }

  // The generated files are kept when only the database is rebuilt: they are a pure function of the parameters.
  const manifestFile = join(filesDir, 'manifest.json');
  let generateMs = 0;
  if (!existsSync(manifestFile)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    options.log(`data: generating ${params.codes} codes, ${params.changes} changes over ${params.dates} dates (seed ${params.seed}) in ${filesDir}`);
    const started = performance.now();
    await generateFiles(params, filesDir);
    generateMs = Math.round(performance.now() - started);
  }
  removeDatabase(dbFile);
  rmSync(buildFile, { force: true });
  options.log(`data: importing into ${dbFile}`);
  const imports = JSON.parse(await runChild([...IMPORT_FLAGS, 'bench/import-data.ts', filesDir, dbFile])) as ImportTimings;
  const build: BuildRecord = { params, builtAt: new Date().toISOString(), generateMs, imports };
  writeFileSync(buildFile, `${JSON.stringify(build, null, 2)}\n`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as GenerateManifest;
  return { dir, dbFile, manifest, build, reused: false };
}

/** The snapshot import and its re-import timed again, on a scratch database that is removed afterwards. */
export async function timeSnapshotImport(data: BenchData, log: (line: string) => void): Promise<ImportTimings> {
  const scratch = join(data.dir, 'scratch.db');
  removeDatabase(scratch);
  log(`data: timing the snapshot import and its re-import again, on ${scratch}`);
  try {
    return JSON.parse(await runChild([...IMPORT_FLAGS, 'bench/import-data.ts', join(data.dir, 'files'), scratch, '--snapshot-only'])) as ImportTimings;
  } finally {
    removeDatabase(scratch);
  }
}

/** Writes the CSV files of a data set into filesDir (`codebook generate`), its output on stderr. */
export async function generateFiles(params: DataParams, filesDir: string): Promise<void> {
  const args = ['--codes', params.codes, '--changes', params.changes, '--dates', params.dates, '--seed', params.seed].map(String);
  await runChild(['bin/codebook.js', 'generate', ...args, '--out', filesDir], { stdoutToStderr: true });
}

/** Removes a SQLite database file and the files beside it (WAL, shared memory, activity file). */
export function removeDatabase(file: string): void {
  for (const path of databaseFiles(file)) rmSync(path, { force: true });
}
