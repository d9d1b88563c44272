/**
 * The dashboard while a real import is being written to the same SQLite file
 * by another store (as `codebook import` does from its own process): a change
 * is answered at once with the 503 page that says an import is being written,
 * instead of after the server's whole wait (30 s, kept here), and nothing is
 * changed. Writes held up by anything but an import still wait out their
 * bound: test/dashboard/import-lock.test.ts.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import { createUser, setPasswordWithToken } from '../../src/services/dashboard/users.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';

const PASSWORD = 'correct horse battery staple';

let dir: string;
let path: string;
let deps: Deps;
let app: FastifyInstance;
let key: string;
let keyId: string;

before(async () => {
  dir = tempDir('codebook-import-in-progress-');
  path = join(dir, 'codebook.db');
  // The server's own store, with its default wait for the write lock.
  deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent' }));
  app = await buildApp(deps);
  await setPlan(deps.admin, { name: 'all', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 1000, monthlyQuota: null, testKeysAllowed: true });
  const org = await createOrg(deps.admin, 'acme', 'all');
  const created = await createKey(deps.admin, org, 'live', 'kept');
  key = created.key;
  keyId = created.info.id;
  const { token } = await createUser(deps.admin, org, 'alice@example.com');
  await setPasswordWithToken(deps.admin, token, PASSWORD);
});
after(async () => {
  await app.close();
  await deps.close();
  rmSync(dir, { recursive: true, force: true });
});

const cookies = new Map<string, string>();
async function send(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await app.inject({ method, url, headers, remoteAddress: '192.0.2.1', payload: form && new URLSearchParams(form).toString() });
  for (const c of res.cookies as { name: string; value: string }[]) {
    if (c.value === '') cookies.delete(c.name);
    else cookies.set(c.name, c.value);
  }
  return res;
}
const hiddenFields = (res: LightMyRequestResponse) =>
  Object.fromEntries([...res.body.matchAll(/type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
const api = async () => (await app.inject({ url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${key}` } })).statusCode;

/** Runs fn inside a real import transaction of another store on the same file, which commits once fn is done. */
async function whileImportWrites<T>(fn: () => Promise<T>): Promise<T> {
  const importer = new SqliteStore({ path });
  try {
    let result: T | undefined;
    await importer.withImport(async () => void (result = await fn()));
    return result as T;
  } finally {
    await importer.close();
  }
}

// Without knowing that an import holds the lock, the revocation would wait the server's 30 s: the test's timeout says so.
test('revoking a key while an import is being written: the 503 page at once, the key unchanged; after the commit, revoked', { timeout: 20_000 }, async () => {
  const login = await send('POST', '/dashboard/login', {
    ...hiddenFields(await send('GET', '/dashboard/login')),
    email: 'alice@example.com',
    password: PASSWORD,
  });
  assert.equal(login.statusCode, 303);
  const url = `/dashboard/keys/${keyId}/revoke`;
  const form = hiddenFields(await send('GET', url));

  const refused = await whileImportWrites(async () => {
    const res = await send('POST', url, form);
    assert.equal(await api(), 200, 'reads go on during the import');
    return res;
  });
  assert.equal(refused.statusCode, 503, refused.body);
  assert.equal(refused.headers['retry-after'], '60');
  assert.match(refused.body, /An import is being written/);
  assert.match(refused.body, /Nothing was changed: try again in a minute\./);
  assert.equal((await deps.store.access.getKey(keyId))!.revokedAt, null, 'the key was not revoked');

  assert.equal((await send('POST', url, form)).statusCode, 303);
  assert.equal(await api(), 401, 'revoked from the next request on');
});
