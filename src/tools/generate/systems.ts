/**
 * The code systems of a synthetic data set (four shapes of code, two of them
 * hierarchical) and each code's CSV row at a revision.
 */
import type { CodeStatus } from '../../domain/records.ts';
import { hash, Random } from './random.ts';
import { definitionText, displayText, WORDS } from './text.ts';

export interface SystemSpec {
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
