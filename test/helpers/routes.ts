/**
 * The /v1 operations that the authentication, plan and limit tests walk,
 * derived from the OpenAPI document instead of written by hand: a new route
 * is walked as soon as it is documented, and test/http/route-table.test.ts
 * fails while a route is served but not documented (or the reverse).
 *
 * A request to an operation is filled generically: path parameters and
 * required query parameters from the sample maps below (fixture data that
 * seedRouteFixture() imports), request bodies from BODY_SAMPLES or else the
 * document's own example. A parameter without a sample fails loudly, naming
 * the map to extend.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ENDPOINTS, type EndpointName } from '../../src/domain/access.ts';
import type { TestContext } from './context.ts';
import { documentOf, operationsOf, type DocOperation } from './openapi.ts';

/** A value for each path parameter, naming the fixture data. */
export const PATH_SAMPLES: Record<string, string> = {
  code_id: 'demo:A',
  system: 'demo',
};

/** A value for each required query parameter. Optional ones are left out. */
export const QUERY_SAMPLES: Record<string, string> = {
  q: 'Alpha',
};

/** A request body per operationId, when the document's example does not fit the fixture. */
export const BODY_SAMPLES: Record<string, unknown> = {
  batchGetCodes: { ids: ['demo:A', 'demo:B'] },
};

/** The fixture the samples name: system demo with A (parent) and B (its child), on 2024-01-01. */
export async function seedRouteFixture(ctx: TestContext): Promise<void> {
  await ctx.importRows(
    [
      { code: 'A', display: 'Alpha' },
      { code: 'B', display: 'Beta', parents: 'A' },
    ],
    { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' },
  );
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiOperation {
  operationId: string;
  method: Method;
  /** The OpenAPI path template, e.g. /v1/codes/{code_id}. */
  path: string;
  /** The path with its parameters filled from PATH_SAMPLES, and required query parameters. */
  url: string;
  /** The JSON body to send, for operations that take one. */
  body?: unknown;
  /** The plan endpoint name the document's 403 example names, e.g. codes.get. */
  endpoint: EndpointName;
  /** The success status the document lists (its lowest 2xx). */
  ok: number;
}

function missing(kind: string, name: string, where: string, map: string): never {
  throw new Error(`no sample for ${kind} "${name}" of ${where}: add one to ${map} in test/helpers/routes.ts (and the data it names to seedRouteFixture)`);
}

/** Fills {param} segments from PATH_SAMPLES, percent-encoded. */
export function fillPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(PATH_SAMPLES[name] ?? missing('path parameter', name, path, 'PATH_SAMPLES')));
}

function requiredQuery(op: DocOperation, path: string): string {
  const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required);
  const pairs = required.map(
    (p) => `${p.name}=${encodeURIComponent(QUERY_SAMPLES[p.name] ?? missing('required query parameter', p.name, path, 'QUERY_SAMPLES'))}`,
  );
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

function bodyOf(id: string, op: DocOperation): unknown {
  if (!op.requestBody) return undefined;
  if (Object.hasOwn(BODY_SAMPLES, id)) return BODY_SAMPLES[id];
  const media = op.requestBody.content?.['application/json'];
  const example = media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
  return example ?? missing('request body', id, 'its operation (and the document has no example)', 'BODY_SAMPLES');
}

/** The endpoint name in the document's 403 example: "This endpoint (codes.get) is not part of …". */
function endpointOf(id: string, op: DocOperation): EndpointName {
  const media = op.responses['403']?.content?.['application/json'] as { examples?: Record<string, { value: { error: { message: string } } }> } | undefined;
  const message = media?.examples?.endpoint_not_available_on_plan?.value.error.message ?? '';
  const name = /\(([a-z_]+\.[a-z_]+)\)/.exec(message)?.[1];
  if (!name || !(ENDPOINTS as readonly string[]).includes(name)) {
    throw new Error(`${id}: its 403 example does not name a plan endpoint (one of ${ENDPOINTS.join(', ')}): ${message || 'no example'}`);
  }
  return name as EndpointName;
}

/** Every operation of the app's OpenAPI document, ready to send. */
export function apiOperations(app: FastifyInstance): ApiOperation[] {
  return operationsOf(documentOf(app)).map(({ method, path, op }) => {
    const id = op.operationId ?? `${method} ${path}`;
    const ok = Math.min(
      ...Object.keys(op.responses)
        .map(Number)
        .filter((s) => s >= 200 && s < 300),
    );
    if (!Number.isFinite(ok)) throw new Error(`${id}: the document lists no 2xx response`);
    const body = bodyOf(id, op);
    return {
      operationId: id,
      method: method as Method,
      path,
      url: `${fillPath(path)}${requiredQuery(op, path)}`,
      endpoint: endpointOf(id, op),
      ok,
      ...(body === undefined ? {} : { body }),
    };
  });
}

/** Sends the operation with exactly these headers (no default key), optionally to another URL. */
export function sendOperation(ctx: TestContext, op: ApiOperation, headers: Record<string, string>, url = op.url): Promise<LightMyRequestResponse> {
  const options: InjectOptions = { method: op.method, url, headers };
  if (op.body !== undefined) {
    options.payload = JSON.stringify(op.body);
    options.headers = { 'content-type': 'application/json', ...headers };
  }
  return ctx.app.inject(options);
}

/** `/v1/codes/:code_id` → `/v1/codes/{code_id}` */
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The paths the router serves and the methods listed for each, read from
 * Fastify's printRoutes() tree (one node a line; children indented by four).
 */
export function servedPaths(app: FastifyInstance): { path: string; methods: string[] }[] {
  const lines = app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .filter((l) => l.trim() !== '');
  const stack: string[] = [];
  const out: { path: string; methods: string[] }[] = [];
  for (const line of lines) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) throw new Error(`printRoutes() printed a line this parser does not know: ${JSON.stringify(line)}`);
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const full = `${stack.at(-1) ?? ''}${m[2]!}`;
    stack.push(full);
    if (m[3] !== undefined) out.push({ path: full, methods: m[3].split(', ') });
  }
  if (!out.some((r) => r.path.startsWith('/v1/'))) throw new Error(`no /v1 route found in printRoutes():\n${lines.join('\n')}`);
  return out;
}

/**
 * The /v1 routes that do something: every method the router lists for a /v1
 * path, except HEAD (GET's twin) and the ones that only answer 405 (the
 * catch-all that names the allowed methods). Probed with the context's key.
 */
export async function routeTable(ctx: TestContext): Promise<{ method: string; path: string }[]> {
  const table: { method: string; path: string }[] = [];
  for (const { path, methods } of servedPaths(ctx.app).filter((r) => r.path.startsWith('/v1/'))) {
    const openApiPath = toOpenApiPath(path);
    const url = fillPath(openApiPath);
    for (const method of methods.filter((m) => m !== 'HEAD')) {
      const res = await ctx.app.inject({ method: method as Method, url, headers: ctx.authHeaders });
      const refused = res.statusCode === 405 && res.json<{ error?: { code?: string } }>().error?.code === 'method_not_allowed';
      if (!refused) table.push({ method, path: openApiPath });
    }
  }
  return table;
}
