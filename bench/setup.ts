/**
 * What the bench sets up before it measures: access (a plan that never
 * refuses, keys of several organisations), the server under test as a child
 * process, and the cursors for random depths, collected once by walking the
 * collections and kept beside the data.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/deps.ts';
import { ENDPOINTS } from '../src/domain/access.ts';
import { createKey, createOrg, listKeys, revokeKey, setOrgPlan, setPlan } from '../src/services/access/admin.ts';
import { ROOT, type BenchData } from './data.ts';
import { httpGet, sleep } from './http.ts';
import type { Cursors } from './scenarios.ts';
import { serverNodeFlags } from './server-flags.ts';

/** Keys of this many organisations take turns, so no one organisation's minute limit comes near. */
export const ORGS = 8;
export const CURSOR_PAGE = 200;
/** The deep page of scenario 5b: 900 000 codes deep, or 90 % of a smaller data set, at a collected cursor. */
const DEEP_PAGE = 900_000;

export function deepPageDepth(codes: number): number {
  return Math.min(DEEP_PAGE, Math.floor((0.9 * codes) / CURSOR_PAGE) * CURSOR_PAGE);
}
export const RESULTS = join(ROOT, 'bench', 'results');

export interface Probe {
  path: string;
  headers: Record<string, string>;
}

// ---------------------------------------------------------------------------
// Access: a plan that never refuses, and keys of several organisations.

/** databaseUrl: as DATABASE_URL takes it (`sqlite:FILE`, `postgres://…`). */
export async function setupAccess(databaseUrl: string): Promise<string[]> {
  const deps = await createDeps(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
  try {
    await setPlan(deps.admin, { name: 'bench', endpoints: [...ENDPOINTS], ratePerMinute: 1_000_000, monthlyQuota: null, testKeysAllowed: true });
    const keys: string[] = [];
    for (let i = 1; i <= ORGS; i++) {
      const slug = `bench-${i}`;
      let org = await deps.store.access.getOrg(slug);
      if (!org) org = await createOrg(deps.admin, slug, 'bench');
      else if (org.plan !== 'bench') org = await setOrgPlan(deps.admin, slug, 'bench');
      // Keys of earlier runs are revoked: each run works with its own.
      for (const k of await listKeys(deps.admin, org)) if (k.revokedAt === null) await revokeKey(deps.admin, k.id, org);
      keys.push((await createKey(deps.admin, org, 'live', 'bench')).key);
    }
    return keys;
  } finally {
    await deps.close();
  }
}

// ---------------------------------------------------------------------------
// The server under test.

export interface Server {
  child: ChildProcess;
  port: number;
  startMs: number;
  /** Set when the process has exited, with its code or signal. */
  exit: { value: string | null };
}

/** backend: the settings of another database (and Redis) than the data's SQLite file (bench/scaled.ts). */
export async function startServer(
  data: BenchData,
  port: number,
  probe: Probe,
  logFile: string,
  profile = false,
  backend: Record<string, string> = {},
): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${data.dbFile}`,
    LOG_LEVEL: 'warn',
    ...backend,
  };
  // The secret kept in the database signs the cursors collected beforehand.
  delete env.CURSOR_SECRET;
  const out = createWriteStream(logFile, { flags: 'a' });
  const started = performance.now();
  const flags = [...serverNodeFlags(ROOT), ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS, 'profiles')}`] : [])];
  const child = spawn(process.execPath, [...flags, 'src/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  const exit: Server['exit'] = { value: null };
  child.once('exit', (code, signal) => {
    exit.value = signal ?? `code ${code}`;
    out.end(`[bench] the server exited: ${exit.value}\n`);
  });
  for (;;) {
    if (exit.value !== null) throw new Error(`the server exited during start-up (${exit.value}); see ${logFile}`);
    try {
      const response = await httpGet(port, probe.path, probe.headers);
      if (response.status !== 200) throw new Error(`the server's first answer was ${response.status}: ${response.body.slice(0, 300)}`);
      return { child, port, startMs: performance.now() - started, exit };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error;
      await sleep(2);
    }
  }
}

// ---------------------------------------------------------------------------
// Cursors, collected by walking the collections once (and kept beside the data).

/** Walks a collection CURSOR_PAGE at a time and keeps every cursor: positions at every depth. path may carry a query. */
export async function walkCursors(port: number, key: string, path: string): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const cursors: string[] = [];
  let cursor: string | null = null;
  try {
    do {
      const response = await httpGet(
        port,
        `${path}${path.includes('?') ? '&' : '?'}limit=${CURSOR_PAGE}${cursor ? `&cursor=${cursor}` : ''}`,
        { authorization: `Bearer ${key}` },
        agent,
      );
      if (response.status !== 200) throw new Error(`walking ${path}: ${response.status} ${response.body.slice(0, 300)}`);
      const match = /"next_cursor":"([^"]+)"/.exec(response.body.slice(-4096));
      cursor = match ? match[1]! : null;
      if (cursor) cursors.push(cursor);
    } while (cursor);
  } finally {
    agent.destroy();
  }
  return cursors;
}

/** file: where they are kept (a database signs its own cursors: another backend keeps them in a file of its own). */
export async function loadCursors(
  data: BenchData,
  port: number,
  key: string,
  log: (line: string) => void,
  file = join(data.dir, 'cursors.json'),
): Promise<Cursors> {
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as Cursors;
    const probes = [cached.codes[0], cached.codes.at(-1), cached.changes[0], cached.changes.at(-1)];
    let valid = probes.every((c) => c !== undefined);
    for (const [i, c] of probes.entries()) {
      if (!valid) break;
      const response = await httpGet(port, `/v1/${i < 2 ? 'codes' : 'changes'}?limit=1&cursor=${c}`, { authorization: `Bearer ${key}` });
      valid = response.status === 200;
    }
    if (valid) return cached;
    log('cursors: the cached ones are no longer accepted; collecting them again');
  }
  const started = performance.now();
  const [codes, changes] = await Promise.all([walkCursors(port, key, '/v1/codes'), walkCursors(port, key, '/v1/changes')]);
  log(
    `cursors: walked ${codes.length + 1} pages of codes and ${changes.length + 1} of changes (${CURSOR_PAGE} a page) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  writeFileSync(file, JSON.stringify({ codes, changes }));
  return { codes, changes };
}
