/**
 * A real service over a real SQLite file in a temporary folder, driven through
 * Fastify's inject(). Requests made with ctx.request()/ctx.get() carry a valid
 * API key by default once access control is in place, so read-side tests do not
 * repeat authentication. Every /v1 response, through ctx.app.inject() too, is
 * checked against the OpenAPI document (helpers/openapi.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import { ENDPOINTS, type Organisation } from '../../src/domain/access.ts';
import { runImport, type ImportMode, type ImportSummary } from '../../src/services/import/importer.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/store.ts';
import { checkResponses } from './openapi.ts';

export interface TestContext {
  dir: string;
  config: Config;
  deps: Deps;
  store: Store;
  app: FastifyInstance;
  /** Headers that authenticate as the context's default key. */
  authHeaders: Record<string, string>;
  /** The organisation that owns the default key, on a plan with every endpoint and generous limits. */
  org: Organisation;
  /** The default key, in full. */
  key: string;
  /** The clock the service reads; tests move it to cross minutes and months. */
  clock: TestClock;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Imports rows (objects with code, display, …) as a CSV file. */
  importRows(rows: Record<string, string>[], options: ImportRowsOptions): Promise<ImportSummary>;
  close(): Promise<void>;
}

export interface ImportRowsOptions {
  system: string;
  release: string;
  effectiveDate: string;
  mode?: ImportMode;
}

export class TestClock {
  ms: number;
  constructor(start = Date.parse('2026-03-15T12:00:30Z')) {
    this.ms = start;
  }
  now = (): number => this.ms;
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface ContextOptions {
  /** Environment for loadConfig (DATABASE_URL defaults to a temp file). */
  env?: Record<string, string>;
  /** Limits of the default key's plan (defaults: every endpoint, 1 000 000/min, unlimited). */
  ratePerMinute?: number;
  monthlyQuota?: number | null;
  /** Wall-clock time instead of the test clock. */
  realClock?: boolean;
}

export function tempDir(prefix = 'codebook-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A fresh SqliteStore in a temporary folder, as the backend-agnostic store suites open one. */
export async function openTempSqliteStore(): Promise<{ store: Store; dir: string; cleanup(): Promise<void> }> {
  const dir = tempDir();
  const store = new SqliteStore({ path: join(dir, 'codebook.db') });
  return {
    store,
    dir,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function toCsv(rows: Record<string, string>[]): string {
  const columns = [...new Set(['code', 'display', ...rows.flatMap((r) => Object.keys(r))])];
  const cell = (v: string | undefined) => (v === undefined ? '' : /[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

let fileCounter = 0;

export async function importRowsInto(store: Store, dir: string, rows: Record<string, string>[], o: ImportRowsOptions): Promise<ImportSummary> {
  const file = join(dir, `import-${process.pid}-${++fileCounter}.csv`);
  writeFileSync(file, toCsv(rows));
  return runImport(store, { file, format: 'csv', mode: o.mode ?? 'delta', system: o.system, release: o.release, effectiveDate: o.effectiveDate });
}

export async function createTestContext(envOrOptions: Record<string, string> | ContextOptions = {}): Promise<TestContext> {
  const options: ContextOptions =
    'env' in envOrOptions || 'ratePerMinute' in envOrOptions || 'monthlyQuota' in envOrOptions || 'realClock' in envOrOptions
      ? envOrOptions
      : { env: envOrOptions as Record<string, string> };
  const dir = tempDir();
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'codebook.db')}`, LOG_LEVEL: 'silent', ...options.env });
  const clock = new TestClock();
  const deps = await createDeps(config, options.realClock ? {} : { now: clock.now });
  // Every /v1 response a test receives is held against the OpenAPI document.
  const app = await buildApp(deps);
  await app.ready();
  checkResponses(app);
  await setPlan(deps.admin, {
    name: 'test-all',
    endpoints: [...ENDPOINTS],
    ratePerMinute: options.ratePerMinute ?? 1_000_000,
    monthlyQuota: options.monthlyQuota === undefined ? null : options.monthlyQuota,
    testKeysAllowed: true,
  });
  const org = await createOrg(deps.admin, 'test-org', 'test-all');
  const { key } = await createKey(deps.admin, org, 'live', 'test key');
  const authHeaders: Record<string, string> = { authorization: `Bearer ${key}` };
  const request = (o: InjectOptions) => app.inject({ ...o, headers: { ...authHeaders, ...(o.headers ?? {}) } });
  return {
    dir,
    config,
    deps,
    store: deps.store,
    app,
    authHeaders,
    org,
    key,
    clock,
    request,
    get: (url, headers = {}) => request({ method: 'GET', url, headers }),
    importRows: (rows, o) => importRowsInto(deps.store, dir, rows, o),
    async close() {
      await app.close();
      await deps.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A context holding two codes, demo:A (Alpha) and demo:B (Beta), of release r1 effective 2024-01-01. */
export async function createDemoContext(): Promise<TestContext> {
  const ctx = await createTestContext();
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha' },
      { code: 'B', display: 'Beta' },
    ],
    { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' },
  );
  return ctx;
}
