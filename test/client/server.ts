/**
 * A real Codebook server for the client's tests: the app listening on a free
 * port of 127.0.0.1 over a temporary SQLite file, with organisations on plans
 * of the test's choosing, data imported through the importer, and a fetch
 * that records every request the client sends.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import type { EndpointName } from '../../src/domain/access.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import type { ImportSummary } from '../../src/services/import/importer.ts';
import { FaultyStore } from '../helpers/faulty-store.ts';
import { importRowsInto, tempDir, type ImportRowsOptions } from '../helpers/context.ts';

export const ALL_ENDPOINTS: EndpointName[] = ['codes.list', 'codes.get', 'changes.list'];

export interface PlanLimits {
  endpoints?: EndpointName[];
  ratePerMinute?: number;
  monthlyQuota?: number | null;
}

export interface TestServer {
  url: string;
  dir: string;
  deps: Deps;
  app: FastifyInstance;
  /** The FaultyStore when the server was started with `faulty`. */
  faults: FaultyStore | null;
  /** A live key of a new organisation on a plan of its own (default: every endpoint, no practical limit). */
  customer(limits?: PlanLimits): Promise<string>;
  importRows(rows: Record<string, string>[], options: ImportRowsOptions): Promise<ImportSummary>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** The clock the limiter reads. */
  now?: () => number;
  /** Serve from a FaultyStore, reachable as server.store. */
  faulty?: boolean;
}

let customers = 0;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = tempDir('codebook-client-');
  const path = join(dir, 'codebook.db');
  const config = loadConfig({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent' });
  const store = options.faulty ? new FaultyStore({ path }) : undefined;
  const deps = await createDeps(config, { ...(options.now ? { now: options.now } : {}), ...(store ? { store } : {}) });
  const app = await buildApp(deps);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    dir,
    deps,
    app,
    faults: store ?? null,
    async customer(limits = {}) {
      const name = `client-test-${++customers}`;
      await setPlan(deps.admin, {
        name,
        endpoints: limits.endpoints ?? ALL_ENDPOINTS,
        ratePerMinute: limits.ratePerMinute ?? 1_000_000,
        monthlyQuota: limits.monthlyQuota === undefined ? null : limits.monthlyQuota,
        testKeysAllowed: true,
      });
      const org = await createOrg(deps.admin, name, name);
      return (await createKey(deps.admin, org, 'live', name)).key;
    },
    importRows: (rows, o) => importRowsInto(deps.store, dir, rows, o),
    async close() {
      await app.close();
      await deps.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The answer's status, or the error fetch threw. */
  status: number | null;
  error: unknown;
}

/** The global fetch, recording what the client sent and what came back: the client's `fetch` option. */
export function recordingFetch(): { fetch: (url: string, init: RequestInit) => Promise<Response>; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  return {
    sent,
    async fetch(url, init) {
      const entry: SentRequest = { method: init.method ?? 'GET', url, headers: Object.fromEntries(new Headers(init.headers)), status: null, error: undefined };
      sent.push(entry);
      try {
        const res = await fetch(url, init);
        entry.status = res.status;
        return res;
      } catch (error) {
        entry.error = error;
        throw error;
      }
    },
  };
}

/** n rows of codes `C000`, `C001`, … */
export function codeRows(n: number, display = (i: number) => `Code ${i}`): Record<string, string>[] {
  return Array.from({ length: n }, (_, i) => ({ code: `C${String(i).padStart(3, '0')}`, display: display(i) }));
}
