/**
 * The scenarios: what each one asks, as request files wrk's script draws from
 * (bench/wrk-script.ts), and the body its baselines answer with.
 *
 * Ids: every code of the data set, one request path a line, in a seeded
 * random order. Uniform scenarios pick any line; Zipf scenarios pick line r
 * with a probability ∝ 1/r (exponent 1.0 over the whole data set), so the
 * popular codes are spread over every system and the whole id range. Pages:
 * the first page and one position every 200 codes (the cursors collected by
 * walking the collection), in depth order: uniform picks any, Zipf favours
 * the first pages the way real clients do.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SYSTEMS, type GenerateManifest } from '../src/tools/generate/data-set.ts';
import { Random } from '../src/tools/generate/random.ts';
import { compress } from '../src/http/representations.ts';
import { entityTag } from '../src/http/entity-tags.ts';
import { httpGet } from './http.ts';
import type { RequestSource } from './load.ts';

export type BodyClass = 'record' | 'page50' | 'changes200' | 'error401' | 'page50-br' | 'changes200-br' | 'page50-304';

/** The bodies measured as they are sent (L1, bare Fastify, sends only these). */
export const PLAIN_BODIES: readonly BodyClass[] = ['record', 'page50', 'changes200', 'error401'];

/** What clients that accept compression send (curl --compressed, browsers, most HTTP libraries). */
export const ACCEPT_COMPRESSED = 'br, gzip';

export interface Scenario {
  id: string;
  title: string;
  body: BodyClass;
  /** The one status this scenario's responses should have. */
  expect: number;
  source: RequestSource;
}

export interface Cursors {
  codes: string[];
  changes: string[];
}

export const ZIPF_EXPONENT = 1.0;

/** The same request sequence on every run: the data generator's seeded source. */
export function random(seed: number): () => number {
  const source = new Random(seed);
  return () => source.next();
}

/** The code_id of the i-th code of the data set (systems in manifest order), percent-encoded for a path. */
export function codeIdAt(manifest: GenerateManifest, i: number): string {
  for (const s of manifest.systems) {
    if (i < s.codes) return `${s.system}:${encodeURIComponent(SYSTEMS.find((x) => x.name === s.system)!.code(i))}`;
    i -= s.codes;
  }
  throw new Error(`no code ${i} in the data set`);
}

/** Every code's path, shuffled with a seeded Fisher–Yates: line r is the code of Zipf rank r. */
function writeIdPaths(file: string, manifest: GenerateManifest, seed: number): void {
  const order = new Int32Array(manifest.codes);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const rnd = random(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const lines: string[] = [];
  for (const i of order) lines.push(`/v1/codes/${codeIdAt(manifest, i)}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

function writeLines(file: string, lines: string[]): string {
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Writes the request files into dir and returns the scenarios, in the order they run. */
/**
 * firstPageTag: the ETag of GET /v1/codes?limit=50, sent back in If-None-Match
 * by the 304 scenario.
 */
export function scenarios(
  dir: string,
  manifest: GenerateManifest,
  keys: string[],
  cursors: Cursors,
  deepDepth: number,
  cursorPage: number,
  firstPageTag: string,
): Scenario[] {
  const ids = join(dir, 'ids.txt');
  writeIdPaths(ids, manifest, 11);
  const keysFile = writeLines(join(dir, 'keys.txt'), keys);
  const pages = writeLines(join(dir, 'pages50.txt'), ['/v1/codes?limit=50', ...cursors.codes.map((c) => `/v1/codes?limit=50&cursor=${c}`)]);
  const changes = writeLines(join(dir, 'changes200.txt'), ['/v1/changes?limit=200', ...cursors.changes.map((c) => `/v1/changes?limit=200&cursor=${c}`)]);
  const deepCursor = cursors.codes[deepDepth / cursorPage - 1];
  if (deepDepth > 0 && deepCursor === undefined) throw new Error(`no cursor ${deepDepth} codes deep`);
  const first = writeLines(join(dir, 'first50.txt'), ['/v1/codes?limit=50']);
  const deep = writeLines(join(dir, 'deep50.txt'), [`/v1/codes?limit=50&cursor=${deepCursor}`]);
  const zipf = { pick: 'zipf', exponent: ZIPF_EXPONENT } as const;
  return [
    { id: '1', title: 'GET /v1/codes/{id}, uniform ids', body: 'record', expect: 200, source: { pathsFile: ids, pick: 'uniform', keys: keysFile } },
    { id: '1z', title: 'GET /v1/codes/{id}, Zipf ids', body: 'record', expect: 200, source: { pathsFile: ids, ...zipf, keys: keysFile } },
    { id: '2', title: 'GET /v1/codes?limit=50, uniform depths', body: 'page50', expect: 200, source: { pathsFile: pages, pick: 'uniform', keys: keysFile } },
    { id: '2z', title: 'GET /v1/codes?limit=50, Zipf depths', body: 'page50', expect: 200, source: { pathsFile: pages, ...zipf, keys: keysFile } },
    {
      id: '3',
      title: 'GET /v1/changes?limit=200, uniform depths',
      body: 'changes200',
      expect: 200,
      source: { pathsFile: changes, pick: 'uniform', keys: keysFile },
    },
    {
      id: '4',
      title: 'unknown key (401), never one the key cache holds',
      body: 'error401',
      expect: 401,
      source: { pathsFile: ids, pick: 'uniform', keys: 'random' },
    },
    { id: '5a', title: 'GET /v1/codes?limit=50, first page', body: 'page50', expect: 200, source: { pathsFile: first, pick: 'cycle', keys: keysFile } },
    {
      id: '5b',
      title: `GET /v1/codes?limit=50, ${deepDepth} codes deep`,
      body: 'page50',
      expect: 200,
      source: { pathsFile: deep, pick: 'cycle', keys: keysFile },
    },
    // Compression: the same requests as 1, 2 and 3 from a client that accepts br and gzip. A record is
    // below the compression threshold (sent as it is); pages are brotli-compressed once and then served
    // from the compressed cache while it holds them; 200-change pages outnumber what it holds at 1 000 000 codes.
    {
      id: '1c',
      title: `GET /v1/codes/{id}, uniform ids, Accept-Encoding: ${ACCEPT_COMPRESSED}`,
      body: 'record',
      expect: 200,
      source: { pathsFile: ids, pick: 'uniform', keys: keysFile, acceptEncoding: ACCEPT_COMPRESSED },
    },
    {
      id: '2c',
      title: `GET /v1/codes?limit=50, uniform depths, Accept-Encoding: ${ACCEPT_COMPRESSED}`,
      body: 'page50-br',
      expect: 200,
      source: { pathsFile: pages, pick: 'uniform', keys: keysFile, acceptEncoding: ACCEPT_COMPRESSED },
    },
    {
      id: '3c',
      title: `GET /v1/changes?limit=200, uniform depths, Accept-Encoding: ${ACCEPT_COMPRESSED}`,
      body: 'changes200-br',
      expect: 200,
      source: { pathsFile: changes, pick: 'uniform', keys: keysFile, acceptEncoding: ACCEPT_COMPRESSED },
    },
    // Conditional: the first page revalidated with its tag, answered 304 (compare with 5a, the same page as a 200).
    {
      id: '5n',
      title: 'GET /v1/codes?limit=50, first page, If-None-Match: its tag (304)',
      body: 'page50-304',
      expect: 304,
      source: { pathsFile: first, pick: 'cycle', keys: keysFile, acceptEncoding: ACCEPT_COMPRESSED, ifNoneMatch: firstPageTag },
    },
  ];
}

/**
 * What L0 answers for a body class, from an identity body the scenario
 * returned: the body itself, or compressed exactly as the service compresses
 * it (the coding it picks for "br, gzip"), or a 304 with the body's tag.
 */
export function baselineOf(body: BodyClass, sample: string): { bytes: Buffer; env: Record<string, string> } {
  const identity = Buffer.from(sample);
  if (body === 'page50-br' || body === 'changes200-br') return { bytes: compress(identity, 'br'), env: { CONTENT_ENCODING: 'br' } };
  if (body === 'page50-304') return { bytes: Buffer.alloc(0), env: { STATUS: '304', ETAG: entityTag(identity) } };
  return { bytes: identity, env: {} };
}

/** A few requests of the scenario, drawn in this process (the sizes, not wrk's exact sequence). */
function samplePaths(scenario: Scenario, lines: string[], count: number): string[] {
  const rnd = random(97);
  const s = scenario.source;
  if (s.pick === 'cycle') return Array.from({ length: count }, (_, i) => lines[i % lines.length]!);
  if (s.pick === 'uniform') return Array.from({ length: count }, () => lines[Math.floor(rnd() * lines.length)]!);
  const weights = lines.map((_, r) => (r + 1) ** -(s.exponent ?? 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return Array.from({ length: count }, () => {
    let u = rnd() * total;
    let r = 0;
    while (r < lines.length - 1 && u >= weights[r]!) u -= weights[r++]!;
    return lines[r]!;
  });
}

/**
 * The body a baseline answers with: a real response of the scenario, of
 * median size among 21, checked to have the scenario's status. Sampled
 * without the scenario's Accept-Encoding and If-None-Match: the identity body
 * (a 304 scenario's requests answer 200 without their tag).
 */
export async function sampleBody(port: number, scenario: Scenario, lines: string[], keys: string[]): Promise<string> {
  const samples: string[] = [];
  const stranger = `svc_live_${'Q'.repeat(32)}`;
  for (const [i, path] of samplePaths(scenario, lines, 21).entries()) {
    const key = scenario.source.keys === 'random' ? stranger : keys[i % keys.length]!;
    const response = await httpGet(port, path, { authorization: `Bearer ${key}` });
    const expect = scenario.expect === 304 ? 200 : scenario.expect;
    if (response.status !== expect)
      throw new Error(`scenario ${scenario.id}: ${path} answered ${response.status}, expected ${expect}: ${response.body.slice(0, 300)}`);
    const parsed = JSON.parse(response.body) as { data?: unknown[] };
    if (scenario.body.startsWith('page50') && parsed.data?.length !== 50)
      throw new Error(`scenario ${scenario.id}: ${path} returned ${parsed.data?.length} codes, not 50`);
    samples.push(response.body);
  }
  samples.sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b));
  return samples[Math.floor(samples.length / 2)]!;
}
