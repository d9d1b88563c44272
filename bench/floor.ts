/**
 * The per-request floor: what a given amount of work per request leaves of
 * bare `http`'s rate on this machine. Runs L0 (bench/baselines/bare-http.ts,
 * the 818-byte record body) with SPIN_US microseconds of busy CPU before each
 * answer, for each amount in turn, interleaved over --pairs rounds, under the
 * bench's load (wrk, one thread, 32 connections, keep-alive), and prints the
 * median req/s of each, its share of L0 with no work, and the cost per request
 * beyond the work itself. Issue 16's ratios are shares of L0: the table shows
 * how few microseconds a request may cost for each.
 *
 *   node bench/floor.ts [--spins 0,2,5,10,25,50] [--pairs 3] [--duration 5]
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureWrk } from './load.ts';
import { median } from './pairs.ts';

const { values } = parseArgs({
  options: { spins: { type: 'string', default: '0,2,5,10,25,50' }, pairs: { type: 'string', default: '3' }, duration: { type: 'string', default: '5' } },
});
const spins = values.spins.split(',').map(Number);
const pairs = Number(values.pairs);
const seconds = Number(values.duration);
if (!spins.includes(0) || spins.some((s) => !(s >= 0)) || !(pairs >= 1) || !(seconds >= 1))
  throw new Error('--spins: numbers ≥ 0, 0 among them; --pairs ≥ 1; --duration ≥ 1');
ensureWrk((line) => console.log(line));

const dir = mkdtempSync(join(tmpdir(), 'codebook-floor-'));
const bodyFile = join(dir, 'body.json');
writeFileSync(bodyFile, JSON.stringify({ object: 'code', id: 'dx:A00', padding: 'x'.repeat(760) }));

/** Req/s of wrk against L0 with spin µs of work a request. */
async function measure(spin: number, port: number): Promise<number> {
  const child = spawn(process.execPath, ['bench/baselines/bare-http.ts'], {
    env: { ...process.env, BODY_FILE: bodyFile, PORT: String(port), SPIN_US: String(spin) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`L0 stopped (exit code ${code})`)));
  });
  try {
    const out = execFileSync('wrk', ['-t1', '-c32', `-d${seconds}s`, `http://127.0.0.1:${port}/v1/codes/x`], { encoding: 'utf8' });
    const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
    if (rate === null) throw new Error(`wrk printed no rate:\n${out}`);
    return Number(rate[1]);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const rates = new Map<number, number[]>(spins.map((s) => [s, []]));
try {
  for (let round = 0; round < pairs; round++)
    for (const spin of spins) {
      const rate = await measure(spin, 9300 + round);
      rates.get(spin)!.push(rate);
      console.log(`round ${round + 1}: ${spin} µs of work → ${Math.round(rate)} req/s`);
    }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const base = median(rates.get(0)!);
console.log('\nwork µs  req/s (median)  share of L0  µs a request  beyond the work');
for (const spin of spins) {
  const rate = median(rates.get(spin)!);
  const each = 1e6 / rate;
  const beyond = each - 1e6 / base - spin;
  console.log(
    `${String(spin).padStart(7)}  ${String(Math.round(rate)).padStart(14)}  ${`${((100 * rate) / base).toFixed(0)} %`.padStart(11)}  ${each.toFixed(1).padStart(12)}  ${beyond.toFixed(1).padStart(15)}`,
  );
}
