/**
 * Store-level search timing on the bench's data set (no HTTP): per query
 * class, p50/p99/max of the first page (limit 50) over the class's queries,
 * and of the page 100 pages deep where a query has one. For iterating on the
 * search design; the figures the targets judge come from `npm run bench`
 * (wrk, over HTTP). Usage: npx node bench/search-probe.ts DB_URL MANIFEST [--count N]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { searchTerms } from '../src/domain/search-text.ts';
import type { GenerateManifest } from '../src/tools/generate/data-set.ts';
import { SEARCH_CLASSES, searchQueries } from './search-queries.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { count: { type: 'string', default: '100' }, deep: { type: 'string', default: '100' } },
});
const [url, manifestFile] = positionals;
const manifest = JSON.parse(readFileSync(manifestFile!, 'utf8')) as GenerateManifest;
const deps = await createDeps(loadConfig({ DATABASE_URL: url!, LOG_LEVEL: 'silent', DEMO_DATA: '0' }));
const store = deps.store;
const queries = searchQueries(manifest, Number(values.count));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const search = (q: string, after: Parameters<typeof store.searchCodes>[0]['after']) =>
  store.searchCodes({ terms: searchTerms(q), after, limit: 50, system: null, status: null });
for (const q of queries['one letter'].slice(0, 10)) await search(q, null);
for (const name of SEARCH_CLASSES) {
  const times: [number, string][] = [];
  const cpu: number[] = [];
  for (const q of queries[name]) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await search(q, null);
    const c1 = process.cpuUsage(c0);
    times.push([performance.now() - t0, q]);
    cpu.push((c1.user + c1.system) / 1000);
  }
  times.sort((a, b) => a[0] - b[0]);
  cpu.sort((a, b) => a - b);
  const ms = times.map((t) => t[0]);
  console.log(
    `${name.padEnd(22)} p50 ${pct(ms, 50).toFixed(2)}  p99 ${pct(ms, 99).toFixed(2)}  max ${ms.at(-1)!.toFixed(2)} ms  (CPU p50 ${pct(cpu, 50).toFixed(2)} p99 ${pct(cpu, 99).toFixed(2)})  slowest: ${times
      .slice(-3)
      .map((t) => `${t[1]} ${t[0].toFixed(1)}`)
      .join(', ')}`,
  );
}
const deepPages = Number(values.deep);
for (const q of ['a', 'm', 'r', 'ca', 'pro', 'acute', 'le']) {
  let after = null;
  for (let i = 0; i < deepPages; i++) after = (await search(q, after)).last;
  const first: number[] = [];
  const deep: number[] = [];
  for (let i = 0; i < 30; i++) {
    let t0 = performance.now();
    await search(q, null);
    first.push(performance.now() - t0);
    t0 = performance.now();
    await search(q, after);
    deep.push(performance.now() - t0);
  }
  first.sort((a, b) => a - b);
  deep.sort((a, b) => a - b);
  console.log(
    `deep "${q}" (group ${after?.group}): first p50 ${pct(first, 50).toFixed(2)}  deep p50 ${pct(deep, 50).toFixed(2)}  ratio ${(pct(deep, 50) / pct(first, 50)).toFixed(2)}`,
  );
}
await deps.close();
