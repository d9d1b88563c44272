/**
 * An operator's command while an import holds SQLite's write lock (a second
 * real connection in BEGIN IMMEDIATE, as an import's transaction is): the
 * real CLI says at once that it waits for the import to commit, waits (where
 * it gave up after 30 s before), and makes its change once the lock is free.
 * Until then the key works; from the next request after the command returns,
 * it is refused.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import { runCodebook } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';

const WAITING =
  /^codebook: waiting for the import in progress to commit \(it holds the database's write lock\); this command goes on once it has, or gives up after 10 min$/m;
/** The lock is let go this long after the command said it waits (or, if it never says so, this long after it started). */
const HOLD_AFTER_NOTICE_MS = 1_500;
const HOLD_AT_MOST_MS = 10_000;

let dir: string;
let path: string;
let deps: Deps;
let app: FastifyInstance;

before(async () => {
  dir = tempDir('codebook-import-lock-cli-');
  path = join(dir, 'codebook.db');
  deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent' }));
  app = await buildApp(deps);
  await setPlan(deps.admin, { name: 'all', endpoints: ['codes.list', 'codes.get'], ratePerMinute: 1000, monthlyQuota: null, testKeysAllowed: true });
  await createOrg(deps.admin, 'acme', 'all');
});
after(async () => {
  await app.close();
  await deps.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = async (key: string) => (await app.inject({ url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${key}` } })).statusCode;

test('keys revoke while an import holds the lock: says it waits, waits, then revokes; the key is refused from the next request', async () => {
  const org = (await deps.store.access.getOrg('acme'))!;
  const { key, info } = await createKey(deps.admin, org, 'live', 'during import');
  assert.equal(await api(key), 200);

  const importer = new DatabaseSync(path);
  importer.exec('BEGIN IMMEDIATE');
  let releasedAt = null as number | null;
  let noticedAt = null as number | null;
  let whileWaiting = null as Promise<number> | null;
  const release = () => {
    if (releasedAt !== null) return;
    importer.exec('ROLLBACK');
    releasedAt = performance.now();
  };
  const fallback = setTimeout(release, HOLD_AT_MOST_MS);
  let result;
  try {
    result = await runCodebook(['keys', 'revoke', info.id], {
      settings: { DATABASE_URL: `sqlite:${path}` },
      timeoutMs: 60_000,
      onStderr: (stderr) => {
        if (noticedAt !== null || !WAITING.test(stderr)) return;
        noticedAt = performance.now();
        // The key works as long as the import holds the lock; then the lock is let go.
        whileWaiting = api(key);
        setTimeout(release, HOLD_AFTER_NOTICE_MS);
      },
    });
  } finally {
    clearTimeout(fallback);
    release();
    importer.close();
  }
  const returnedAt = performance.now();

  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, WAITING);
  assert.equal(result.stderr.trim().split('\n').length, 1, `one line on stderr: ${result.stderr}`);
  assert.match(result.stdout, new RegExp(`^key ${info.id} \\(svc_live_\\w{4}…\\) revoked at `));
  assert.notEqual(noticedAt, null, 'the command said it waits while the lock was held');
  assert.equal(await whileWaiting, 200, 'the key works until the import commits');
  assert.ok(releasedAt! < returnedAt, 'the command returned only after the lock was let go');
  assert.equal(await api(key), 401, 'refused from the next request after the command returned');
  assert.notEqual((await deps.store.access.getKey(info.id))!.revokedAt, null);
});
