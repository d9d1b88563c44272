/**
 * The client keeps up with the service. Against a running server: the
 * committed types are what openapi-typescript makes of its /openapi.json
 * today; every operation in the document has a client method (and the
 * client's table names no operation the document lacks); every error code the
 * service can answer with has its class.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as client from '../../clients/typescript/src/index.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { startTestServer, type TestServer } from './server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = join(ROOT, 'clients', 'typescript');

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

let server: TestServer;
let document: Document;

before(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/openapi.json`);
  assert.equal(res.status, 200);
  document = (await res.json()) as Document;
});
after(() => server.close());

function operations(): { id: string; method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      id: operation.operationId ?? `${method.toUpperCase()} ${path} (no operationId)`,
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: PACKAGE, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('src/schema.ts is what npm run generate makes of the running service’s /openapi.json', async () => {
  const out = join(server.dir, 'schema.ts');
  const generated = await run(['scripts/generate.ts', `${server.url}/openapi.json`, '--out', out]);
  assert.equal(generated.code, 0, generated.stderr);
  const committed = readFileSync(join(PACKAGE, 'src', 'schema.ts'), 'utf8');
  assert.ok(
    readFileSync(out, 'utf8') === committed,
    'clients/typescript/src/schema.ts is out of date with the service: run `npm run generate` in clients/typescript, then add what changed to the client (CONTRIBUTING.md says how).',
  );
});

test('every operation of the document has a client method, at the same method and path', () => {
  const table: Record<string, { method: string; path: string; clientMethod: string }> = client.OPERATIONS;
  const instance = new client.Codebook({ apiKey: 'svc_live_' + 'x'.repeat(32), baseUrl: server.url }) as unknown as Record<string, Record<string, unknown>>;
  const documented = operations();
  assert.ok(documented.length >= 4);
  for (const { id, method, path } of documented) {
    const entry = table[id];
    assert.ok(
      entry,
      `${method} ${path} (${id}) has no client method: add it to OPERATIONS in clients/typescript/src/operations.ts (see clients/typescript/CONTRIBUTING.md)`,
    );
    assert.deepEqual({ method: entry.method, path: entry.path }, { method, path }, `OPERATIONS.${id}`);
    const [resource, name] = entry.clientMethod.split('.') as [string, string];
    assert.equal(typeof instance[resource]?.[name], 'function', `client.${entry.clientMethod} (for ${id}) does not exist`);
  }
  const ids = new Set(documented.map((o) => o.id));
  for (const id of Object.keys(table)) assert.ok(ids.has(id), `OPERATIONS.${id} is not in the service's document`);
});

/** Every error code enum of every error answer in the document. */
function documentedErrorCodes(): Set<string> {
  const codes = new Set<string>();
  for (const { operation } of operations()) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (Number(status) < 400) continue;
      const schema = response.content?.['application/json']?.schema as { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } | undefined;
      const values = schema?.properties?.error?.properties?.code?.enum;
      assert.ok(values && values.length > 0, `the ${status} answer has no error code enum`);
      for (const code of values) codes.add(code);
    }
  }
  return codes;
}

test('every error code the service has, and every one its document lists, has a class of its own', () => {
  const classes: Record<string, new (init: client.CodebookErrorInit) => client.CodebookError> = client.ERROR_CLASSES;
  for (const code of new Set([...ERROR_CODES, ...documentedErrorCodes()])) {
    const ErrorClass = classes[code];
    assert.ok(ErrorClass, `no client class for ${code}: add one to ERROR_CLASSES in clients/typescript/src/errors.ts`);
    const error = new ErrorClass({ status: 400, code, message: 'm' });
    assert.ok(error instanceof client.CodebookError);
    const exported = (client as Record<string, unknown>)[error.name];
    assert.equal(exported, ErrorClass, `${error.name} is not exported from the package under its name`);
    assert.match(error.name, /^[A-Z][A-Za-z]+Error$/);
  }
});

test("the README's Following changes names every filter of GET /v1/changes, and only those", () => {
  type Parameter = { name?: string; in?: string; $ref?: string };
  const get = document.paths['/v1/changes']?.get as { parameters?: Parameter[] } | undefined;
  const shared = (document as { components?: { parameters?: Record<string, Parameter> } }).components?.parameters ?? {};
  const filters = (get?.parameters ?? [])
    .map((p) => (p.$ref !== undefined ? shared[p.$ref.split('/').at(-1)!] : p))
    .filter((p) => p?.in === 'query' && p.name !== 'limit' && p.name !== 'cursor')
    .map((p) => p!.name!);
  assert.ok(filters.length >= 5, `filters of GET /v1/changes: ${filters.join(', ')}`);
  const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Following changes'), readme.indexOf('\n## ', readme.indexOf('## Following changes') + 1));
  const listed = /takes the filters of\s+`changes\.list` \(([^)]*)\)/.exec(section)?.[1];
  assert.ok(listed !== undefined, 'the section lists the filters in parentheses after "takes the filters of `changes.list`"');
  assert.deepEqual([...listed.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort(), filters.sort());
});

test('the client and the repository pin the same openapi-typescript and TypeScript', () => {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const pkg = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; dependencies?: unknown };
  for (const name of ['openapi-typescript', 'typescript']) {
    assert.match(pkg.devDependencies[name] ?? '', /^\d+\.\d+\.\d+$/, `${name} is pinned to an exact version`);
    assert.equal(pkg.devDependencies[name], root.devDependencies[name], name);
  }
  assert.equal(pkg.dependencies, undefined, 'the client has no runtime dependencies');
});
