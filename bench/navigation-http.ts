/**
 * The navigation scenarios (issue 14) over HTTP: each runs interleaved with
 * the read it is judged against, both on the server under test and on the
 * same connections (reference, scenario, reference, scenario…), so the ratio
 * of a pair is taken a few seconds apart on one machine state.
 *
 * - H1 children pages and H2 descendants pages (50 a page) against the list
 *   page of scenario 2 (uniform depths): p50 ≤ 1.5×.
 * - H3 ancestors of uniform lab codes against GET /v1/codes/{id} of the same
 *   codes: p50 ≤ 1.5×.
 * - A1 as-of get and A2 as-of list page at the middle date of the history
 *   against the same reads without as_of: p50 ≤ 1.5×.
 * - B1 POST /v1/codes/batch of 200 uniform ids against single gets (the ids
 *   of scenario 1): ids per second ≥ 20×.
 *
 * The lab system is the hierarchy (src/tools/generate/systems.ts: six levels
 * at 100 000 codes, some codes with two parents).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SYSTEMS, type GenerateManifest } from '../src/tools/generate/data-set.ts';
import { labLevels } from '../src/tools/generate/systems.ts';
import type { BenchData } from './data.ts';
import { httpGet } from './http.ts';
import type { LoadResult, RequestSource } from './load.ts';
import { median, ratioSpread, runPairs, type Pair } from './pairs.ts';
import { random } from './scenarios.ts';
import { walkCursors } from './setup.ts';

export interface NavScenario {
  id: string;
  title: string;
  /** What the scenario is judged against. */
  reference: string;
  /** p50 ratio (scenario ÷ reference, at most `target`) or ids per second (scenario ÷ reference, at least `target`). */
  measure: 'p50' | 'ids';
  target: number;
  /** Ids a request of the scenario reads (200 for a batch). */
  idsPerRequest: number;
  source: RequestSource;
  referenceSource: RequestSource;
}

export interface NavRecord {
  id: string;
  title: string;
  reference: string;
  measure: 'p50' | 'ids';
  target: number;
  pairs: Pair[];
  /** Median of the pairs' ratios, and their range. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  p50: number;
  referenceP50: number;
  requestsPerSecond: number;
  referenceRequestsPerSecond: number;
  pass: boolean;
}

export interface HistoryStorage {
  bytes: number;
  changes: number;
  bytesPerChange: number;
}

const BATCH = 200;
const LAB = SYSTEMS.find((s) => s.name === 'lab')!;

/** The date in the middle of the history: the effective date of the middle release. */
export function middleDate(manifest: GenerateManifest): string {
  const dates = [...new Set(manifest.imports.map((i) => i.effective_date))].sort();
  return dates[Math.floor(dates.length / 2)]!;
}

function writeLines(file: string, lines: string[]): string {
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function labId(i: number): string {
  return `lab:${encodeURIComponent(LAB.code(i))}`;
}

/** As-of cursors bind their date: collected by walking the as-of list once, kept beside the data. */
async function asOfCursors(data: BenchData, port: number, key: string, date: string, log: (line: string) => void): Promise<string[]> {
  const file = join(data.dir, `cursors-as-of-${date}.json`);
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as string[];
    const probe = cached.at(-1);
    if (probe && (await httpGet(port, `/v1/codes?as_of=${date}&limit=1&cursor=${probe}`, { authorization: `Bearer ${key}` })).status === 200) return cached;
  }
  const started = performance.now();
  const cursors = await walkCursors(port, key, `/v1/codes?as_of=${date}`);
  log(`cursors: walked ${cursors.length + 1} as-of pages (${date}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(file, JSON.stringify(cursors));
  return cursors;
}

/** The bytes the version table and its indexes take (SQLite's dbstat), per change recorded. */
export function historyStorage(dbFile: string): HistoryStorage {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const names = (db.prepare("SELECT name FROM sqlite_schema WHERE tbl_name = 'code_versions'").all() as { name: string }[]).map((r) => r.name);
    const marks = names.map(() => '?').join(', ');
    const bytes = Number((db.prepare(`SELECT sum(pgsize) AS b FROM dbstat WHERE name IN (${marks})`).get(...names) as { b: number }).b);
    const changes = Number((db.prepare('SELECT count(*) AS n FROM changes').get() as { n: number }).n);
    return { bytes, changes, bytesPerChange: changes === 0 ? 0 : bytes / changes };
  } finally {
    db.close();
  }
}

/** Writes the request files and returns the navigation scenarios, in the order they run. */
export async function navScenarios(
  dir: string,
  data: BenchData,
  port: number,
  keys: string[],
  listPages: string,
  ids: string,
  log: (line: string) => void,
): Promise<NavScenario[]> {
  const manifest = data.manifest;
  const labSize = manifest.systems.find((s) => s.system === 'lab')?.codes ?? 0;
  const levels = labLevels(labSize);
  if (levels.length < 3) throw new Error(`the lab system has ${labSize} codes: too few for a hierarchy`);
  const keysFile = join(dir, 'keys.txt');
  const uniform = (pathsFile: string): RequestSource => ({ pathsFile, pick: 'uniform', keys: keysFile });
  const date = middleDate(manifest);
  const rnd = random(14);

  // Codes with children: every level but the last; with 50 descendants or more: three levels or more above the last (8 + 64 + …).
  const parents = Array.from({ length: levels.at(-2)![1] }, (_, i) => labId(i));
  const upper = Array.from({ length: levels[Math.max(0, levels.length - 4)]![1] }, (_, i) => labId(i));
  const anyLab = Array.from({ length: labSize }, (_, i) => labId(i));
  const asOfPages = await asOfCursors(data, port, keys[0]!, date, log);
  const idLines = readFileSync(ids, 'utf8').trimEnd().split('\n');
  const batches = Array.from({ length: 2_000 }, () => {
    const chosen = Array.from({ length: BATCH }, () => decodeURIComponent(idLines[Math.floor(rnd() * idLines.length)]!.slice('/v1/codes/'.length)));
    return `/v1/codes/batch\t${JSON.stringify({ ids: chosen })}`;
  });

  const list = uniform(listPages);
  const get = uniform(ids);
  return [
    {
      id: 'H1',
      title: 'children, 50 a page, lab codes with children',
      reference: '2: GET /v1/codes?limit=50',
      measure: 'p50',
      target: 1.5,
      idsPerRequest: 1,
      source: uniform(
        writeLines(
          join(dir, 'children.txt'),
          parents.map((id) => `/v1/codes/${id}/children?limit=50`),
        ),
      ),
      referenceSource: list,
    },
    {
      id: 'H2',
      title: 'descendants, 50 a page, lab codes of the upper levels',
      reference: '2: GET /v1/codes?limit=50',
      measure: 'p50',
      target: 1.5,
      idsPerRequest: 1,
      source: uniform(
        writeLines(
          join(dir, 'descendants.txt'),
          upper.map((id) => `/v1/codes/${id}/descendants?limit=50`),
        ),
      ),
      referenceSource: list,
    },
    {
      id: 'H3',
      title: 'ancestors, any lab code',
      reference: 'GET /v1/codes/{id}, the same codes',
      measure: 'p50',
      target: 1.5,
      idsPerRequest: 1,
      source: uniform(
        writeLines(
          join(dir, 'ancestors.txt'),
          anyLab.map((id) => `/v1/codes/${id}/ancestors`),
        ),
      ),
      referenceSource: uniform(
        writeLines(
          join(dir, 'lab-ids.txt'),
          anyLab.map((id) => `/v1/codes/${id}`),
        ),
      ),
    },
    {
      id: 'A1',
      title: `GET /v1/codes/{id}?as_of=${date}, uniform ids`,
      reference: '1: GET /v1/codes/{id}',
      measure: 'p50',
      target: 1.5,
      idsPerRequest: 1,
      source: uniform(
        writeLines(
          join(dir, 'as-of-ids.txt'),
          idLines.map((path) => `${path}?as_of=${date}`),
        ),
      ),
      referenceSource: get,
    },
    {
      id: 'A2',
      title: `GET /v1/codes?limit=50&as_of=${date}, uniform depths`,
      reference: '2: GET /v1/codes?limit=50',
      measure: 'p50',
      target: 1.5,
      idsPerRequest: 1,
      source: uniform(
        writeLines(join(dir, 'as-of-pages.txt'), [`/v1/codes?limit=50&as_of=${date}`, ...asOfPages.map((c) => `/v1/codes?limit=50&as_of=${date}&cursor=${c}`)]),
      ),
      referenceSource: list,
    },
    {
      id: 'B1',
      title: `POST /v1/codes/batch, ${BATCH} uniform ids`,
      reference: '1: GET /v1/codes/{id}, ids per second',
      measure: 'ids',
      target: 20,
      idsPerRequest: BATCH,
      source: uniform(writeLines(join(dir, 'batches.txt'), batches)),
      referenceSource: get,
    },
  ];
}

/** Runs a scenario in pairs with its reference on the same server and summarises it. */
export async function runNavScenario(
  s: NavScenario,
  pairs: number,
  load: (source: RequestSource, seed: number) => Promise<LoadResult>,
  warm: (source: RequestSource) => Promise<unknown>,
): Promise<NavRecord> {
  await warm(s.referenceSource);
  await warm(s.source);
  const measured = await runPairs(
    pairs,
    (seed) => load(s.referenceSource, seed),
    (seed) => load(s.source, seed),
  );
  const ratioOf = (p: Pair) =>
    s.measure === 'p50' ? p.scenario.p50 / (p.baseline.p50 || 1) : (p.scenario.requestsPerSecond * s.idsPerRequest) / (p.baseline.requestsPerSecond || 1);
  for (const p of measured) p.ratio = ratioOf(p);
  const { ratio, ratioMin, ratioMax } = ratioSpread(measured.map((p) => p.ratio));
  return {
    id: s.id,
    title: s.title,
    reference: s.reference,
    measure: s.measure,
    target: s.target,
    pairs: measured,
    ratio,
    ratioMin,
    ratioMax,
    p50: median(measured.map((p) => p.scenario.p50)),
    referenceP50: median(measured.map((p) => p.baseline.p50)),
    requestsPerSecond: median(measured.map((p) => p.scenario.requestsPerSecond)),
    referenceRequestsPerSecond: median(measured.map((p) => p.baseline.requestsPerSecond)),
    pass: s.measure === 'p50' ? ratio <= s.target : ratio >= s.target,
  };
}
