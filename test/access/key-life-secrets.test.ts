/**
 * Keys through their life never put a key where it could be read again: not
 * in a log line, an audit entry, an error body, a page of the request log or
 * the database files, however it was created, rolled, exposed or used.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { serializers } from '../../src/http/logging.ts';
import { createExpiringKey, rollKey, updateOrgSettings } from '../../src/services/access/key-life.ts';
import { pageRequestLog } from '../../src/services/access/request-log.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { randomPart } from './helpers.ts';

let ctx: TestContext;
let app: FastifyInstance;
const logged: string[] = [];

before(async () => {
  ctx = await createTestContext();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  app = await buildApp(ctx.deps, { logger: { level: 'trace', serializers, stream } });
  await app.ready();
});
after(async () => {
  await app.close();
  await ctx.close();
});

test('created, rolled, exposed in every way, used and refused: no key anywhere it could be read again', async () => {
  const admin = ctx.deps.admin;
  const first = await createExpiringKey(admin, ctx.org, { mode: 'live', name: 'web', expiresAt: new Date(ctx.clock.ms + 86_400_000).toISOString() }, 'test');
  const rolled = await rollKey(admin, first.info.id, '1h', 'test');
  const other = await createExpiringKey(admin, ctx.org, { mode: 'test', name: 'ci', expiresAt: null }, 'test');
  const keys = [first.key, rolled.key, other.key, ctx.key];
  const bodies: string[] = [];
  const send = async (o: InjectOptions) => bodies.push((await app.inject(o)).body);
  for (const key of keys) {
    await send({ method: 'GET', url: `/v1/codes?api_key=${key}` });
    await send({ method: 'GET', url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${key}`, referer: `https://example.com/?key=${key}` } });
    await send({ method: 'GET', url: `/v1/codes/${key}`, headers: { authorization: `Bearer ${key}` } });
    await send({ method: 'GET', url: `/dashboard/requests?q=${key}` });
    await send({
      method: 'POST',
      url: '/dashboard/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=a%40b.example&password=${key}`,
    });
  }
  await updateOrgSettings(admin, ctx.org, { autoRevokeExposed: true, requestLogDays: 7, requestLogMax: 10_000 }, 'test');
  await send({ method: 'GET', url: `/v1/changes?token=${other.key}` });
  await send({ method: 'GET', url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${other.key}` } });
  await ctx.deps.requestLog.flush();
  await ctx.deps.usage.flush();

  const places: [string, string][] = [
    ['the log', logged.join('\n')],
    ['the error bodies', bodies.join('\n')],
    ['the audit log', JSON.stringify(await ctx.store.dashboard.listAudit(ctx.org.id, 1000))],
    ['the exposures', JSON.stringify(await ctx.store.keyLife.listExposures(ctx.org.id, 1000))],
    ['the request log', JSON.stringify(await pageRequestLog(admin, ctx.org, {}, 1000))],
    ...readdirSync(ctx.dir)
      .filter((f) => f.startsWith('codebook.db'))
      .map((f): [string, string] => [f, readFileSync(join(ctx.dir, f)).toString('latin1')]),
  ];
  assert.ok(logged.length > 10 && bodies.length > 10);
  assert.ok((await ctx.store.keyLife.listExposures(ctx.org.id, 1000)).length >= 4, 'the exposures were recorded');
  for (const [where, text] of places) {
    for (const key of keys) assert.ok(!text.includes(randomPart(key)), `${where} holds ${key.slice(0, 13)}…`);
  }
});
