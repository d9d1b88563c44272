/**
 * The read cache under the bench's Zipf traffic, without a server: how often
 * a record or page is answered from it, and what the cache itself costs a
 * request. It runs the service's ReadCache (ring, index bound, doorkeeper)
 * the way the catalog does (open, get, and set on a miss), with picks drawn
 * as the wrk script draws them (rank r with weight r^-exponent), and counts
 * the hits of the second half of the stream, once the cache is full.
 *
 *   node bench/cache-sim.ts [--kind records|pages] [--requests N] [--mb 24] [--seed 1]
 *
 * records: 1 000 000 ids, texts of 380–470 bytes (the bench's records);
 * pages: 5 000 positions (the bench's page cursors), bodies of 20–24 KB.
 * Each answer is checked against what was kept under its key.
 */
import { parseArgs } from 'node:util';
import { ReadCache } from '../src/services/read-cache.ts';
import { random, ZIPF_EXPONENT } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    kind: { type: 'string', default: 'records' },
    requests: { type: 'string' },
    mb: { type: 'string', default: '24' },
    seed: { type: 'string', default: '1' },
  },
});
const kind = values.kind;
if (kind !== 'records' && kind !== 'pages') throw new Error('--kind is records or pages');
const n = kind === 'records' ? 1_000_000 : 5_000;
const requests = Number(values.requests ?? (kind === 'records' ? 3_000_000 : 300_000));

/** Ranks 0..n-1, rank r drawn with weight (r + 1)^-exponent. */
function zipf(count: number, exponent: number, next: () => number): () => number {
  const cdf = new Float64Array(count);
  let sum = 0;
  for (let r = 0; r < count; r++) cdf[r] = sum += (r + 1) ** -exponent;
  for (let r = 0; r < count; r++) cdf[r]! /= sum;
  return () => {
    const u = next();
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const recordOf = (i: number) => `{"object":"code","id":"dx:${i}","display":"${'é'.repeat(i % 7)}${'x'.repeat(360 + (i % 90))}"}`;
const pageOf = (i: number) => Buffer.alloc(20_000 + (i % 4000), i % 251);

const cache = new ReadCache<undefined>(Number(values.mb) * 1024 * 1024, () => 1);
const pick = zipf(n, ZIPF_EXPONENT, random(Number(values.seed)));
let hits = 0;
const started = performance.now();
// Records are read as text and pages as bytes, as the catalog reads them.
const read = (key: string) => (kind === 'records' ? cache.get(key)?.text : cache.getBytes(key)?.bytes);
const bodyOf = kind === 'records' ? recordOf : pageOf;
for (let r = 0; r < requests; r++) {
  const i = pick();
  const key = `${kind === 'records' ? 'r' : 'c'}\u0000${i}`;
  const version = cache.open();
  const found = read(key);
  if (found === undefined) {
    cache.set(key, bodyOf(i), undefined, version);
    continue;
  }
  const expected = bodyOf(i);
  if (typeof expected === 'string' ? found !== expected : !expected.equals(found as Buffer))
    throw new Error(`${key}: the cache answered another ${kind === 'records' ? 'record' : 'page'}`);
  if (r >= requests / 2) hits++;
}
const perRequest = ((performance.now() - started) * 1000) / requests;
const { entries, bytes } = cache.stats();
console.log(
  `${kind}: ${((hits / (requests / 2)) * 100).toFixed(1)} % hits over the second half of ${requests} Zipf picks of ${n}; ` +
    `${entries} entries, ${(bytes / 1024 / 1024).toFixed(1)} MiB counted; ${perRequest.toFixed(2)} µs a request (answers built and checked included)`,
);
