/**
 * The code systems of a synthetic data set (four shapes of code, three of
 * them hierarchical) and each code's CSV row at a revision.
 */
import type { CodeStatus } from '../../domain/records.ts';
import { hash, Random } from './random.ts';
import { definitionText, displayText, WORDS } from './text.ts';

export interface SystemSpec {
  name: string;
  share: number;
  attributes: readonly string[];
  /** The indexes of a code's parents (none for a root); a parent's index is always smaller, so there is no cycle. */
  parents(index: number): number[];
  code(index: number): string;
  /** Values of the attribute columns; the first rotates with the version. */
  attributeValues(rnd: Random, version: number, salt: number): string[];
}

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const ALNUM = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Codes under one parent: the first code of each block of `size`, two levels. */
function blocks(size: number): (index: number) => number[] {
  return (i) => (i % size === 0 ? [] : [i - (i % size)]);
}

/**
 * The lab system's graph: LAB_ROOTS roots, then every level LAB_FANOUT times
 * the one above (a heap laid out level by level: code i's first parent is
 * (i - LAB_ROOTS) / LAB_FANOUT), six levels deep at 100 000 codes. Every
 * LAB_SECOND_PARENT-th code from the third level down also has a second
 * parent: the next code of its first parent's level (or the one before, at
 * the level's end). Parents always sit on the level above, so there is no
 * cycle, and a code with two parents is reached by two paths from a root.
 */
export const LAB_ROOTS = 4;
export const LAB_FANOUT = 8;
export const LAB_SECOND_PARENT = 10;

/** [first, end) of the indexes of each level, as far as `size` codes reach. */
export function labLevels(size: number): [number, number][] {
  const levels: [number, number][] = [];
  for (let start = 0, width = LAB_ROOTS; start < size; start += width, width *= LAB_FANOUT) levels.push([start, Math.min(size, start + width)]);
  return levels;
}

function labParents(i: number): number[] {
  if (i < LAB_ROOTS) return [];
  const first = Math.floor((i - LAB_ROOTS) / LAB_FANOUT);
  if (first < LAB_ROOTS || i % LAB_SECOND_PARENT !== 0) return [first];
  // The first parent's level: [start, end), and the second parent beside it on the same level.
  let start = 0;
  let width = LAB_ROOTS;
  while (first >= start + width) {
    start += width;
    width *= LAB_FANOUT;
  }
  return [first, first + 1 < start + width ? first + 1 : first - 1];
}

export function digits(n: number, width: number): string {
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
    parents: blocks(12),
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
    parents: () => [],
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
    parents: blocks(8),
    code(i) {
      const n = digits(i, 8);
      return `${n.slice(0, 4)}.${n.slice(4, 6)}.${n.slice(6)}`;
    },
    attributeValues(rnd, version, salt) {
      return [UNITS[(salt + version) % UNITS.length]!, `${rnd.int(25)}.${rnd.int(10)}%`, digits(1 + rnd.int(97), 2)];
    },
  },
  {
    // Lab-like: a number and a check digit, 10003-4; a six-level graph where some codes have two parents (labParents).
    name: 'lab',
    share: 0.1,
    attributes: ['scale', 'method'],
    parents: labParents,
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

const STATUS_TEXT: readonly CodeStatus[] = ['active', 'deprecated', 'retired'];
export const ACTIVE = 0;
export const DEPRECATED = 1;
export const RETIRED = 2;

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A revision changes one field at a time, in turn: display, definition,
 * attributes. Each field's own version says how often it has changed.
 */
export function csvRow(seed: number, s: number, spec: SystemSpec, index: number, revision: number, status: number): string {
  const displayVersion = Math.floor((revision + 2) / 3);
  const definitionVersion = Math.floor((revision + 1) / 3);
  const attributeVersion = Math.floor(revision / 3);
  const parents = spec
    .parents(index)
    .map((p) => spec.code(p))
    .join(';');
  const rnd = new Random(hash(seed, s, index, 5, attributeVersion));
  const cells = [
    spec.code(index),
    displayText(seed, s, index, displayVersion),
    definitionText(seed, s, index, definitionVersion) ?? '',
    STATUS_TEXT[status]!,
    parents,
    ...spec.attributeValues(rnd, attributeVersion, hash(seed, s, index, 6)),
  ];
  return `${cells.map(csvCell).join(',')}\n`;
}
