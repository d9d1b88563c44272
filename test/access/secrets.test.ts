/**
 * Keys are secrets: only the SHA-256 (hex) of the whole key and its display
 * prefix are stored; the plaintext is in no database file. And the format:
 * svc_live_/svc_test_ + 32 characters drawn uniformly from [A-Za-z0-9].
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { createKey, listKeys, revokeKey } from '../../src/services/access/admin.ts';
import { activityPath, databaseFiles } from '../../src/store/sqlite/activity.ts';
import { generateKey } from '../../src/services/access/api-keys.ts';
import { createTestContext } from '../helpers/context.ts';
import { bare, bearer, randomPart } from './helpers.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

test('the database files hold the hash and the display prefix of a used key, never the key', async () => {
  const ctx = await createTestContext();
  const path = ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : '';
  try {
    const live = await createKey(ctx.deps.admin, ctx.org, 'live', 'production');
    const testKey = await createKey(ctx.deps.admin, ctx.org, 'test', 'staging');
    const revoked = await createKey(ctx.deps.admin, ctx.org, 'live', 'old');
    for (const key of [live.key, testKey.key, revoked.key]) {
      assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
      assert.equal((await bare(ctx, '/v1/codes', { 'x-api-key': key })).statusCode, 200);
      assert.equal((await bare(ctx, `/v1/codes?api_key=${key}`, bearer(key))).statusCode, 400);
    }
    await revokeKey(ctx.deps.admin, revoked.info.id);
    assert.equal((await bare(ctx, '/v1/codes', bearer(revoked.key))).statusCode, 401);
    // Usage and last-used times are written too.
    await ctx.deps.limiter.flush();
    await ctx.deps.usage.flush();

    // While the server runs (the WAL holds the recent writes) and after it stopped.
    // The database and its activity file (request log, usage), each with its WAL.
    const files = () =>
      databaseFiles(path)
        .filter(existsSync)
        .map((f) => readFileSync(f));
    const running = Buffer.concat(files());
    await ctx.app.close();
    await ctx.deps.close();
    const stopped = Buffer.concat(files());

    for (const bytes of [running, stopped]) {
      for (const { key } of [live, testKey, revoked, { key: ctx.key }]) {
        assert.equal(bytes.indexOf(randomPart(key)), -1, 'the key is in a database file');
        assert.equal(bytes.indexOf(Buffer.from(randomPart(key), 'utf16le')), -1, 'the key is in a database file (UTF-16)');
      }
    }
    // What is stored instead (so the search above looked in the right place).
    for (const { key } of [live, testKey, revoked]) {
      assert.notEqual(stopped.indexOf(createHash('sha256').update(key).digest('hex')), -1, 'the hash is not stored');
    }
    const activity = Buffer.concat([activityPath(path)].filter(existsSync).map((f) => readFileSync(f)));
    assert.notEqual(activity.indexOf('/v1/codes'), -1, 'the request log (searched above) is not in the activity file');

    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(live.info.id) as Record<string, unknown>;
      assert.equal(row.hash, createHash('sha256').update(live.key).digest('hex'));
      assert.equal(row.display_prefix, live.key.slice(0, 13));
      assert.match(String(row.display_prefix), /^svc_live_[A-Za-z0-9]{4}$/);
      assert.match(
        String((db.prepare('SELECT display_prefix FROM api_keys WHERE id = ?').get(testKey.info.id) as Record<string, unknown>).display_prefix),
        /^svc_test_[A-Za-z0-9]{4}$/,
      );
    } finally {
      db.close();
    }
  } finally {
    // Closing twice is harmless; the files go in any case.
    await ctx.app.close();
    await ctx.deps.close().catch(() => undefined);
    rmSync(ctx.dir, { recursive: true, force: true });
  }
});

test('listing keys shows the display prefix, never the key', async () => {
  const ctx = await createTestContext();
  try {
    const created = await createKey(ctx.deps.admin, ctx.org, 'live', 'listed');
    const listed = await listKeys(ctx.deps.admin, ctx.org);
    const text = JSON.stringify(listed);
    assert.ok(!text.includes(randomPart(created.key)));
    assert.ok(!text.includes(randomPart(ctx.key)));
    assert.ok(listed.some((k) => k.id === created.info.id && k.displayPrefix === created.key.slice(0, 13)));
  } finally {
    await ctx.close();
  }
});

test('2 000 generated keys: the exact format, distinct, and characters drawn uniformly', () => {
  const SAMPLES = 2000;
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (let i = 0; i < SAMPLES; i++) {
    const mode = i % 2 === 0 ? 'live' : 'test';
    const key = generateKey(mode);
    assert.match(key, /^svc_(live|test)_[A-Za-z0-9]{32}$/);
    assert.ok(key.startsWith(`svc_${mode}_`));
    seen.add(randomPart(key));
    for (const ch of randomPart(key)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(seen.size, SAMPLES, 'two keys were the same');
  assert.deepEqual([...counts.keys()].sort(), [...ALPHABET].sort(), 'not every one of the 62 characters occurs');

  const total = SAMPLES * 32;
  const mean = total / 62;
  let chiSquare = 0;
  for (const ch of ALPHABET) {
    const n = counts.get(ch)!;
    assert.ok(Math.abs(n - mean) < 0.4 * mean, `"${ch}" occurs ${n} times, expected about ${Math.round(mean)}`);
    chiSquare += (n - mean) ** 2 / mean;
  }
  // 61 degrees of freedom: mean 61, sd 11; P(χ² > 150) is about 1e-9. A modulo bias
  // (byte % 62 without rejection) gives about 8 characters 25 % too many: χ² near 500.
  assert.ok(chiSquare < 150, `χ² = ${chiSquare.toFixed(1)}: the characters are not drawn uniformly`);
});
