/**
 * The search scenarios of `npm run bench` (issue 13), under wrk like the
 * others, against the same server and data:
 *
 * - S1…S8, one query class each (bench/search-queries.ts: 200 queries, picked
 *   uniformly), the first page (limit=50), ONE connection, so p50 and p99 are
 *   what one search costs; the classes take turns, one run of each per pair.
 * - S-first@1 / S-deep@1: the first page of common one- and two-letter queries
 *   and their page 101 (cursors collected by walking), one connection,
 *   interleaved: the ratio of their p50s, median of the pairs.
 * - S-mix: every class's queries together at the run's connections (32),
 *   interleaved with scenario 2 (GET /v1/codes?limit=50 at uniform depths):
 *   search req/s ÷ list req/s, median of the pairs.
 * - Y1…Y3: GET /v1/systems/{system}, …/releases and /v1/systems at 32
 *   connections, interleaved with scenario 1 (GET /v1/codes/{id}): code req/s
 *   ÷ endpoint req/s, median of the pairs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerateManifest } from '../src/tools/generate/data-set.ts';
import { httpGet } from './http.ts';
import type { LoadResult, RequestSource } from './load.ts';
import { median } from './pairs.ts';
import type { Target } from './report.ts';
import { CLASS_IDS, SEARCH_CLASSES, searchQueries } from './search-queries.ts';
import { VOCABULARY } from '../src/tools/generate/text.ts';

export type SearchLoad = (source: RequestSource, seed: number, connections: number, seconds?: number) => Promise<LoadResult>;

export interface SearchBenchInput {
  dir: string;
  manifest: GenerateManifest;
  port: number;
  keys: string[];
  keysFile: string;
  /** Scenario 2's and scenario 1's request files: the baselines of throughput and of the systems endpoints. */
  listPages: string;
  codeIds: string;
  pairs: number;
  connections: number;
  load: SearchLoad;
  log: (line: string) => void;
}

export interface SearchClassResult {
  id: string;
  name: string;
  runs: LoadResult[];
  p50: number;
  p99: number;
}

export interface SearchRatio {
  id: string;
  title: string;
  /** The figure compared, per pair, and its median. */
  pairs: { baseline: LoadResult; scenario: LoadResult; ratio: number }[];
  ratio: number;
}

export interface SearchReport {
  classes: SearchClassResult[];
  deep: SearchRatio & { queries: string[] };
  /** The same for queries whose page 101 is read from the word index (group 4). */
  deepWords: SearchRatio & { queries: string[] };
  throughput: SearchRatio;
  systems: SearchRatio[];
  targets: Target[];
  unexpected: string[];
}

const searchPath = (q: string, cursor?: string) => `/v1/codes/search?limit=50&q=${encodeURIComponent(q)}${cursor ? `&cursor=${cursor}` : ''}`;
const DEEP_PAGES = 100;
const DEEP_CANDIDATES = ['a', 'c', 'm', 'p', 's', 't', 'b', 'd', 'ca', 'ma', 'pa', 'ta', 're', 'de'];
/**
 * Queries whose page 101 is read from group 4 (every word starts a word of the
 * record), where the cursor is a position in the word index: the commonest
 * words of the generator's vocabulary, alone and two by two. Those that still
 * end page 100 in groups 1–3 are left out.
 */
const DEEP_WORD_CANDIDATES = [
  ...VOCABULARY.slice(0, 8),
  ...VOCABULARY.slice(0, 12).flatMap((word, i) => (i % 2 === 0 ? [`${word} ${VOCABULARY[i + 1]!}`] : [])),
];

/** The group a search cursor continues in: the first element of its sort key (the payload is base64url JSON before the dot). */
function cursorGroup(cursor: string): number {
  const payload = JSON.parse(Buffer.from(cursor.slice(0, cursor.indexOf('.')), 'base64url').toString('utf8')) as unknown[];
  return Number(payload[3]);
}

function writeLines(file: string, lines: string[]): string {
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Cursors 100 pages deep for the candidates that have that many pages (and, given group, whose page 101 is in that group). */
async function deepCursors(input: SearchBenchInput, candidates: readonly string[], group?: number): Promise<{ q: string; cursor: string }[]> {
  const headers = { authorization: `Bearer ${input.keys[0]}` };
  const out: { q: string; cursor: string }[] = [];
  for (const q of candidates) {
    let cursor: string | undefined;
    let page = 0;
    for (; page < DEEP_PAGES; page++) {
      const r = await httpGet(input.port, searchPath(q, cursor), headers);
      if (r.status !== 200) throw new Error(`search ${q}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
      const next = (JSON.parse(r.body) as { pagination: { next_cursor: string | null } }).pagination.next_cursor;
      if (next === null) break;
      cursor = next;
    }
    if (page === DEEP_PAGES && cursor !== undefined && (group === undefined || cursorGroup(cursor) === group)) out.push({ q, cursor });
  }
  if (out.length === 0)
    throw new Error(
      `no search query has ${DEEP_PAGES + 1} pages${group === undefined ? '' : ` with page ${DEEP_PAGES + 1} in group ${group}`}: the data set is too small`,
    );
  return out;
}

function unexpectedOf(id: string, r: LoadResult): string[] {
  const out = Object.entries(r.statuses)
    .filter(([status, count]) => status !== '200' && count > 0)
    .map(([status, count]) => `${id}: ${count} × HTTP ${status} (expected 200)`);
  if (r.errors > 0) out.push(`${id}: ${r.errors} connection errors (${r.timeouts} timeouts)`);
  if (r.responses === 0) out.push(`${id}: no response at all`);
  return out;
}

/** Interleaved pairs: baseline, scenario, baseline, scenario…; ratio(baseline, scenario) per pair. */
async function pairs(
  input: SearchBenchInput,
  id: string,
  title: string,
  baseline: RequestSource,
  scenario: RequestSource,
  connections: number,
  ratio: (b: LoadResult, s: LoadResult) => number,
): Promise<SearchRatio> {
  const out: SearchRatio['pairs'] = [];
  for (let i = 0; i < input.pairs; i++) {
    const b = await input.load(baseline, i + 1, connections);
    const s = await input.load(scenario, i + 1, connections);
    out.push({ baseline: b, scenario: s, ratio: ratio(b, s) });
  }
  const result = { id, title, pairs: out, ratio: median(out.map((p) => p.ratio)) };
  input.log(`  ${id}: ${title}: ${result.ratio.toFixed(2)} (pairs ${out.map((p) => p.ratio.toFixed(2)).join(', ')})`);
  return result;
}

export async function runSearchScenarios(input: SearchBenchInput): Promise<SearchReport> {
  const { dir, keysFile } = input;
  const source = (pathsFile: string): RequestSource => ({ pathsFile, pick: 'uniform', keys: keysFile });
  const queries = searchQueries(input.manifest, 200);
  const classFiles = SEARCH_CLASSES.map((name) =>
    writeLines(
      join(dir, `search-${CLASS_IDS[name]}.txt`),
      queries[name].map((q) => searchPath(q)),
    ),
  );
  const mix = writeLines(
    join(dir, 'search-mix.txt'),
    SEARCH_CLASSES.flatMap((name) => queries[name].map((q) => searchPath(q))),
  );

  input.log(`run S1–S8: the search classes, 1 connection, ${input.pairs} rounds`);
  await input.load(source(mix), 1000, 1);
  const runs: LoadResult[][] = SEARCH_CLASSES.map(() => []);
  for (let round = 0; round < input.pairs; round++) for (const [i, file] of classFiles.entries()) runs[i]!.push(await input.load(source(file), round + 1, 1));
  const classes = SEARCH_CLASSES.map((name, i): SearchClassResult => {
    const r = runs[i]!;
    const result = { id: CLASS_IDS[name], name, runs: r, p50: median(r.map((x) => x.p50)), p99: median(r.map((x) => x.p99)) };
    input.log(`  ${result.id} ${name}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
    return result;
  });

  const deepPair = async (id: string, name: string, found: { q: string; cursor: string }[]) => {
    const firstFile = writeLines(
      join(dir, `search-first-${name}.txt`),
      found.map((d) => searchPath(d.q)),
    );
    const deepFile = writeLines(
      join(dir, `search-deep-${name}.txt`),
      found.map((d) => searchPath(d.q, d.cursor)),
    );
    return {
      ...(await pairs(input, id, `page ${DEEP_PAGES + 1} p50 ÷ first page p50`, source(firstFile), source(deepFile), 1, (b, s) => s.p50 / b.p50)),
      queries: found.map((d) => d.q),
    };
  };
  input.log(`run S-first@1 / S-deep@1: page 1 and page ${DEEP_PAGES + 1}, 1 connection`);
  const deep = await deepPair('S-deep@1', 'letters', await deepCursors(input, DEEP_CANDIDATES));
  input.log(`run S-deep4@1: page 1 and page ${DEEP_PAGES + 1} of queries whose page ${DEEP_PAGES + 1} is in group 4 (the word index), 1 connection`);
  const deepWords = await deepPair('S-deep4@1', 'words', await deepCursors(input, DEEP_WORD_CANDIDATES, 4));

  input.log(`run S-mix: every class, ${input.connections} connections, against scenario 2`);
  await input.load(source(mix), 1000, input.connections);
  const throughput = await pairs(
    input,
    'S-mix',
    'search req/s ÷ list-page req/s',
    source(input.listPages),
    source(mix),
    input.connections,
    (b, s) => s.requestsPerSecond / b.requestsPerSecond,
  );

  input.log(`run Y1–Y3: systems and releases against GET /v1/codes/{id}, ${input.connections} connections`);
  const names = input.manifest.systems.map((s) => s.system);
  const systems: SearchRatio[] = [];
  for (const [id, title, lines] of [
    ['Y1', 'GET /v1/systems/{system}', names.map((s) => `/v1/systems/${s}`)],
    ['Y2', 'GET /v1/systems/{system}/releases', names.map((s) => `/v1/systems/${s}/releases`)],
    ['Y3', 'GET /v1/systems', ['/v1/systems']],
  ] as const) {
    const file = writeLines(join(dir, `systems-${id}.txt`), [...lines]);
    await input.load(source(file), 1000, input.connections);
    systems.push(
      await pairs(
        input,
        id,
        `code req/s ÷ ${title} req/s`,
        source(input.codeIds),
        source(file),
        input.connections,
        (b, s) => b.requestsPerSecond / s.requestsPerSecond,
      ),
    );
  }

  const unexpected = [
    ...classes.flatMap((c) => c.runs.flatMap((r, i) => unexpectedOf(`${c.id} (round ${i + 1})`, r))),
    ...[deep, deepWords, throughput, ...systems].flatMap((x) =>
      x.pairs.flatMap((p, i) => [...unexpectedOf(`${x.id} (pair ${i + 1})`, p.scenario), ...unexpectedOf(`baseline of ${x.id} (pair ${i + 1})`, p.baseline)]),
    ),
  ];
  const targets: Target[] = [
    ...classes.map((c) => ({
      name: `search ${c.id} ${c.name}: p50 / p99, 1 connection`,
      issue: '13',
      target: '≤ 5 / ≤ 25 ms',
      measured: `${c.p50.toFixed(2)} / ${c.p99.toFixed(2)} ms`,
      pass: c.p50 <= 5 && c.p99 <= 25,
    })),
    {
      name: `search page ${DEEP_PAGES + 1} ÷ first page, p50, 1 connection`,
      issue: '13',
      target: '≤ 1.5×',
      measured: `${deep.ratio.toFixed(2)}×`,
      pass: deep.ratio <= 1.5,
    },
    {
      name: `search page ${DEEP_PAGES + 1} in group 4 (the word index) ÷ first page, p50, 1 connection`,
      issue: '13',
      target: '≤ 1.5×',
      measured: `${deepWords.ratio.toFixed(2)}×`,
      pass: deepWords.ratio <= 1.5,
    },
    {
      name: `search req/s ÷ list-page req/s, ${input.connections} connections`,
      issue: '13',
      target: '≥ 50 %',
      measured: `${(throughput.ratio * 100).toFixed(0)} %`,
      pass: throughput.ratio >= 0.5,
    },
    ...systems.map((s) => ({ name: `${s.id}: ${s.title}`, issue: '13', target: '≤ 1.2×', measured: `${s.ratio.toFixed(2)}×`, pass: s.ratio <= 1.2 })),
  ];
  return { classes, deep, deepWords, throughput, systems, targets, unexpected };
}

/** The search part of the report, as text. */
export function formatSearch(r: SearchReport): string {
  const lines = [
    'Search (issue 13): first page, limit=50, 1 connection; medians of the rounds',
    '| run | class | p50 ms | p99 ms | req/s |',
    '|---|---|---:|---:|---:|',
  ];
  for (const c of r.classes)
    lines.push(`| ${c.id} | ${c.name} | ${c.p50.toFixed(2)} | ${c.p99.toFixed(2)} | ${median(c.runs.map((x) => x.requestsPerSecond)).toFixed(0)} |`);
  const deepLine = (title: string, d: SearchReport['deep']) =>
    `${title} (${d.queries.join(', ')}): first p50 ${median(d.pairs.map((p) => p.baseline.p50)).toFixed(2)} ms, page 101 p50 ${median(d.pairs.map((p) => p.scenario.p50)).toFixed(2)} ms: ${d.ratio.toFixed(2)}× (pairs ${d.pairs.map((p) => p.ratio.toFixed(2)).join(', ')})`;
  lines.push(
    '',
    deepLine('Deep page', r.deep),
    deepLine('Deep page in group 4', r.deepWords),
    `Throughput: search ${median(r.throughput.pairs.map((p) => p.scenario.requestsPerSecond)).toFixed(0)} req/s, list page ${median(r.throughput.pairs.map((p) => p.baseline.requestsPerSecond)).toFixed(0)} req/s: ${(r.throughput.ratio * 100).toFixed(0)} % (pairs ${r.throughput.pairs.map((p) => `${(p.ratio * 100).toFixed(0)} %`).join(', ')})`,
  );
  for (const s of r.systems)
    lines.push(
      `${s.id} ${s.title}: ${s.ratio.toFixed(2)}× (endpoint ${median(s.pairs.map((p) => p.scenario.requestsPerSecond)).toFixed(0)} req/s, code ${median(s.pairs.map((p) => p.baseline.requestsPerSecond)).toFixed(0)} req/s)`,
    );
  return `${lines.join('\n')}\n\n`;
}
