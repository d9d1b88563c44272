/**
 * The scale-out settings: DATABASE_URL and REDIS_URL select the backends, and
 * a bad value stops the server at start-up with a one-line reason, as does a
 * bad HOST, or a HOST and PORT the server cannot listen on.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createDeps } from '../../src/deps.ts';
import { tempDir } from '../helpers/context.ts';
import { ADMIN_URL, createTestDatabase } from '../helpers/postgres.ts';
import { deleteUnder, redisClient, runPrefix } from '../helpers/redis.ts';
import { REDIS_URL, skipUnlessBoth, skipUnlessPostgres } from '../helpers/services.ts';
import { refusedStart as refusedServer } from '../access/processes.ts';

/** Starts the server with these settings and waits for it to stop; its exit code and what it wrote to stderr. */
async function refusedStart(settings: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { code, stderr } = await refusedServer(settings);
  return { code, stderr };
}

test('bad scale-out settings are refused with the name of the setting', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL: must start with redis:\/\/ or rediss:\/\//],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, /^REDIS_URL: must start with redis:\/\//],
    [{ REDIS_URL: 'redis://127.0.0.1:6379/abc' }, /^REDIS_URL: the path must be a database number/],
    [{ REDIS_URL: 'redis://127.0.0.1', REDIS_PREFIX: 'has space' }, /^REDIS_PREFIX: /],
    [{ REDIS_PREFIX: 'has space' }, /^REDIS_PREFIX: 1–64 characters of letters, digits and : _ \. -, got "has space"$/],
    [{ REDIS_PREFIX: '' }, /^REDIS_PREFIX: /],
    [{ DATABASE_POOL_SIZE: '0' }, /^DATABASE_POOL_SIZE: expected an integer from 1 to 1000/],
    [{ DATABASE_POOL_SIZE: 'many' }, /^DATABASE_POOL_SIZE: /],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '0' }, /^DATABASE_CONNECT_TIMEOUT_MS: expected an integer from 100 to 600000, got "0"/],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '2s' }, /^DATABASE_CONNECT_TIMEOUT_MS: /],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '99' }, /^DATABASE_STATEMENT_TIMEOUT_MS: expected an integer from 100 to 600000/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '-1' }, /^DATABASE_STATEMENT_TIMEOUT_MS: /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: must start with sqlite: or postgres:\/\//],
    [{ READ_CACHE_MB: '-1' }, /^READ_CACHE_MB: expected an integer from 0 to 4096, got "-1"/],
    [{ READ_CACHE_MB: '64MB' }, /^READ_CACHE_MB: /],
    [{ SQLITE_MMAP_MB: '2049' }, /^SQLITE_MMAP_MB: expected an integer from 0 to 2048, got "2049"/],
    [{ SQLITE_MMAP_MB: 'on' }, /^SQLITE_MMAP_MB: /],
    [
      { SQLITE_PAGES_ON_THREAD: 'yes' },
      /^SQLITE_PAGES_ON_THREAD: expected 1 \(read pages asked together on the reader thread\) or 0 \(read every page on the event loop\), got "yes"/,
    ],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
      JSON.stringify(env),
    );
  }
  const config = loadConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/codebook', REDIS_URL: 'rediss://:pw@cache:6380/2', DATABASE_POOL_SIZE: '25' });
  assert.deepEqual(config.database, {
    kind: 'postgres',
    url: 'postgresql://u:p@db:5432/codebook',
    poolSize: 25,
    connectTimeoutMs: 2_000,
    statementTimeoutMs: 5_000,
  });
  const tuned = loadConfig({ DATABASE_URL: 'postgres://db/codebook', DATABASE_CONNECT_TIMEOUT_MS: '500', DATABASE_STATEMENT_TIMEOUT_MS: '30000' });
  assert.deepEqual(tuned.database, { kind: 'postgres', url: 'postgres://db/codebook', poolSize: 10, connectTimeoutMs: 500, statementTimeoutMs: 30_000 });
  assert.deepEqual(config.redis, { url: 'rediss://:pw@cache:6380/2', prefix: 'codebook:' });
  assert.equal(loadConfig({}).redis, null, 'no Redis unless asked for');
  assert.equal(loadConfig({}).readCacheBytes, 24 * 1024 * 1024, 'the read cache is on, within 64 MB');
  assert.equal(loadConfig({ READ_CACHE_MB: '0' }).readCacheBytes, 0);
  assert.equal(loadConfig({}).sqliteMmapBytes, 0x7fff0000, 'the whole map SQLite allows: 64 KiB under 2 GiB');
  assert.equal(loadConfig({ SQLITE_MMAP_MB: '256' }).sqliteMmapBytes, 256 * 1024 * 1024);
  assert.equal(loadConfig({ SQLITE_MMAP_MB: '0' }).sqliteMmapBytes, 0);
  assert.equal(loadConfig({}).sqlitePagesOnThread, false, 'pages on the event loop unless asked: the thread costs memory and the batches their thread');
  assert.equal(loadConfig({ SQLITE_PAGES_ON_THREAD: '1' }).sqlitePagesOnThread, true);
});

test('TRUST_PROXY names proxies by address, CIDR range or range name; anything else stops the start with one line', () => {
  assert.equal(loadConfig({}).trustProxy, null, 'no proxy is believed unless named');
  assert.equal(loadConfig({ TRUST_PROXY: '' }).trustProxy, null);
  assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.1' }).trustProxy, '10.0.0.1');
  assert.equal(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, ::1 ,fd00::/8,loopback' }).trustProxy, '10.0.0.0/8,::1,fd00::/8,loopback');
  for (const bad of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129', '10.0.0.1,', 'true', '1']) {
    assert.throws(
      () => loadConfig({ TRUST_PROXY: bad }),
      (e: unknown) => e instanceof ConfigError && /^TRUST_PROXY: ".*" is not an address, a CIDR range/.test(e.message),
      bad,
    );
  }
});

test('the server stops at start-up with one line naming the bad setting', async () => {
  assert.deepEqual(await refusedStart({ REDIS_URL: 'localhost:6379' }), {
    code: 1,
    stderr: 'codebook: REDIS_URL: must start with redis:// or rediss:// (the scheme given is "localhost:")\n',
  });
});

test('HOST is an IP address or a host name; anything else is refused with the name HOST and its value', () => {
  for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.example.com', 'my_service', 'db-1.internal.']) {
    assert.equal(loadConfig({ HOST: host }).host, host);
  }
  assert.equal(loadConfig({ HOST: '::1' }).publicUrl, 'http://[::1]:8080');
  for (const host of ['a b', '256.1.1.1', '1.2.3', '[::1]', 'a..b', '-x', 'x-', 'http://host']) {
    assert.throws(
      () => loadConfig({ HOST: host }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message === `HOST: expected an IP address to listen on (127.0.0.1, 0.0.0.0 for every address, ::) or a host name, got "${host}"`,
      host,
    );
  }
  assert.throws(
    () => loadConfig({ HOST: 'fe80::1%eth0' }),
    (e: unknown) => e instanceof ConfigError && /^HOST: "fe80::1%eth0" cannot be written in a URL, .* set PUBLIC_URL/.test(e.message),
    'an address with a zone is one to listen on, but the default PUBLIC_URL cannot hold it',
  );
  assert.equal(loadConfig({ HOST: 'fe80::1%eth0', PUBLIC_URL: 'https://codes.example.com' }).host, 'fe80::1%eth0');
});

test('a bad HOST stops the server with one line naming HOST, not the PUBLIC_URL derived from it', async () => {
  const expected = (host: string) => ({
    code: 1,
    stderr: `codebook: HOST: expected an IP address to listen on (127.0.0.1, 0.0.0.0 for every address, ::) or a host name, got "${host}"\n`,
  });
  const [spaced, outOfRange] = await Promise.all([refusedStart({ HOST: 'a b' }), refusedStart({ HOST: '256.1.1.1' })]);
  assert.deepEqual(spaced, expected('a b'));
  assert.deepEqual(outOfRange, expected('256.1.1.1'));
});

test('a bad REDIS_PREFIX stops the server with one line even without REDIS_URL', async () => {
  const dir = tempDir();
  try {
    // On a database of its own: a server that took the prefix would start there.
    assert.deepEqual(await refusedStart({ REDIS_PREFIX: 'bad prefix', DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, DEMO_DATA: '0' }), {
      code: 1,
      stderr: 'codebook: REDIS_PREFIX: 1–64 characters of letters, digits and : _ . -, got "bad prefix"\n',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that cannot listen where HOST and PORT say stops with one line naming the cause and the setting, not a stack trace', async () => {
  const dir = tempDir();
  const taken = createServer();
  try {
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as AddressInfo).port;
    const on = (name: string) => ({ DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`, DEMO_DATA: '0' });
    // The port of the failing addresses is never bound: the address fails first.
    const [unknownName, notHere, inUse] = await Promise.all([
      refusedStart({ ...on('name'), HOST: 'nonexistent.invalid', PORT: '8080' }),
      refusedStart({ ...on('address'), HOST: '192.0.2.1', PORT: '8080' }),
      refusedStart({ ...on('port'), HOST: '127.0.0.1', PORT: String(port) }),
    ]);
    assert.equal(unknownName.code, 1);
    // Without a DNS server to ask, the lookup fails for now (EAI_AGAIN) instead of finding no such name.
    assert.match(
      unknownName.stderr,
      /^codebook: cannot listen on nonexistent\.invalid:8080: the host name (does not resolve to an address|could not be looked up: name resolution failed for now) \(HOST\)\n$/,
    );
    assert.deepEqual(notHere, { code: 1, stderr: 'codebook: cannot listen on 192.0.2.1:8080: this machine has no such address (HOST)\n' });
    assert.deepEqual(inUse, { code: 1, stderr: `codebook: cannot listen on 127.0.0.1:${port}: the port is already in use (PORT)\n` });
  } finally {
    taken.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server on sqlite::memory: is refused at start with a line that says why, not a stack trace', async () => {
  const { code, stderr } = await refusedStart({ DATABASE_URL: 'sqlite::memory:' });
  assert.equal(code, 1);
  assert.match(stderr, /^codebook: DATABASE_URL: sqlite::memory: cannot be served: every import .* writes through a connection of its own.*\n$/);
  assert.equal(stderr.split('\n').length, 2, stderr);
});

test('a server whose PostgreSQL database does not exist stops at start with one line naming it', { skip: await skipUnlessPostgres() }, async () => {
  const url = new URL(ADMIN_URL);
  url.pathname = '/codebook_no_such_database';
  assert.deepEqual(await refusedStart({ DATABASE_URL: url.href }), {
    code: 1,
    stderr: 'codebook: failed to start: PostgreSQL refused the connection: database "codebook_no_such_database" does not exist\n',
  });
});

describe('backend selection', { skip: await skipUnlessBoth() }, () => {
  test('postgres:// and redis:// give the PostgreSQL store and the Redis limiter', async () => {
    const db = await createTestDatabase('codebook_settings');
    const prefix = runPrefix('settings');
    try {
      const deps = await createDeps(loadConfig({ DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: prefix }), { onWarning: () => undefined });
      try {
        assert.equal(deps.store.kind, 'postgres');
        assert.ok(deps.redis, 'the Redis limiter');
        assert.equal(deps.redis.isHealthy, true);
        assert.equal((await deps.limiter.peek('org_x', (await deps.store.access.getPlan('free'))!, Date.now())).backend, 'redis');
      } finally {
        await deps.close();
      }
    } finally {
      await db.drop();
      const client = redisClient();
      await deleteUnder(client, prefix);
      client.disconnect();
    }
  });
});
