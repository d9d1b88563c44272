/**
 * The dashboard while an import holds SQLite's write lock (a second real
 * connection in BEGIN IMMEDIATE, as an import's transaction is): a write it
 * cannot make within its wait is answered with a 503 page that says why and
 * when to try again, with Retry-After, and nothing is changed; never a 500.
 * The server's wait (30 s) is shortened to a second here. A real import by
 * another store on the same file (as `codebook import` is) is answered at
 * once, by a second server on the file with the wait it has by default.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, beforeEach, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import { createUser, setPasswordWithToken } from '../../src/services/dashboard/users.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';

const PASSWORD = 'correct horse battery staple';
const WAIT_MS = 1_000;

let dir: string;
let path: string;
let deps: Deps;
let app: FastifyInstance;
/** A second server on the same file, with the server's default wait for the write lock (30 s). */
let patient: { deps: Deps; app: FastifyInstance };
let key: string;
let keyId: string;
/** The last test's key (the one before revokes the first). */
let second: { key: string; id: string };

before(async () => {
  dir = tempDir('codebook-import-lock-');
  path = join(dir, 'codebook.db');
  const store = new SqliteStore({ path, writeWait: { waitMs: WAIT_MS } });
  deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent' }), { store });
  app = await buildApp(deps);
  await setPlan(deps.admin, { name: 'all', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 1000, monthlyQuota: null, testKeysAllowed: true });
  const org = await createOrg(deps.admin, 'acme', 'all');
  const created = await createKey(deps.admin, org, 'live', 'kept');
  key = created.key;
  keyId = created.info.id;
  const { token } = await createUser(deps.admin, org, 'alice@example.com');
  await setPasswordWithToken(deps.admin, token, PASSWORD);
  const made = await createKey(deps.admin, org, 'live', 'second');
  second = { key: made.key, id: made.info.id };
  const patientDeps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent' }));
  patient = { deps: patientDeps, app: await buildApp(patientDeps) };
});
after(async () => {
  await patient.app.close();
  await patient.deps.close();
  await app.close();
  await deps.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A browser without JavaScript, one per test: keeps the cookies the dashboard sets. */
let cookies = new Map<string, string>();
beforeEach(() => {
  cookies = new Map();
});
async function send(method: 'GET' | 'POST', url: string, form?: Record<string, string>, on = app): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await on.inject({ method, url, headers, remoteAddress: '192.0.2.1', payload: form && new URLSearchParams(form).toString() });
  for (const c of res.cookies as { name: string; value: string }[]) {
    if (c.value === '') cookies.delete(c.name);
    else cookies.set(c.name, c.value);
  }
  return res;
}
const hiddenFields = (res: LightMyRequestResponse) =>
  Object.fromEntries([...res.body.matchAll(/type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
const signIn = async (on = app) =>
  send(
    'POST',
    '/dashboard/login',
    { ...hiddenFields(await send('GET', '/dashboard/login', undefined, on)), email: 'alice@example.com', password: PASSWORD },
    on,
  );
const api = async (on = app, bearer = key) => (await on.inject({ url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${bearer}` } })).statusCode;

/** Runs fn while a second connection holds the write lock, as an import's transaction does. */
async function whileImporting<T>(fn: () => Promise<T>): Promise<T> {
  const importer = new DatabaseSync(path);
  importer.exec('BEGIN IMMEDIATE');
  try {
    return await fn();
  } finally {
    importer.exec('ROLLBACK');
    importer.close();
  }
}

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

function assertImportPage(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(res.headers['retry-after'], '60');
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(res.body, /An import is being written/);
  assert.match(res.body, /Nothing was changed: try again in a minute\./);
}

test('signing in while an import holds the lock past the wait: the 503 page with Retry-After, then it works', async () => {
  const form = hiddenFields(await send('GET', '/dashboard/login'));
  const refused = await whileImporting(() => send('POST', '/dashboard/login', { ...form, email: 'alice@example.com', password: PASSWORD }));
  assertImportPage(refused);
  assert.equal(cookies.has('cb_session'), false, 'no session was started');

  assert.equal((await signIn()).statusCode, 303, 'signed in once the import has committed');
});

test('revoking a key while an import holds the lock past the wait: the 503 page, the key unchanged; once it commits, revoked', async () => {
  assert.equal((await signIn()).statusCode, 303);
  const url = `/dashboard/keys/${keyId}/revoke`;
  const confirm = await send('GET', url);
  assert.equal(confirm.statusCode, 200);
  const form = hiddenFields(confirm);

  const refused = await whileImporting(async () => {
    const res = await send('POST', url, form);
    // API reads go on while the lock is held, and the key still works: nothing was changed.
    assert.equal(await api(), 200);
    return res;
  });
  assertImportPage(refused);
  assert.equal(await api(), 200, 'the key was not revoked');
  assert.equal((await deps.store.access.getKey(keyId))!.revokedAt, null);

  const revoked = await send('POST', url, form);
  assert.equal(revoked.statusCode, 303);
  assert.equal(await api(), 401, 'revoked from the next request on');
});

// Without knowing that an import holds the lock (import-marker.ts), the revocation would wait the server's 30 s: the test's timeout says so.
test(
  'revoking a key while another process writes an import: the 503 page at once, the key unchanged; after the commit, revoked',
  { timeout: 20_000 },
  async () => {
    assert.equal((await signIn(patient.app)).statusCode, 303);
    const url = `/dashboard/keys/${second.id}/revoke`;
    const form = hiddenFields(await send('GET', url, undefined, patient.app));

    const refused = await whileImportWrites(async () => {
      const res = await send('POST', url, form, patient.app);
      assert.equal(await api(patient.app, second.key), 200, 'reads go on during the import');
      return res;
    });
    assertImportPage(refused);
    assert.equal((await patient.deps.store.access.getKey(second.id))!.revokedAt, null, 'the key was not revoked');

    assert.equal((await send('POST', url, form, patient.app)).statusCode, 303);
    assert.equal(await api(patient.app, second.key), 401, 'revoked from the next request on');
  },
);
