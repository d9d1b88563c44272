/**
 * A synthetic, deterministic code set for benchmarks and tests: CSV files that
 * `codebook import` loads, and a manifest that says in which order.
 *
 * Release 1 is a snapshot of every system (N "added" changes on the first
 * date); each later release is a delta on a later date that revises, retires
 * or reactivates about (M - N) / (D - 1) codes, so a database that imports
 * them all holds N codes and M changes over D effective dates.
 *
 * Every record is a pure function of (seed, system, code index, revision), so
 * the generator keeps two small counters per code and never more than one
 * row in memory; the files are written in 1 MB chunks.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidRequest } from '../../errors.ts';
import type { ChangeType } from '../../domain/records.ts';
import { hash, Random } from './random.ts';
import { ACTIVE, csvRow, DEPRECATED, digits, RETIRED, SYSTEMS, type SystemSpec } from './systems.ts';

export { SYSTEMS } from './systems.ts';

export interface GenerateRequest {
  /** Codes in the data set (N). */
  codes: number;
  /** Changes in all, the N "added" of the first release included (M ≥ N). */
  changes: number;
  /** Effective dates, one release each (D ≥ 1). */
  dates: number;
  seed: number;
  /** Folder to write to: created when missing, refused when not empty. */
  out: string;
}

/** Rows written so far of all the rows to write, for a progress bar. */
export type GenerateProgress = (done: number, total: number) => void;

export interface GeneratedImport {
  /** File name, relative to the manifest. */
  file: string;
  system: string;
  release: string;
  effective_date: string;
  mode: 'snapshot' | 'delta';
  format: 'csv';
  rows: number;
  /** The changes importing this file records, in release order. */
  expected: Record<ChangeType, number>;
}

/** What `codebook import` (runImport's request) is given for a manifest entry, its file found in the manifest's directory. */
export interface EntryImport {
  file: string;
  system: string;
  release: string;
  effectiveDate: string;
  format: GeneratedImport['format'];
  mode: GeneratedImport['mode'];
}

/** The import of a manifest entry, its file found in the manifest's directory. */
export function importRequestOf(dir: string, entry: GeneratedImport): EntryImport {
  return {
    file: join(dir, entry.file),
    system: entry.system,
    release: entry.release,
    effectiveDate: entry.effective_date,
    format: entry.format,
    mode: entry.mode,
  };
}

export interface GenerateManifest {
  generator: 'codebook generate';
  version: 1;
  codes: number;
  changes: number;
  dates: number;
  seed: number;
  systems: { system: string; codes: number }[];
  /** In the order they must be imported: by effective date, then system. */
  imports: GeneratedImport[];
}

export interface GenerateSummary {
  manifest: GenerateManifest;
  files: number;
  bytes: number;
  durationMs: number;
}

export const MAX_CODES = 50_000_000;
export const MAX_DATES = 1200;
const FIRST_YEAR = 2024;

/** Checks a request before anything is written; throws InvalidRequest with the reason. */
export function validateGenerateRequest(req: GenerateRequest): void {
  const int = (value: number, name: string, min: number, max: number) => {
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidRequest((named) => `${named(name)} must be an integer from ${min} to ${max} (got ${value})`);
    }
  };
  int(req.codes, 'codes', 1, MAX_CODES);
  int(req.dates, 'dates', 1, MAX_DATES);
  int(req.changes, 'changes', req.codes, Number.MAX_SAFE_INTEGER);
  int(req.seed, 'seed', 0, 0xffffffff);
  const perRelease = req.dates === 1 ? 0 : Math.ceil((req.changes - req.codes) / (req.dates - 1));
  if (req.dates === 1 && req.changes !== req.codes) {
    throw new InvalidRequest(
      (name) => `with ${name('dates')} 1 there is only the first snapshot: ${name('changes')} must equal ${name('codes')} (${req.codes})`,
    );
  }
  if (perRelease > req.codes) {
    throw new InvalidRequest(
      (name) =>
        `${name('changes')} ${req.changes} over ${req.dates} dates needs ${perRelease} changes per release, more than the ${req.codes} codes; raise ${name('dates')} or lower ${name('changes')}`,
    );
  }
}

/** Text written in ~1 MB chunks: a file is never held in memory whole. */
class ChunkedFile {
  private chunk = '';
  bytes = 0;
  private readonly handle: FileHandle;
  private constructor(handle: FileHandle) {
    this.handle = handle;
  }
  static async create(path: string): Promise<ChunkedFile> {
    return new ChunkedFile(await open(path, 'wx'));
  }
  async write(text: string): Promise<void> {
    this.chunk += text;
    if (this.chunk.length >= 1 << 20) await this.flush();
  }
  private async flush(): Promise<void> {
    if (this.chunk === '') return;
    const buffer = Buffer.from(this.chunk, 'utf8');
    this.chunk = '';
    this.bytes += buffer.length;
    await this.handle.write(buffer);
  }
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.handle.close();
    }
  }
}

function effectiveDate(release: number): string {
  const month = release - 1;
  return `${FIRST_YEAR + Math.floor(month / 12)}-${digits((month % 12) + 1, 2)}-01`;
}

/** n split over parts in proportion to weights, exactly (largest-remainder by cumulative floors). */
function split(n: number, weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  let cumulative = 0;
  let given = 0;
  return weights.map((w) => {
    cumulative += w;
    const upTo = Math.floor((n * cumulative) / total + 1e-9);
    const share = upTo - given;
    given = upTo;
    return share;
  });
}

function ensureEmptyFolder(dir: string): void {
  // Before mkdir, which fails on a file with a bare EEXIST.
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InvalidRequest((name) => `${name('out')} ${dir} is not a folder`);
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length > 0) throw new InvalidRequest((name) => `${name('out')} ${dir} is not empty; choose a new or empty folder`);
}

export async function generateDataSet(req: GenerateRequest, onProgress: GenerateProgress = () => undefined): Promise<GenerateSummary> {
  const started = performance.now();
  validateGenerateRequest(req);
  ensureEmptyFolder(req.out);
  const { seed } = req;

  // Systems too small to get a code are left out.
  const sizes = split(
    req.codes,
    SYSTEMS.map((s) => s.share),
  );
  const systems = SYSTEMS.map((spec, s) => ({ spec, s, size: sizes[s]! })).filter((x) => x.size > 0);
  const revision = systems.map((x) => new Uint16Array(x.size));
  const status = systems.map((x) => new Uint8Array(x.size));
  // A permutation per system, partly reshuffled each release to draw distinct codes.
  const order = systems.map((x) => Int32Array.from({ length: x.size }, (_, i) => i));

  const imports: GeneratedImport[] = [];
  const total = req.changes;
  let done = 0;
  let bytes = 0;
  const releaseName = (r: number) => effectiveDate(r).slice(0, 7);
  const fileName = (r: number, system: string, mode: string) => `r${digits(r, String(req.dates).length)}-${effectiveDate(r)}-${system}-${mode}.csv`;
  const header = (spec: SystemSpec) => `${['code', 'display', 'definition', 'status', 'parents', ...spec.attributes].join(',')}\n`;

  /** Writes one import file (header, then the rows writeRows writes) and records it in the manifest. */
  const writeImport = async (
    r: number,
    spec: SystemSpec,
    mode: 'snapshot' | 'delta',
    writeRows: (write: (row: string) => Promise<void>) => Promise<Record<ChangeType, number>>,
  ): Promise<void> => {
    const file = fileName(r, spec.name, mode);
    const out = await ChunkedFile.create(join(req.out, file));
    let expected: Record<ChangeType, number>;
    try {
      await out.write(header(spec));
      expected = await writeRows(async (row) => {
        await out.write(row);
        if (++done % 10_000 === 0) onProgress(done, total);
      });
    } finally {
      await out.close();
    }
    bytes += out.bytes;
    // Every row records exactly one change.
    const rows = expected.added + expected.revised + expected.retired + expected.reactivated;
    imports.push({ file, system: spec.name, release: releaseName(r), effective_date: effectiveDate(r), mode, format: 'csv', rows, expected });
  };

  // Release 1: every code, a few of them deprecated from the start.
  for (const [k, { spec, s, size }] of systems.entries()) {
    await writeImport(1, spec, 'snapshot', async (write) => {
      for (let i = 0; i < size; i++) {
        if (hash(seed, s, i, 7) % 100 < 3) status[k]![i] = DEPRECATED;
        await write(csvRow(seed, s, spec, i, 0, status[k]![i]!));
      }
      return { added: size, revised: 0, retired: 0, reactivated: 0 };
    });
  }

  // Releases 2..D: deltas of distinct codes of each system.
  const perRelease =
    req.dates > 1
      ? split(
          req.changes - req.codes,
          Array.from({ length: req.dates - 1 }, () => 1),
        )
      : [];
  for (let r = 2; r <= req.dates; r++) {
    const rnd = new Random(hash(seed, 0x5e1ec7, r));
    const counts = split(
      perRelease[r - 2]!,
      systems.map((x) => x.size),
    );
    for (const [k, { spec, s, size }] of systems.entries()) {
      const count = counts[k]!;
      if (count === 0) continue;
      const perm = order[k]!;
      for (let i = 0; i < count; i++) {
        const j = i + rnd.int(size - i);
        const t = perm[i]!;
        perm[i] = perm[j]!;
        perm[j] = t;
      }
      const chosen = perm.slice(0, count).sort();
      await writeImport(r, spec, 'delta', async (write) => {
        const expected: Record<ChangeType, number> = { added: 0, revised: 0, retired: 0, reactivated: 0 };
        for (const i of chosen) {
          const current = status[k]![i]!;
          const roll = rnd.next();
          if (current === RETIRED) {
            status[k]![i] = ACTIVE;
            expected.reactivated++;
          } else if (roll < 0.1) {
            status[k]![i] = RETIRED;
            expected.retired++;
          } else if (roll < 0.14) {
            status[k]![i] = current === ACTIVE ? DEPRECATED : ACTIVE;
            expected.revised++;
          } else {
            revision[k]![i]!++;
            expected.revised++;
          }
          await write(csvRow(seed, s, spec, i, revision[k]![i]!, status[k]![i]!));
        }
        return expected;
      });
    }
  }
  onProgress(total, total);

  const manifest: GenerateManifest = {
    generator: 'codebook generate',
    version: 1,
    codes: req.codes,
    changes: req.changes,
    dates: req.dates,
    seed,
    systems: systems.map((x) => ({ system: x.spec.name, codes: x.size })),
    imports,
  };
  await writeFile(join(req.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(req.out, 'import.sh'), importScript(manifest), { mode: 0o755 });
  return { manifest, files: imports.length + 2, bytes, durationMs: Math.round(performance.now() - started) };
}

/** The imports as shell commands, in order, for an operator who wants them by hand. */
function importScript(manifest: GenerateManifest): string {
  const lines = [
    '#!/bin/sh',
    `# Generated by: codebook generate --codes ${manifest.codes} --changes ${manifest.changes} --dates ${manifest.dates} --seed ${manifest.seed}`,
    '# Loads the data set into the database DATABASE_URL names, in the order it must be imported.',
    'set -e',
    'dir="$(dirname "$0")"',
    ...manifest.imports.map(
      (i) => `npx codebook import "$dir/${i.file}" --system ${i.system} --release ${i.release} --effective-date ${i.effective_date} --mode ${i.mode}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
