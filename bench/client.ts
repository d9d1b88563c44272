/**
 * `npx node bench/client.ts [--codes N] [--pairs P] [--limit L]`: walking
 * every code through @codebook/client (`for await` over codes.list) against
 * the same walk with bare fetch and a hand-written cursor loop.
 *
 * The data is the benchmark's (bench/data.ts: generated and imported once per
 * set of parameters, then reused; --codes 1000000 is the full set, shared
 * with `npm run bench`). The real server (src/main.js, with npm start's
 * flags) runs as a child process; both walks run in this process, one after
 * the other in pairs (bare, client, bare, client, …) so that the machine's
 * drift touches both alike, after a warm-up of each. Each walk reads every
 * record of every page. Reported: records/s of each walk, and per pair the
 * client's records/s over the bare walk's, with their median and spread.
 * Target (issue 15): the client at 80 % or more of the bare walk.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Codebook } from '../clients/typescript/src/index.ts';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { ENDPOINTS } from '../src/domain/access.ts';
import { createKey, createOrg, listKeys, revokeKey, setPlan } from '../src/services/access/admin.ts';
import { ensureData, ROOT, type DataParams } from './data.ts';
import { freePort, httpGet, sleep, stopChild } from './http.ts';
import { serverNodeFlags } from './server-flags.ts';

const RESULTS = join(ROOT, 'bench', 'results');
const TARGET = 0.8;
const log = (line: string) => process.stderr.write(`${line}\n`);

const { values } = parseArgs({
  options: {
    codes: { type: 'string', default: '1000000' },
    changes: { type: 'string' },
    dates: { type: 'string' },
    seed: { type: 'string', default: '1' },
    pairs: { type: 'string', default: '3' },
    limit: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '200', short: 'w' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(
    'usage: npx node bench/client.ts [--codes N (1000000)] [--changes M (2N)] [--dates D] [--pairs P (3)] [--limit L (200)] [--warmup PAGES (200)]\n',
  );
  process.exit(0);
}
const codes = Number(values.codes);
// The same parameters as npm run bench (full: 1 000 000 / 2 000 000 / 24; quick: 20 000 / 40 000 / 6), so its data is reused.
const params: DataParams = {
  codes,
  changes: values.changes !== undefined ? Number(values.changes) : 2 * codes,
  dates: values.dates !== undefined ? Number(values.dates) : codes >= 1_000_000 ? 24 : 6,
  seed: Number(values.seed),
};
const PAIRS = Number(values.pairs);
const LIMIT = Number(values.limit);
const WARMUP_PAGES = Number(values.warmup);

/** A plan that never refuses and a fresh key (the previous run's revoked). */
async function benchKey(dbFile: string): Promise<string> {
  const deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${dbFile}`, LOG_LEVEL: 'silent' }));
  try {
    await setPlan(deps.admin, { name: 'bench-client', endpoints: [...ENDPOINTS], ratePerMinute: 1_000_000, monthlyQuota: null, testKeysAllowed: true });
    const org = (await deps.store.access.getOrg('bench-client')) ?? (await createOrg(deps.admin, 'bench-client', 'bench-client'));
    for (const k of await listKeys(deps.admin, org)) if (k.revokedAt === null) await revokeKey(deps.admin, k.id, org);
    return (await createKey(deps.admin, org, 'live', 'bench-client')).key;
  } finally {
    await deps.close();
  }
}

async function startServer(dbFile: string, port: number, key: string, logFile: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${dbFile}`, LOG_LEVEL: 'warn' };
  delete env.CURSOR_SECRET;
  delete env.REDIS_URL;
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [...serverNodeFlags(ROOT), 'src/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited during start-up; see ${logFile}`);
    try {
      const res = await httpGet(port, '/v1/codes?limit=1', { authorization: `Bearer ${key}` });
      if (res.status !== 200) throw new Error(`the server's first answer was ${res.status}: ${res.body.slice(0, 300)}`);
      return child;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error;
      await sleep(20);
    }
  }
}

interface Walk {
  records: number;
  pages: number;
  ms: number;
  /** Touches every record, so that neither walk can skip reading them. */
  idLength: number;
}

interface PageBody {
  data: { id: string }[];
  pagination: { has_more: boolean; next_cursor?: string };
}

/** What a developer writes without the client: fetch, the header, the cursor loop. */
async function bareWalk(base: string, key: string, maxPages = Infinity): Promise<Walk> {
  const started = performance.now();
  const headers = { authorization: `Bearer ${key}` };
  let cursor: string | undefined;
  let records = 0;
  let pages = 0;
  let idLength = 0;
  for (;;) {
    const url = `${base}/v1/codes?limit=${LIMIT}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as PageBody;
    pages++;
    for (const code of body.data) {
      records++;
      idLength += code.id.length;
    }
    if (!body.pagination.has_more || pages >= maxPages) break;
    cursor = body.pagination.next_cursor;
  }
  return { records, pages, ms: performance.now() - started, idLength };
}

async function clientWalk(codebook: Codebook, maxPages = Infinity): Promise<Walk> {
  const started = performance.now();
  let records = 0;
  let idLength = 0;
  for await (const code of codebook.codes.list({ limit: LIMIT })) {
    records++;
    idLength += code.id.length;
    if (records >= maxPages * LIMIT) break;
  }
  return { records, pages: Math.ceil(records / LIMIT), ms: performance.now() - started, idLength };
}

const rate = (w: Walk) => (w.records / w.ms) * 1000;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').replaceAll(',', ' ');

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  const data = await ensureData(params, { rebuild: false, log });
  const key = await benchKey(data.dbFile);
  const port = await freePort();
  const logFile = join(RESULTS, 'client-server.log');
  const server = await startServer(data.dbFile, port, key, logFile);
  const base = `http://127.0.0.1:${port}`;
  const codebook = new Codebook({ apiKey: key, baseUrl: base });
  try {
    log(`warm-up: ${WARMUP_PAGES} pages of each walk`);
    await bareWalk(base, key, WARMUP_PAGES);
    await clientWalk(codebook, WARMUP_PAGES);
    const pairs: { bare: Walk; client: Walk }[] = [];
    for (let i = 1; i <= PAIRS; i++) {
      const bare = await bareWalk(base, key);
      const client = await clientWalk(codebook);
      for (const [name, walk] of [
        ['bare', bare],
        ['client', client],
      ] as const) {
        if (walk.records !== data.manifest.codes) throw new Error(`the ${name} walk read ${walk.records} records, not ${data.manifest.codes}`);
      }
      if (bare.idLength !== client.idLength) throw new Error('the two walks read different records');
      pairs.push({ bare, client });
      log(
        `pair ${i}: bare ${fmt(rate(bare))} records/s (${(bare.ms / 1000).toFixed(1)} s), client ${fmt(rate(client))} records/s (${(client.ms / 1000).toFixed(1)} s), ratio ${(rate(client) / rate(bare)).toFixed(3)}`,
      );
    }
    const ratios = pairs.map((p) => rate(p.client) / rate(p.bare));
    const summary = {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), kernel: release(), node: process.version },
      params,
      limit: LIMIT,
      pages: pairs[0]!.bare.pages,
      pairs: pairs.map((p) => ({
        bareRecordsPerSecond: Math.round(rate(p.bare)),
        clientRecordsPerSecond: Math.round(rate(p.client)),
        ratio: Number((rate(p.client) / rate(p.bare)).toFixed(3)),
      })),
      ratio: { median: Number(median(ratios).toFixed(3)), min: Number(Math.min(...ratios).toFixed(3)), max: Number(Math.max(...ratios).toFixed(3)) },
      target: TARGET,
    };
    writeFileSync(join(RESULTS, 'client-latest.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const lines = [
      `Walking ${fmt(data.manifest.codes)} codes, limit=${LIMIT} (${summary.pages} pages), ${PAIRS} pairs, Node.js ${process.version}`,
      '',
      '| pair | bare fetch records/s | client records/s | client ÷ bare |',
      '|---:|---:|---:|---:|',
      ...summary.pairs.map((p, i) => `| ${i + 1} | ${fmt(p.bareRecordsPerSecond)} | ${fmt(p.clientRecordsPerSecond)} | ${p.ratio.toFixed(3)} |`),
      '',
      `client ÷ bare: median ${summary.ratio.median.toFixed(3)}, spread ${summary.ratio.min.toFixed(3)}–${summary.ratio.max.toFixed(3)}; target ≥ ${TARGET}: ${summary.ratio.median >= TARGET ? 'met' : 'NOT met'}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    log(`results: ${join(RESULTS, 'client-latest.json')}`);
  } finally {
    await stopChild(server);
  }
}

await main();
