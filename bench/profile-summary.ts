/**
 * Where a request's CPU goes, from a server profile (`npm run bench -- --only 2 --profile`):
 * every sample is given to the part of the service that its nearest frame with a source file
 * belongs to (a native call such as a SQLite statement counts to the code that made it), and
 * the busy share of each part is turned into µs per request with the run's req/s and server CPU.
 *
 *   npx node bench/profile-summary.ts PROFILE.cpuprofile [--rps N --cpu 0.97] [--skip SECONDS]
 *
 * --skip leaves out the first seconds of the profile (start-up, compiling, collecting cursors).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part a source file belongs to; first match wins. */
const PARTS: [string, RegExp][] = [
  ['read cache', /src\/services\/(cached-catalog|read-cache)\.ts/],
  ['freshness check', /write-window\.ts/],
  ['store: SQL read', /src\/store\/|node:sqlite/],
  ['access: key, plan, limits, usage, request log', /src\/(http\/access-gate|http\/request-log-entry|services\/access|limiter)\//],
  ['cursor: verify and sign', /src\/http\/(cursor|pagination)\.ts/],
  ['routes and handlers', /src\/http\/routes\//],
  ['app hooks (v1, logging, metrics, errors)', /src\/http\//],
  ['other app code', /src\//],
  [
    'Fastify (routing, hooks, reply, schema)',
    /node_modules\/(fastify|find-my-way|avvio|@fastify|fast-json-stringify|fast-querystring|light-my-request|fast-uri|ajv)/,
  ],
  ['pino logger', /node_modules\/(pino|sonic-boom|thread-stream)/],
  ['Node HTTP (parse, headers, response)', /node:_http|node:internal\/http|_http_/],
  ['socket I/O (net, streams)', /node:net|node:internal\/(stream|streams|net)|stream_base/],
  ['other Node and dependencies', /./],
];

function partOf(url: string): string {
  for (const [name, pattern] of PARTS) if (pattern.test(url)) return name;
  return 'other Node and dependencies';
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rps: { type: 'string' }, cpu: { type: 'string' }, skip: { type: 'string' } } });
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);

const partCache = new Map<number, string>();
function nodePart(id: number): string {
  const cached = partCache.get(id);
  if (cached) return cached;
  const node = byId.get(id)!;
  const name = node.callFrame.functionName;
  let part: string;
  if (name === '(idle)') part = 'idle';
  else if (name === '(garbage collector)') part = 'garbage collection';
  else if (name === '(program)') part = 'native, unattributed (libuv, V8)';
  else if (node.callFrame.url !== '') part = partOf(node.callFrame.url);
  else {
    const parent = parentOf.get(id);
    part = parent === undefined ? 'native, unattributed (libuv, V8)' : nodePart(parent);
    if (part === 'idle' || part === '(root)') part = 'native, unattributed (libuv, V8)';
  }
  partCache.set(id, part);
  return part;
}

const micros = new Map<string, number>();
const skipUs = Number(values.skip ?? 0) * 1e6;
let elapsed = 0;
for (let i = 0; i < profile.samples.length; i++) {
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed < skipUs) continue;
  const part = nodePart(profile.samples[i]!);
  micros.set(part, (micros.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const busy = [...micros].filter(([p]) => p !== 'idle').reduce((s, [, v]) => s + v, 0);
const rps = values.rps ? Number(values.rps) : null;
const cpu = values.cpu ? Number(values.cpu) : 1;
// µs of CPU per request = the server's CPU share ÷ requests per second.
const perRequest = rps ? (cpu * 1e6) / rps : null;
const rows = [...micros].filter(([p]) => p !== 'idle').sort((a, b) => b[1] - a[1]);
process.stdout.write(
  `busy ${(busy / 1e6).toFixed(1)} s of ${((busy + (micros.get('idle') ?? 0)) / 1e6).toFixed(1)} s profiled${perRequest ? `; ${perRequest.toFixed(1)} µs of CPU per request` : ''}\n`,
);
for (const [part, us] of rows) {
  const share = us / busy;
  process.stdout.write(`${(share * 100).toFixed(1).padStart(5)} %  ${perRequest ? `${(share * perRequest).toFixed(1).padStart(6)} µs  ` : ''}${part}\n`);
}
