/**
 * Demo data (the demo organisation with a live key, and the demo code set)
 * is created on an empty database only for the embedded default, SQLite, or
 * when DEMO_DATA=1 asks for it: never unasked on a PostgreSQL DATABASE_URL,
 * where an empty database is a production deployment's new home.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import type { Store } from '../../src/store/store.ts';
import { ROOT } from '../helpers/cli.ts';
import { refusedStart } from '../access/processes.ts';
import { tempDir } from '../helpers/context.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

test('DEMO_DATA: on for SQLite and off for PostgreSQL by default, 1 or 0 to choose, anything else refused', () => {
  const pg = 'postgres://u@db:5432/codebook';
  assert.equal(loadConfig({}).demoData, true);
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).demoData, true);
  assert.equal(loadConfig({ DATABASE_URL: pg }).demoData, false);
  assert.equal(loadConfig({ DATABASE_URL: pg, DEMO_DATA: '1' }).demoData, true);
  assert.equal(loadConfig({ DEMO_DATA: '0' }).demoData, false);
  assert.equal(loadConfig({ DATABASE_URL: pg, DEMO_DATA: '' }).demoData, false, 'empty is unset');
  for (const value of ['yes', 'true', '2']) {
    assert.throws(
      () => loadConfig({ DEMO_DATA: value }),
      (e: unknown) =>
        e instanceof ConfigError && e.message === `DEMO_DATA: expected 1 (load the demo data into an empty database) or 0 (never), got "${value}"`,
    );
  }
});

interface Started {
  stdout: string;
  stop(): Promise<void>;
}

/** `node src/main.js` with these settings, until it listens (and, when expected, has printed the demo key). */
async function startServer(settings: Record<string, string>, expectDemoKey: boolean): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_TEST_CONTEXT', 'NODE_OPTIONS', 'REDIS_URL', 'DATABASE_URL', 'CURSOR_SECRET', 'DEMO_DATA']) delete env[name];
  const child = spawn(process.execPath, ['src/main.js'], {
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server was not ready within 60 s; stdout: ${stdout}; stderr: ${stderr}`)), 60_000);
    void exited.then(() => reject(new Error(`the server exited; stderr: ${stderr}`)));
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (!/Server listening at/.test(stdout) || (expectDemoKey && !/Bearer svc_live_/.test(stdout))) return;
      clearTimeout(timer);
      resolve();
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    get stdout() {
      return stdout;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function contents(store: Store): Promise<{ codes: number; orgs: string[] }> {
  return { codes: await store.countCodes(), orgs: (await store.access.listOrgs()).map((o) => o.slug) };
}

test('SQLite with DEMO_DATA=0: an empty database stays empty, and the log says how to fill it', async () => {
  const dir = tempDir();
  try {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, DEMO_DATA: '0' }, false);
    await server.stop();
    assert.doesNotMatch(server.stdout, /svc_live_/);
    assert.match(server.stdout, /demo data is off \(DEMO_DATA=1 loads it\)/);
    const store = new SqliteStore({ path: join(dir, 'x.db') });
    try {
      assert.deepEqual(await contents(store), { codes: 0, orgs: [] });
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SQLite: a start that cannot listen makes no demo key, so the next start that listens shows one', async () => {
  const dir = tempDir();
  const taken = createServer();
  try {
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as AddressInfo).port;
    const settings = { DATABASE_URL: `sqlite:${join(dir, 'x.db')}` };
    const refused = await refusedStart({ ...settings, PORT: String(port) }, { timeoutMs: 60_000 });
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `codebook: cannot listen on 127.0.0.1:${port}: the port is already in use (PORT)\n`);
    assert.doesNotMatch(refused.stdout, /svc_live_/);
    const store = new SqliteStore({ path: join(dir, 'x.db') });
    try {
      const after = await contents(store);
      assert.deepEqual(after.orgs, [], 'no demo organisation, hence no key nobody was shown');
      assert.ok(after.codes > 100, `${after.codes} demo codes, loaded before listening`);
    } finally {
      await store.close();
    }

    const next = await startServer(settings, true);
    await next.stop();
    assert.match(next.stdout, /A demo organisation "demo" \(plan: pro\) was created with this API key/);
  } finally {
    taken.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('an empty PostgreSQL database', { skip: await skipUnlessPostgres() }, () => {
  test('gets no demo organisation, no key and no demo codes, unless DEMO_DATA=1 asks', async () => {
    const db = await createTestDatabase('codebook_demo');
    try {
      const plain = await startServer({ DATABASE_URL: db.url }, false);
      await plain.stop();
      assert.doesNotMatch(plain.stdout, /svc_live_/, 'no key printed');
      const store = await PostgresStore.open({ url: db.url, max: 2 });
      try {
        assert.deepEqual(await contents(store), { codes: 0, orgs: [] });

        const asked = await startServer({ DATABASE_URL: db.url, DEMO_DATA: '1' }, true);
        await asked.stop();
        assert.match(asked.stdout, /A demo organisation "demo" \(plan: pro\) was created with this API key/);
        const after = await contents(store);
        assert.deepEqual(after.orgs, ['demo']);
        assert.ok(after.codes > 100, `${after.codes} demo codes`);
      } finally {
        await store.close();
      }
    } finally {
      await db.drop();
    }
  });
});
