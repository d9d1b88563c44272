/**
 * `codebook keys create --expires-at` and `codebook keys roll` as real
 * processes on the database file a running service uses: the service refuses
 * a rolled key from the moment its grace period ends, and takes its successor.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createOrg } from '../../src/services/access/admin.ts';
import { cliJson, runCli } from '../access/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'codebook-keylife-cli-'));
const db = join(dir, 'codebook.db');
let deps: Deps;
let app: FastifyInstance;

before(async () => {
  deps = await createDeps(loadConfig({ DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: 'silent' }));
  await createOrg(deps.admin, 'acme', 'pro');
  app = await buildApp(deps);
});
after(async () => {
  await app.close();
  await deps.close();
  rmSync(dir, { recursive: true, force: true });
});

const status = async (key: string) => (await app.inject({ method: 'GET', url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${key}` } })).statusCode;

interface Created {
  id: string;
  key: string;
  expires_at: string | null;
}
interface Rolled extends Created {
  previous: { id: string; display_prefix: string; expires_at: string };
}

test('keys create --expires-at: the key carries its end, and the list shows it', async () => {
  const created = await cliJson<Created>(db, ['keys', 'create', '--org', 'acme', '--name', 'quarterly', '--expires-at', '90d']);
  const days = (Date.parse(created.expires_at!) - Date.now()) / 86_400_000;
  assert.ok(days > 89.9 && days <= 90, String(days));
  assert.equal(await status(created.key), 200);
  const listed = await cliJson<{ id: string; state: string; expires_at: string | null }[]>(db, ['keys', 'list', '--org', 'acme']);
  assert.deepEqual(
    listed.find((k) => k.id === created.id),
    { ...listed.find((k) => k.id === created.id)!, state: 'active', expires_at: created.expires_at },
  );
  const past = await runCli(db, ['keys', 'create', '--org', 'acme', '--expires-at', '2020-01-01']);
  assert.equal(past.code, 2);
  assert.match(past.stderr, /--expires-at: expiry "2020-01-01" is not in the future/);
});

test('keys roll: the successor works at once; with --grace now the old key is refused by the running service on its next request', async () => {
  const first = await cliJson<Created>(db, ['keys', 'create', '--org', 'acme', '--name', 'web']);
  assert.equal(await status(first.key), 200);
  const graced = await cliJson<Rolled>(db, ['keys', 'roll', first.id, '--grace', '1h']);
  assert.equal(graced.previous.id, first.id);
  assert.deepEqual([await status(first.key), await status(graced.key)], [200, 200], 'both work during the grace period');
  const now = await cliJson<Rolled>(db, ['keys', 'roll', graced.id, '--grace', 'now']);
  assert.deepEqual([await status(graced.key), await status(now.key)], [401, 200]);
  const again = await runCli(db, ['keys', 'roll', graced.id]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /is expired: only an active key can be rolled/);
  const bad = await runCli(db, ['keys', 'roll', now.id, '--grace', '2d']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--grace: grace period "2d" must be one of now, 1h, 24h, 7d/);
  const text = await runCli(db, ['keys', 'roll', now.id]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /keeps working until .*, then is refused/);
});

test('codebook --help names every action of codebook keys, roll among them', async () => {
  const top = await runCli(db, ['--help']);
  assert.equal(top.code, 0, top.stderr);
  const summary = /^ {2}keys +(.+)$/m.exec(top.stdout)?.[1] ?? '';
  const keys = await runCli(db, ['keys', '--help']);
  const actions = [...keys.stdout.matchAll(/codebook keys ([a-z-]+)/g)].map((m) => m[1]!);
  assert.deepEqual(actions, ['create', 'roll', 'revoke', 'list']);
  for (const action of actions) assert.match(summary, new RegExp(`\\b${action}\\b`), `codebook --help, keys: ${summary}`);
});
