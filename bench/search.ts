/**
 * The search benchmark (`npm run bench -- --search [--codes N] [--postgres]`):
 * a code set with word-like displays and definitions, imported through the
 * importer (timed: it maintains the search index), then, over real HTTP on one
 * keep-alive connection, each class of query issue 13 names (p50/p99 of the
 * first page), a page 100 pages deep against the first, and the systems
 * endpoints against GET /v1/codes/{id}. Run it against SQLite (default) or
 * PostgreSQL (--postgres, TEST_POSTGRES_URL or the local server).
 */
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'node:http';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { buildApp } from '../src/http/app.ts';
import { ENDPOINTS } from '../src/domain/access.ts';
import { createKey, createOrg, setPlan } from '../src/services/access/admin.ts';
import { runImport } from '../src/services/import/importer.ts';
import { DEFINITION_ONLY, VOCABULARY } from '../src/tools/generate/text.ts';

const { values } = parseArgs({
  options: {
    search: { type: 'boolean' },
    codes: { type: 'string', default: '200000' },
    postgres: { type: 'boolean', default: false },
    samples: { type: 'string', default: '200' },
  },
});
const CODES = Number(values.codes);
const SAMPLES = Number(values.samples);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** mulberry32, seeded: the same data and queries on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(13);
const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
/** Skewed towards the start of the list, as word frequencies are. */
const pickSkewed = <T>(items: readonly T[]) => items[Math.floor(items.length * rand() ** 2.5)]!;

// The generator's vocabulary (skewed: real words first) and its words found only in definitions.

function buildFile(dir: string): { file: string; codes: string[]; displays: string[] } {
  const lines = ['code,display,definition'];
  const codes: string[] = [];
  const displays: string[] = [];
  for (let i = 0; i < CODES; i++) {
    const code = `${String.fromCharCode(65 + (i % 26))}${String(Math.floor(i / 26) % 100).padStart(2, '0')}.${Math.floor(i / 2600)}`;
    const display = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pickSkewed(VOCABULARY)).join(' ');
    const definitionWords = Array.from({ length: 6 + Math.floor(rand() * 7) }, () => pickSkewed(VOCABULARY));
    if (rand() < 0.05) definitionWords.push(pick(DEFINITION_ONLY));
    const capitalised = display[0]!.toUpperCase() + display.slice(1);
    lines.push(`${code},${capitalised},${definitionWords.join(' ')}.`);
    codes.push(code);
    displays.push(display);
  }
  const file = join(dir, 'search.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, codes, displays };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function main(): Promise<void> {
  const dir = join(import.meta.dirname, 'results', 'search-data');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env: Record<string, string> = { LOG_LEVEL: 'silent', DEMO_DATA: '0' };
  let dropDatabase = async () => undefined as unknown;
  if (values.postgres) {
    const { createTestDatabase } = await import('../test/helpers/postgres.ts');
    const db = await createTestDatabase('codebook_search_bench');
    env.DATABASE_URL = db.url;
    dropDatabase = () => db.drop();
  } else {
    env.DATABASE_URL = `sqlite:${join(dir, 'codebook.db')}`;
  }
  const deps = await createDeps(loadConfig(env));
  const data = buildFile(dir);
  log(`search bench: ${values.postgres ? 'PostgreSQL' : 'SQLite'}, ${CODES} codes`);
  const started = performance.now();
  await runImport(deps.store, { file: data.file, system: 'bench', release: 'r1', effectiveDate: '2024-01-01', format: 'csv', mode: 'snapshot' });
  const importSeconds = (performance.now() - started) / 1000;
  log(`import (snapshot, index maintained): ${importSeconds.toFixed(1)} s`);

  await setPlan(deps.admin, { name: 'search-bench', endpoints: [...ENDPOINTS], ratePerMinute: 1_000_000, monthlyQuota: null, testKeysAllowed: true });
  const { key } = await createKey(deps.admin, await createOrg(deps.admin, 'search-bench', 'search-bench'), 'live', 'bench');
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<{ ms: number; body: string }>((resolve, reject) => {
      const t0 = performance.now();
      const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (body += chunk))
          .on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${body.slice(0, 200)}`));
            else resolve({ ms: performance.now() - t0, body });
          });
      });
      req.on('error', reject).end();
    });
  const measure = async (paths: () => string) => {
    for (let i = 0; i < 20; i++) await get(paths());
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) times.push((await get(paths())).ms);
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  };
  const q = (text: string) => `/v1/codes/search?limit=50&q=${encodeURIComponent(text)}`;
  const letters = 'abcdefghilmnoprstuvz';
  const classes: [string, () => string][] = [
    ['exact code', () => q(pick(data.codes).toLowerCase())],
    ['code prefix', () => q(pick(data.codes).slice(0, 4))],
    ['one letter', () => q(pick([...letters]))],
    ['two or three letters', () => q(pickSkewed(VOCABULARY).slice(0, 2 + Math.floor(rand() * 2)))],
    ['one whole word', () => q(pick(VOCABULARY))],
    [
      'two words',
      () =>
        q(
          pick(data.displays)
            .split(' ')
            .slice(0, 2)
            .map((w) => w.slice(0, 4))
            .join(' '),
        ),
    ],
    ['word only in definitions', () => q(pick(DEFINITION_ONLY))],
    ['no match', () => q(`zzx${pick(VOCABULARY)}`)],
  ];
  const results: Record<string, unknown> = { backend: values.postgres ? 'postgres' : 'sqlite', codes: CODES, importSeconds };
  for (const [name, paths] of classes) {
    const r = await measure(paths);
    results[name] = r;
    log(`${name.padEnd(26)} p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`);
  }
  // A page 100 pages deep: cursors collected once, by walking.
  const deepCursors: string[] = [];
  for (const letter of ['a', 'm', 'r']) {
    let cursor = '';
    for (let page = 0; page < 100; page++)
      cursor = (JSON.parse((await get(`${q(letter)}${cursor ? `&cursor=${cursor}` : ''}`)).body) as { pagination: { next_cursor: string } }).pagination
        .next_cursor;
    deepCursors.push(`${q(letter)}&cursor=${cursor}`);
  }
  const first = await measure(() => q(pick(['a', 'm', 'r'])));
  const deep = await measure(() => pick(deepCursors));
  results.deep = { first, deep, ratio: deep.p50 / first.p50 };
  log(
    `page 101 of one letter       p50 ${deep.p50.toFixed(2)} ms (first page ${first.p50.toFixed(2)} ms: ${(deep.p50 / first.p50).toFixed(2)}×)   p99 ${deep.p99.toFixed(2)} ms`,
  );
  const code = await measure(() => `/v1/codes/bench:${encodeURIComponent(pick(data.codes))}`);
  const system = await measure(() => '/v1/systems/bench');
  const releases = await measure(() => '/v1/systems/bench/releases');
  const systems = await measure(() => '/v1/systems');
  results.systems = { code, system, releases, systems };
  for (const [name, r] of [
    ['GET /v1/codes/{id}', code],
    ['GET /v1/systems/{system}', system],
    ['GET /v1/systems/{system}/releases', releases],
    ['GET /v1/systems', systems],
  ] as const) {
    log(`${name.padEnd(34)} p50 ${r.p50.toFixed(3)} ms   p99 ${r.p99.toFixed(3)} ms   (${(r.p50 / code.p50).toFixed(2)}× the code)`);
  }
  writeFileSync(join(import.meta.dirname, 'results', `search-${values.postgres ? 'postgres' : 'sqlite'}.json`), `${JSON.stringify(results, null, 2)}\n`);
  agent.destroy();
  await app.close();
  await deps.close();
  await dropDatabase();
  rmSync(dir, { recursive: true, force: true });
}

await main();
