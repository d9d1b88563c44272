/**
 * The OpenAPI document as an oracle for every test. checkedInject() wraps an
 * app's inject() so that each /v1 response is held against /openapi.json:
 * its status must be documented for the operation, its body must match the
 * schema of that status (errors included), and a path or method the document
 * does not describe must answer in the one error shape. A mismatch fails the
 * test that made the request, with the schema's complaints and the body.
 */
import assert from 'node:assert/strict';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

// ajv-formats is CommonJS: its default import is the plugin function itself.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type Json = Record<string, unknown>;
export interface DocOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Json; example?: unknown }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json; example?: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { description?: string; headers?: Json; content?: Record<string, { schema?: Json }> }>;
}
export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description: string }[];
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, Json>; securitySchemes?: Json };
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const REF_BASE = 'urn:codebook:openapi';

/** A copy whose '#/components/schemas/X' refs point into the schema registered under REF_BASE. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', `${REF_BASE}#/$defs/`) : rebase(inner),
    ]),
  );
}

/** Compiles schemas of the document (strict: a keyword ajv does not know is an error, except OpenAPI's own annotations). */
export function validatorFor(doc: OpenApiDoc): (schema: Json) => ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  ajv.addVocabulary(['example', 'xml', 'discriminator', 'externalDocs']);
  addFormats(ajv);
  ajv.addSchema({ $id: REF_BASE, $defs: rebase(doc.components?.schemas ?? {}) as Json });
  const compiled = new Map<Json, ValidateFunction>();
  return (schema) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(rebase(schema) as Json)));
    return validate;
  };
}

export const jsonSchemaOf = (op: DocOperation, status: string): Json | undefined => op.responses[status]?.content?.['application/json']?.schema;

/** Every operation of the document: method (upper case), OpenAPI path template, and the operation. */
export function operationsOf(doc: OpenApiDoc): { method: string; path: string; op: DocOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m] !== undefined).map((m) => ({ method: m.toUpperCase(), path, op: item[m]! })),
  );
}

interface Template {
  path: string;
  segments: string[];
  params: number;
}

/** The documented path that a request path routes to: literal segments win over parameters, as in the router. */
function matchPath(templates: Template[], requestPath: string): string | undefined {
  const segments = requestPath.split('/');
  return templates.find(
    (t) => t.segments.length === segments.length && t.segments.every((s, i) => (s.startsWith('{') ? segments[i] !== '' : s === segments[i])),
  )?.path;
}

/** The one error shape: the schema every documented error response shares. */
function errorSchemaOf(doc: OpenApiDoc): Json {
  for (const { op } of operationsOf(doc)) {
    const schema = jsonSchemaOf(op, '401');
    if (schema) return schema;
  }
  throw new Error('the OpenAPI document documents no 401: no error shape to check against');
}

const formatErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .map((e) => `  at ${e.instancePath || '(the body)'}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)} (schema ${e.schemaPath})`)
    .join('\n');

/** What the check reads of a response: inject()'s, or a fetch() Response's (see checkedFetch). */
export interface CheckedResponse {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

export interface ResponseChecker {
  doc: OpenApiDoc;
  check(method: string, url: string, res: CheckedResponse): void;
}

const checkers = new Map<string, ResponseChecker>();

/** The checker for this app's document (compiled once per distinct document in a process). */
export function responseChecker(doc: OpenApiDoc): ResponseChecker {
  const text = JSON.stringify(doc);
  const cached = checkers.get(text);
  if (cached) return cached;
  const compile = validatorFor(doc);
  const errorSchema = errorSchemaOf(doc);
  const templates: Template[] = Object.keys(doc.paths)
    .map((path) => ({ path, segments: path.split('/'), params: path.split('/').filter((s) => s.startsWith('{')).length }))
    .sort((a, b) => a.params - b.params);

  const checker: ResponseChecker = {
    doc,
    check(method, url, res) {
      const path = url.split('?')[0]!;
      if (path !== '/v1' && !path.startsWith('/v1/')) return;
      const what = `${method} ${url.length > 200 ? `${url.slice(0, 200)}…` : url} answered ${res.statusCode}`;
      const template = matchPath(templates, path);
      const op = template === undefined ? undefined : doc.paths[template]![(method === 'HEAD' ? 'get' : method.toLowerCase()) as 'get'];
      let schema: Json | undefined;
      let where: string;
      if (op) {
        where = `${op.operationId ?? template} ${res.statusCode}`;
        const documented = op.responses[String(res.statusCode)] ?? op.responses.default;
        assert.ok(
          documented,
          `${what}, a status the OpenAPI document does not list for ${op.operationId ?? template} (it lists ${Object.keys(op.responses).join(', ')}).\n${res.body.slice(0, 500)}`,
        );
        schema = documented.content?.['application/json']?.schema;
        if (!schema) {
          assert.equal(res.body, '', `${what}: the document gives ${where} no body, but one came:\n${res.body.slice(0, 500)}`);
          return;
        }
      } else {
        // Outside every documented operation (no such path, a method not allowed): the one error shape.
        where = template === undefined ? 'no documented path' : `no documented ${method} on ${template}`;
        assert.ok(res.statusCode >= 400, `${what}, though the OpenAPI document has ${where}.`);
        schema = errorSchema;
      }
      if (method === 'HEAD') return;
      assert.match(
        String(res.headers['content-type']),
        /^application\/json/,
        `${what} with Content-Type ${String(res.headers['content-type'])}; the document (${where}) says JSON.\n${res.body.slice(0, 500)}`,
      );
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        assert.fail(`${what}: the body is not JSON (${where}):\n${res.body.slice(0, 500)}`);
      }
      const validate = compile(schema);
      if (!validate(body)) {
        assert.fail(`${what}: the body does not match the OpenAPI document (${where}):\n${formatErrors(validate.errors)}\nbody: ${res.body.slice(0, 1000)}`);
      }
    },
  };
  checkers.set(text, checker);
  return checker;
}

/** The app's own document, as /openapi.json serves it. */
export function documentOf(app: FastifyInstance): OpenApiDoc {
  return (app as unknown as { swagger(): OpenApiDoc }).swagger();
}

const appCheckers = new WeakMap<FastifyInstance, ResponseChecker>();
function appChecker(app: FastifyInstance): ResponseChecker {
  let checker = appCheckers.get(app);
  if (!checker) appCheckers.set(app, (checker = responseChecker(documentOf(app))));
  return checker;
}

/** fetch(), then the same check as checkResponses() on the response (read from a clone, so the caller still has the body). */
export async function checkedFetch(app: FastifyInstance, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, init);
  const body = await res.clone().text();
  const { pathname, search } = new URL(url);
  appChecker(app).check(init.method ?? 'GET', `${pathname}${search}`, {
    statusCode: res.status,
    body,
    headers: { 'content-type': res.headers.get('content-type') ?? undefined },
  });
  return res;
}

/** The body as a client reads it once the content coding is undone (inject() gives the bytes as sent). */
export function decodedBody(res: LightMyRequestResponse): string {
  const coding = res.headers['content-encoding'];
  // HEAD and 304 carry the coding's headers without a body.
  if (res.rawPayload.length === 0) return '';
  if (coding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (coding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  assert.equal(coding, undefined, `an answer in a content coding the service does not send: ${String(coding)}`);
  return res.body;
}

const CHECKED = new WeakSet<FastifyInstance>();

/** Whether checkResponses() wraps this app's inject(). */
export const isChecked = (app: FastifyInstance): boolean => CHECKED.has(app);

/**
 * Makes app.inject(options) check every /v1 response against the app's
 * OpenAPI document (call after app.ready()). The chained and callback forms
 * of inject() pass through unchecked.
 */
export function checkResponses(app: FastifyInstance): FastifyInstance {
  const checker = appChecker(app);
  const original = app.inject.bind(app) as (...args: unknown[]) => unknown;
  const checked = async (options: InjectOptions | string) => {
    const res = (await original(options)) as LightMyRequestResponse;
    const req = res.raw.req as { method?: string; url?: string };
    const url = req.url ?? '';
    // Only /v1 answers are checked (and only they are compressed by the service itself).
    const body = url === '/v1' || url.startsWith('/v1/') ? decodedBody(res) : res.body;
    checker.check(req.method ?? 'GET', url, { statusCode: res.statusCode, headers: res.headers, body });
    return res;
  };
  (app as unknown as { inject: unknown }).inject = (options?: InjectOptions | string, callback?: unknown) =>
    options === undefined || callback !== undefined ? original.call(app, options, callback) : checked(options);
  CHECKED.add(app);
  return app;
}
