/**
 * Changes made by another process (the operator CLI) against the database a
 * running server uses hold from the server's very next request: revocation,
 * a new plan for the organisation, a changed plan, a new key. The server has
 * cached the key by then; the CLI's commit must drop that cache.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertError, bare, bearer, newKey } from './helpers.ts';
import { cliJson, runCli, startServer, type ServerProcess } from './processes.ts';

describe('an in-process server on file F, the CLI on F', () => {
  let ctx: TestContext;
  let path: string;
  before(async () => {
    ctx = await createTestContext({ realClock: true });
    path = ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : '';
    await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
  });
  after(() => ctx.close());

  test('`keys revoke` in another process: the very next request gets 401', async () => {
    const { key, info } = await newKey(ctx);
    for (let i = 0; i < 3; i++) assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
    const revoked = await cliJson<{ id: string; state: string }>(path, ['keys', 'revoke', info.id]);
    assert.deepEqual([revoked.id, revoked.state], [info.id, 'revoked']);
    assertError(await bare(ctx, '/v1/codes', bearer(key)), 401, 'invalid_api_key');
    assertError(await bare(ctx, '/v1/codes/demo:A', { 'x-api-key': key }), 401, 'invalid_api_key');
    // The organisation's other key is untouched.
    assert.equal((await bare(ctx, '/v1/codes', bearer(ctx.key))).statusCode, 200);
  });

  test('`orgs set-plan` and `plans set` in another process hold from the next request', async () => {
    assert.equal((await ctx.get('/v1/changes')).statusCode, 200);
    await cliJson(path, ['orgs', 'set-plan', 'test-org', 'free']);
    assertError(await ctx.get('/v1/changes'), 403, 'endpoint_not_available_on_plan');
    assert.equal((await ctx.get('/v1/codes')).headers['ratelimit-policy'], '"minute";q=60;w=60, "month";q=10000');

    await cliJson(path, ['plans', 'set', 'free', '--endpoints', 'codes.list,changes.list', '--rate-per-minute', '61', '--monthly-quota', '10001']);
    try {
      const res = await ctx.get('/v1/changes');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-policy'], '"minute";q=61;w=60, "month";q=10001');
      assertError(await ctx.get('/v1/codes/demo:A'), 403, 'endpoint_not_available_on_plan');
    } finally {
      await cliJson(path, ['plans', 'set', 'free', '--endpoints', 'codes.list,codes.get', '--rate-per-minute', '60', '--monthly-quota', '10000']);
      await cliJson(path, ['orgs', 'set-plan', 'test-org', 'test-all']);
    }
    assert.equal((await ctx.get('/v1/changes')).statusCode, 200);
  });

  test('a key created by `keys create` in another process works at once', async () => {
    const created = await cliJson<{ key: string }>(path, ['keys', 'create', '--org', 'test-org']);
    assert.equal((await bare(ctx, '/v1/codes', bearer(created.key))).statusCode, 200);
  });

  test('a key created in another process works at once, also after the server refused made-up keys', async () => {
    // The server refuses a key no stored key matches without a query: a new key must still be known at once.
    for (let i = 0; i < 3; i++) assertError(await bare(ctx, '/v1/codes', bearer(`svc_live_${String(i).repeat(32)}`)), 401, 'invalid_api_key');
    const created = await cliJson<{ key: string }>(path, ['keys', 'create', '--org', 'test-org']);
    assert.equal((await bare(ctx, '/v1/codes', bearer(created.key))).statusCode, 200);
    const { key: inProcess } = await newKey(ctx);
    assert.equal((await bare(ctx, '/v1/codes/demo:A', bearer(inProcess))).statusCode, 200, 'a key created in this process too');
  });
});

describe('the real server process, the CLI on its file', () => {
  let server: ServerProcess | null = null;
  let dir = '';
  after(() => {
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('revoking with the CLI refuses the key on the next request to the running server', async () => {
    dir = mkdtempSync(join(tmpdir(), 'codebook-revoke-'));
    const db = join(dir, 'codebook.db');
    server = await startServer(db);
    const created = await cliJson<{ id: string; key: string }>(db, ['keys', 'create', '--org', 'demo', '--name', 'ci']);
    const send = async () => {
      const res = await fetch(`${server!.baseUrl}/v1/codes?limit=1`, {
        headers: { authorization: `Bearer ${created.key}` },
        signal: AbortSignal.timeout(10_000),
      });
      return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
    };
    for (let i = 0; i < 3; i++) assert.equal((await send()).status, 200);
    const r = await runCli(db, ['keys', 'revoke', created.id]);
    assert.equal(r.code, 0, r.stderr);
    const refused = await send();
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error?.code, 'invalid_api_key');
    server.child.kill('SIGTERM');
    assert.equal(await server.exited(), '0');
  });
});
