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
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidRequest } from '../errors.ts';
import type { ChangeType, CodeStatus } from '../domain/records.ts';

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
      throw new InvalidRequest(`${name} must be an integer from ${min} to ${max} (got ${value})`);
    }
  };
  int(req.codes, '--codes', 1, MAX_CODES);
  int(req.dates, '--dates', 1, MAX_DATES);
  int(req.changes, '--changes', req.codes, Number.MAX_SAFE_INTEGER);
  int(req.seed, '--seed', 0, 0xffffffff);
  const perRelease = req.dates === 1 ? 0 : Math.ceil((req.changes - req.codes) / (req.dates - 1));
  if (req.dates === 1 && req.changes !== req.codes) {
    throw new InvalidRequest(`with --dates 1 there is only the first snapshot: --changes must equal --codes (${req.codes})`);
  }
  if (perRelease > req.codes) {
    throw new InvalidRequest(
      `--changes ${req.changes} over ${req.dates} dates needs ${perRelease} changes per release, more than the ${req.codes} codes; raise --dates or lower --changes`,
    );
  }
}

// ---------------------------------------------------------------------------
// Deterministic randomness: a hash of integers seeds a tiny PRNG per record.

/** murmur3's 32-bit finaliser over a running hash: good avalanche, no state. */
function mix(h: number, value: number): number {
  h = Math.imul(h ^ value, 0xcc9e2d51);
  h = (h << 15) | (h >>> 17);
  h = Math.imul(h, 0x1b873593);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function hash(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) h = mix(h, v);
  return h;
}

/** mulberry32: a 32-bit state PRNG, enough for synthetic text. */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

// ---------------------------------------------------------------------------
// Text

const WORDS = [
  'acute', 'chronic', 'primary', 'secondary', 'partial', 'complete', 'lateral', 'medial', 'upper', 'lower',
  'anterior', 'posterior', 'left', 'right', 'bilateral', 'recurrent', 'initial', 'subsequent', 'open', 'closed',
  'fracture', 'infection', 'lesion', 'disorder', 'syndrome', 'injury', 'deficiency', 'obstruction', 'inflammation', 'stenosis',
  'femur', 'tibia', 'radius', 'ulna', 'humerus', 'clavicle', 'vertebra', 'kidney', 'liver', 'lung',
  'artery', 'vein', 'nerve', 'tendon', 'ligament', 'cartilage', 'membrane', 'gland', 'valve', 'duct',
  'steel', 'copper', 'aluminium', 'cotton', 'wool', 'polymer', 'ceramic', 'glass', 'timber', 'paper',
  'machine', 'apparatus', 'component', 'assembly', 'fitting', 'fastener', 'container', 'instrument', 'sensor', 'motor',
  'serum', 'plasma', 'urine', 'blood', 'tissue', 'fluid', 'specimen', 'culture', 'antibody', 'antigen',
  'with', 'without', 'of', 'and', 'or', 'for', 'in', 'due to', 'not elsewhere classified', 'unspecified',
] as const;

const QUALIFIERS = [
  'type A', 'type B', 'type C', 'grade I', 'grade II', 'grade III', 'stage 1', 'stage 2', 'class X', 'class Y',
  'variant 1', 'variant 2', 'form a', 'form b', 'series 100', 'series 200', 'mark II', 'mark III',
] as const;

const SENTENCES = [
  'Used when the condition is confirmed by examination',
  'Includes cases documented in the referral',
  'Excludes forms described under a more specific code',
  'Applies to goods presented in bulk or in retail packages',
  'Measured in the specimen as received by the laboratory',
  'Reported once per episode of care',
  'Covers parts and accessories not specified elsewhere',
  'Use an additional code to identify the cause',
  'Assign only when no more specific code applies',
  'Valid for claims submitted after the effective date',
] as const;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** 20 to 60 characters of words, ending in a qualifier that rotates with the version. */
function displayText(seed: number, system: number, index: number, version: number): string {
  const rnd = new Random(hash(seed, system, index, 1, version));
  const target = 20 + rnd.int(41);
  const qualifier = QUALIFIERS[(hash(seed, system, index, 2) + version) % QUALIFIERS.length]!;
  let text = capitalise(rnd.pick(WORDS));
  // Leave room for ", " + qualifier; a comma now and then exercises CSV quoting.
  while (text.length + 1 + rnd.pick(WORDS).length + 2 + qualifier.length <= target) text += ` ${rnd.pick(WORDS)}`;
  text += `${rnd.int(3) === 0 ? ',' : ''} ${qualifier}`;
  return text.length > 60 ? text.slice(0, 60).trimEnd() : text;
}

/** One or two sentences; null for one code in ten until its first revision. */
function definitionText(seed: number, system: number, index: number, version: number): string | null {
  if (version === 0 && hash(seed, system, index, 3) % 10 === 0) return null;
  const rnd = new Random(hash(seed, system, index, 4, version));
  let text = `${rnd.pick(SENTENCES)}.`;
  if (rnd.int(2) === 0) text += ` ${capitalise(rnd.pick(WORDS))} ${rnd.pick(WORDS)} "${rnd.pick(WORDS)}" excluded.`;
  return `${text} Revision ${version}.`;
}

// ---------------------------------------------------------------------------
// Systems: four shapes of code, two of them hierarchical.

interface SystemSpec {
  name: string;
  share: number;
  attributes: readonly string[];
  /** Codes under one parent (the first code of each block); 0: no parents. */
  block: number;
  code(index: number): string;
  /** Values of the attribute columns; the first rotates with the version. */
  attributeValues(rnd: Random, version: number, salt: number): string[];
}

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const ALNUM = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

function digits(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function alnum(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALNUM[n % ALNUM.length]! + out;
    n = Math.floor(n / ALNUM.length);
  }
  return out;
}

const CHAPTERS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];
const UNITS = ['kg', 'u', 'l', 'm2', 'pair', 'doz', 'm3', 'kWh'];
const SCALES = ['Qn', 'Ord', 'Nom', 'Nar', 'OrdQn'];
const METHODS = ['Immunoassay', 'Microscopy', 'Culture', 'Calculated', 'Probe', ''];
const APPROACHES = ['Open', 'Percutaneous', 'Endoscopic', 'External', 'Via natural opening'];

export const SYSTEMS: readonly SystemSpec[] = [
  {
    // Diagnosis-like: K035 is a category, K035.07 a code under it.
    name: 'dx',
    share: 0.4,
    attributes: ['chapter', 'billable', 'sex'],
    block: 12,
    code(i) {
      const category = Math.floor(i / 12);
      const head = `${LETTERS[category % LETTERS.length]}${digits(Math.floor(category / LETTERS.length), 3)}`;
      const child = i % 12;
      return child === 0 ? head : `${head}.${child < 10 ? child : digits(child * 7, 2)}`;
    },
    attributeValues(rnd, version, salt) {
      return [CHAPTERS[(salt + version) % CHAPTERS.length]!, rnd.int(5) === 0 ? 'false' : 'true', rnd.pick(['', '', 'F', 'M'])];
    },
  },
  {
    // Procedure-like: seven characters in two groups, 0DT-J4ZZ (a multiplier prime to 34^7 keeps them unique).
    name: 'px',
    share: 0.3,
    attributes: ['body_part', 'approach'],
    block: 0,
    code(i) {
      const text = alnum((i * 2_654_435_761) % 34 ** 7, 7);
      return `${text.slice(0, 3)}-${text.slice(3)}`;
    },
    attributeValues(rnd, version, salt) {
      return [WORDS[30 + ((salt + version) % 20)]!, rnd.pick(APPROACHES)];
    },
  },
  {
    // Tariff-like: 8471.30.01, grouped under the block's first line.
    name: 'tariff',
    share: 0.2,
    attributes: ['unit', 'duty_rate', 'chapter'],
    block: 8,
    code(i) {
      const n = digits(i, 8);
      return `${n.slice(0, 4)}.${n.slice(4, 6)}.${n.slice(6)}`;
    },
    attributeValues(rnd, version, salt) {
      return [UNITS[(salt + version) % UNITS.length]!, `${rnd.int(25)}.${rnd.int(10)}%`, digits(1 + rnd.int(97), 2)];
    },
  },
  {
    // Lab-like: a number and a check digit, 10003-4.
    name: 'lab',
    share: 0.1,
    attributes: ['scale', 'method'],
    block: 0,
    code(i) {
      const n = 10_000 + i * 3;
      let sum = 0;
      for (const c of String(n)) sum += Number(c);
      return `${n}-${sum % 10}`;
    },
    attributeValues(rnd, version, salt) {
      return [SCALES[(salt + version) % SCALES.length]!, rnd.pick(METHODS)];
    },
  },
];

// ---------------------------------------------------------------------------
// Records and CSV

const STATUS_TEXT: readonly CodeStatus[] = ['active', 'deprecated', 'retired'];
const ACTIVE = 0;
const DEPRECATED = 1;
const RETIRED = 2;

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A revision changes one field at a time, in turn: display, definition,
 * attributes. Each field's own version says how often it has changed.
 */
function csvRow(seed: number, s: number, spec: SystemSpec, index: number, revision: number, status: number): string {
  const displayVersion = Math.floor((revision + 2) / 3);
  const definitionVersion = Math.floor((revision + 1) / 3);
  const attributeVersion = Math.floor(revision / 3);
  const parent = spec.block > 0 && index % spec.block !== 0 ? spec.code(index - (index % spec.block)) : '';
  const rnd = new Random(hash(seed, s, index, 5, attributeVersion));
  const cells = [
    spec.code(index),
    displayText(seed, s, index, displayVersion),
    definitionText(seed, s, index, definitionVersion) ?? '',
    STATUS_TEXT[status]!,
    parent,
    ...spec.attributeValues(rnd, attributeVersion, hash(seed, s, index, 6)),
  ];
  return `${cells.map(csvCell).join(',')}\n`;
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
  mkdirSync(dir, { recursive: true });
  if (!statSync(dir).isDirectory()) throw new InvalidRequest(`--out ${dir} is not a folder`);
  if (readdirSync(dir).length > 0) throw new InvalidRequest(`--out ${dir} is not empty; choose a new or empty folder`);
}

export async function generateDataSet(req: GenerateRequest, onProgress: GenerateProgress = () => undefined): Promise<GenerateSummary> {
  const started = performance.now();
  validateGenerateRequest(req);
  ensureEmptyFolder(req.out);
  const { seed } = req;

  // Systems too small to get a code are left out.
  const sizes = split(req.codes, SYSTEMS.map((s) => s.share));
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

  // Release 1: every code, a few of them deprecated from the start.
  for (const [k, { spec, s, size }] of systems.entries()) {
    const file = fileName(1, spec.name, 'snapshot');
    const out = await ChunkedFile.create(join(req.out, file));
    try {
      await out.write(header(spec));
      for (let i = 0; i < size; i++) {
        if (hash(seed, s, i, 7) % 100 < 3) status[k]![i] = DEPRECATED;
        await out.write(csvRow(seed, s, spec, i, 0, status[k]![i]!));
        if (++done % 10_000 === 0) onProgress(done, total);
      }
    } finally {
      await out.close();
    }
    bytes += out.bytes;
    imports.push({
      file,
      system: spec.name,
      release: releaseName(1),
      effective_date: effectiveDate(1),
      mode: 'snapshot',
      format: 'csv',
      rows: size,
      expected: { added: size, revised: 0, retired: 0, reactivated: 0 },
    });
  }

  // Releases 2..D: deltas of distinct codes of each system.
  const perRelease = req.dates > 1 ? split(req.changes - req.codes, Array.from({ length: req.dates - 1 }, () => 1)) : [];
  for (let r = 2; r <= req.dates; r++) {
    const rnd = new Random(hash(seed, 0x5e1ec7, r));
    const counts = split(perRelease[r - 2]!, systems.map((x) => x.size));
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
      const expected: Record<ChangeType, number> = { added: 0, revised: 0, retired: 0, reactivated: 0 };
      const file = fileName(r, spec.name, 'delta');
      const out = await ChunkedFile.create(join(req.out, file));
      try {
        await out.write(header(spec));
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
          await out.write(csvRow(seed, s, spec, i, revision[k]![i]!, status[k]![i]!));
          if (++done % 10_000 === 0) onProgress(done, total);
        }
      } finally {
        await out.close();
      }
      bytes += out.bytes;
      imports.push({
        file,
        system: spec.name,
        release: releaseName(r),
        effective_date: effectiveDate(r),
        mode: 'delta',
        format: 'csv',
        rows: count,
        expected,
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
