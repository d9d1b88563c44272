/**
 * The read cache costs what it counts. In a child process started with the
 * server's own Node.js flags (package.json "start") and --expose-gc, 40 000
 * different 20 KB pages go through an 8 MB cache, each asked for three times (so
 * every one gets in past the doorkeeper, and the cache is rewritten all the time: the worst case
 * for memory, 800 MB through 8). After a full collection the heap and the
 * buffers hold no more than the bound (plus a little); while it runs, the
 * process grows by no more than the bound plus V8's young generation. The
 * cache it replaced (a Map of strings) grew the same process by ~95 MB here.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ROOT } from '../helpers/cli.ts';
import { serverNodeFlags } from '../../bench/server-flags.ts';

const MB = 1024 * 1024;
const BOUND = 8 * MB;

const CHURN = `
  import { ReadCache } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/services/read-cache.ts')).href)};
  const base = Buffer.alloc(20_000, 'abcdefghij');
  // A fresh flat string each time, as the store hands one over.
  const textOf = (i) => { base.write(String(i).padStart(8, '0'), 8, 'latin1'); return base.toString('utf8'); };
  const churn = (cache, from, to) => {
    for (let i = from; i < to; i++) {
      const key = 'c\\u0000' + i;
      for (let k = 0; k < 3; k++) {
        const version = cache.open();
        const found = cache.get(key);
        if (found === undefined) cache.set(key, textOf(i), undefined, version);
        else if (!found.text.startsWith(String(i).padStart(8, '0'), 8)) throw new Error('wrong text for ' + key);
      }
      if (i % 100 === 0) rssMax = Math.max(rssMax, process.memoryUsage.rss());
    }
  };
  let rssMax = 0;
  // The baseline is taken once the code has run (compiled, its caches warm) on a small cache thrown away:
  // a baseline taken cold counted what the first run allocates and a collection later frees.
  churn(new ReadCache(256 * 1024, () => 1), 0, 2_000);
  gc();
  gc();
  const cache = new ReadCache(${BOUND}, () => 1);
  const before = process.memoryUsage();
  rssMax = before.rss;
  churn(cache, 0, 40_000);
  gc();
  gc();
  const after = process.memoryUsage();
  process.stdout.write(JSON.stringify({ stats: cache.stats(), live: after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers, grew: rssMax - before.rss }));
`;

/** Runs the script in a child with the server's Node.js flags and --expose-gc; what it wrote, as JSON. */
async function inChild(script: string): Promise<unknown> {
  const child = spawn(process.execPath, [...serverNodeFlags(ROOT), '--expose-gc', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

test('an 8 MB read cache rewritten 40 000 times holds 8 MB, and the process grows by little more', async () => {
  const flags = serverNodeFlags(ROOT);
  const { stats, live, grew } = (await inChild(CHURN)) as { stats: { bytes: number; evictions: number; hits: number }; live: number; grew: number };
  assert.ok(stats.evictions > 30_000, `rewritten: ${stats.evictions} evictions`);
  assert.ok(stats.hits >= 39_000, `each second request a hit: ${stats.hits}`);
  assert.ok(stats.bytes <= BOUND, `counts ${stats.bytes}`);
  // What is alive after a full collection: the counted bytes, give or take the index estimate.
  assert.ok(live <= BOUND * 1.1 && live >= stats.bytes * 0.9, `alive ${(live / MB).toFixed(1)} MB, counted ${(stats.bytes / MB).toFixed(1)} MB`);
  // Peak growth: the buffer, V8's young generation (three semi-spaces at --max-semi-space-size=8) and slack; not the garbage of the entries.
  const semi = Number(/--max-semi-space-size=(\d+)/.exec(flags.join(' '))?.[1] ?? 16);
  assert.ok(grew <= BOUND + 3 * semi * MB + 16 * MB, `grew ${(grew / MB).toFixed(0)} MB`);
});

// Records of ~100 bytes under keys made as the cached catalog makes them (a prefix joined to the id),
// so that the index, not the buffer, is what reaches the bound: what an entry costs beyond its bytes
// must be counted in full.
const RECORDS = `
  import { ReadCache } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/services/read-cache.ts')).href)};
  const record = (i) => '{"object":"code","id":"dx:A' + i + '.3","display":"' + 'x'.repeat(40) + '"}';
  const fill = (cache, count) => {
    for (let i = 0; i < count; i++) {
      const id = 'dx:A' + (100000 + i) + '.3';
      for (let k = 0; k < 2; k++) {
        // One key for the lookup and the insert, as cachedText() does.
        const key = \`r\\u0000\${id}\`;
        const version = cache.open();
        if (cache.get(key) === undefined) cache.set(key, record(i), undefined, version);
      }
    }
  };
  fill(new ReadCache(256 * 1024, () => 1), 2_000);
  gc();
  gc();
  const before = process.memoryUsage();
  const cache = new ReadCache(${BOUND}, () => 1);
  fill(cache, 40_000);
  gc();
  gc();
  const after = process.memoryUsage();
  process.stdout.write(JSON.stringify({ stats: cache.stats(), live: after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers }));
`;

test('an 8 MB read cache full of small records holds 8 MB, its index included', async () => {
  const { stats, live } = (await inChild(RECORDS)) as { stats: { entries: number; evictions: number }; live: number };
  assert.ok(stats.evictions > 10_000 && stats.entries > 9_000, `full: ${stats.entries} records, ${stats.evictions} evicted`);
  // Counted at 120 B an entry, the same cache held 8.9 MB here (9.35 million bytes).
  assert.ok(live <= BOUND, `alive ${(live / MB).toFixed(2)} MB for a bound of ${BOUND / MB} MB`);
});
