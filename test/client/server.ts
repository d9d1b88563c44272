/**
 * A real Codebook server for the client's tests: the app listening on a free
 * port of 127.0.0.1 over a temporary SQLite file, with organisations on plans
 * of the test's choosing, data imported through the importer, and a fetch
 * that records every request the client sends.
 */
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * What a gateway does with one request: pass the service's answer on whole;
 * `cut` it, sending its status, headers and Content-Length and the first
 * CUT_BYTES bytes of its body, then closing the connection; or answer those
 * bytes `short`, as a whole answer with a Content-Length to match.
 */
export type GatewayMove = 'relay' | 'cut' | 'short';

/** Bytes of the body a cut or short answer carries. */
export const CUT_BYTES = 10;

export interface Gateway {
  url: string;
  /** The moves made so far, one per request, in order. */
  moves: GatewayMove[];
  close(): Promise<void>;
}

const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length']);

/**
 * A real HTTP server on 127.0.0.1 in front of the service at `upstream`: it
 * asks the service with the request's method, path, key and body, then makes
 * the move `move` chooses for the request (the first is 1).
 */
export async function startGateway(upstream: string, move: (request: number) => GatewayMove): Promise<Gateway> {
  const moves: GatewayMove[] = [];
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = req.method ?? 'GET';
    const answer = await fetch(`${upstream}${req.url ?? '/'}`, { method, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
    const body = Buffer.from(await answer.arrayBuffer());
    const relayed = Object.fromEntries([...answer.headers].filter(([name]) => !HOP_HEADERS.has(name)));
    const made = move(moves.length + 1);
    moves.push(made);
    if (made === 'relay') {
      res.writeHead(answer.status, { ...relayed, 'content-length': String(body.length) }).end(body);
    } else if (made === 'short') {
      res.writeHead(answer.status, { ...relayed, 'content-length': String(CUT_BYTES) }).end(body.subarray(0, CUT_BYTES));
    } else {
      res.writeHead(answer.status, { ...relayed, 'content-length': String(body.length) });
      res.write(body.subarray(0, CUT_BYTES), () => res.socket?.destroy());
    }
  }
  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    moves,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** n rows of codes `C000`, `C001`, … */
export function codeRows(n: number, display = (i: number) => `Code ${i}`): Record<string, string>[] {
  return Array.from({ length: n }, (_, i) => ({ code: `C${String(i).padStart(3, '0')}`, display: display(i) }));
}
