/**
 * A real service over a real SQLite file in a temporary folder, driven through
 * Fastify's inject(). Requests made with ctx.request()/ctx.get() carry a valid
 * API key by default once access control is in place, so read-side tests do not
 * repeat authentication.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { runImport, type ImportMode, type ImportSummary } from '../../src/services/import/importer.ts';
import type { Store } from '../../src/store/store.ts';

export interface TestContext {
  dir: string;
  config: Config;
  deps: Deps;
  store: Store;
  app: FastifyInstance;
  /** Headers that authenticate as the context's default key (empty without access control). */
  authHeaders: Record<string, string>;
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

export function tempDir(prefix = 'codebook-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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

export async function createTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const dir = tempDir();
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'codebook.db')}`, LOG_LEVEL: 'silent', ...env });
  const deps = await createDeps(config);
  const app = await buildApp({ store: deps.store, cursors: deps.cursors });
  await app.ready();
  const authHeaders: Record<string, string> = {};
  const request = (options: InjectOptions) =>
    app.inject({ ...options, headers: { ...authHeaders, ...(options.headers ?? {}) } });
  return {
    dir,
    config,
    deps,
    store: deps.store,
    app,
    authHeaders,
    request,
    get: (url, headers = {}) => request({ method: 'GET', url, headers }),
    importRows: (rows, options) => importRowsInto(deps.store, dir, rows, options),
    async close() {
      await app.close();
      await deps.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
