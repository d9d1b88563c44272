/**
 * What the dashboard and the running service change (settings, passwords, an
 * exposed key's revocation) is written with its audit entry or not at all: with
 * every insert into the audit log refused (a trigger on the real SQLite file),
 * each change fails and leaves things as they were, and works once the log
 * takes entries again. The CLI's changes, on both backends: test/cli/audit-atomic.test.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { createOrg } from '../../src/services/access/admin.ts';
import { createExpiringKey, updateOrgSettings } from '../../src/services/access/key-life.ts';
import { changePassword, createUser, setPasswordWithToken, signIn } from '../../src/services/dashboard/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bare, bearer } from './helpers.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext();
  await ctx.importRows([{ code: 'A', display: 'Alpha' }], { system: 'demo', release: 'r1', effectiveDate: '2024-01-01' });
});
after(async () => ctx.close());

/** Runs fn while the audit log refuses every entry (from another connection, as an operator's mistake or a full disk would). */
async function auditRefused<T>(fn: () => Promise<T>): Promise<T> {
  const db = new DatabaseSync(join(ctx.dir, 'codebook.db'));
  try {
    db.exec("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'simulated audit failure'); END");
    try {
      return await fn();
    } finally {
      db.exec('DROP TRIGGER refuse_audit');
    }
  } finally {
    db.close();
  }
}

const actions = async (orgId: string) => (await ctx.store.dashboard.listAudit(orgId, 100)).map((e) => `${e.actor} ${e.action}`).reverse();

describe('a change and its audit entry, together or not at all', () => {
  test("an organisation's settings stay as they were", async () => {
    const org = await createOrg(ctx.deps.admin, 'settings', 'test-all');
    const wanted = { autoRevokeExposed: true, requestLogDays: 2, requestLogMax: 100 };
    await auditRefused(() => assert.rejects(updateOrgSettings(ctx.deps.admin, org, wanted, 'admin@example.com'), /simulated audit failure/));
    assert.deepEqual(await ctx.store.keyLife.getOrgSettings(org.id), { autoRevokeExposed: false, requestLogDays: 7, requestLogMax: 10_000 });
    assert.deepEqual(await actions(org.id), []);
    await updateOrgSettings(ctx.deps.admin, org, wanted, 'admin@example.com');
    assert.deepEqual(await ctx.store.keyLife.getOrgSettings(org.id), wanted);
    assert.deepEqual(await actions(org.id), ['admin@example.com settings.changed', 'admin@example.com settings.changed']);
  });

  test('a password set through a link: the link still works, and sets it once the log takes entries', async () => {
    const org = await createOrg(ctx.deps.admin, 'links', 'test-all');
    const { token } = await createUser(ctx.deps.admin, org, 'lena@example.com');
    await auditRefused(() => assert.rejects(setPasswordWithToken(ctx.deps.admin, token, 'a long enough password'), /simulated audit failure/));
    assert.equal(await signIn(ctx.deps.admin, 'lena@example.com', 'a long enough password', '127.0.0.1'), null, 'no password was set');
    await setPasswordWithToken(ctx.deps.admin, token, 'a long enough password');
    assert.ok(await signIn(ctx.deps.admin, 'lena@example.com', 'a long enough password', '127.0.0.1'));
    await assert.rejects(setPasswordWithToken(ctx.deps.admin, token, 'another long password'), /not valid/, 'used up once it worked');
    assert.deepEqual(await actions(org.id), ['operator user.created', 'lena@example.com password.set']);
  });

  test('a password change: the old password still signs in', async () => {
    const org = await createOrg(ctx.deps.admin, 'passwords', 'test-all');
    const { token } = await createUser(ctx.deps.admin, org, 'pat@example.com');
    const user = await setPasswordWithToken(ctx.deps.admin, token, 'the first long password');
    const signedIn = (await signIn(ctx.deps.admin, 'pat@example.com', 'the first long password', '127.0.0.1'))!;
    await auditRefused(() =>
      assert.rejects(changePassword(ctx.deps.admin, signedIn, 'the first long password', 'the second long password', '127.0.0.1'), /simulated audit failure/),
    );
    assert.ok(await signIn(ctx.deps.admin, 'pat@example.com', 'the first long password', '127.0.0.1'), 'the old password');
    assert.equal(await signIn(ctx.deps.admin, 'pat@example.com', 'the second long password', '127.0.0.1'), null, 'not the new one');
    assert.deepEqual(await actions(user.orgId), ['operator user.created', 'pat@example.com password.set']);
  });

  test('an exposed key of an organisation that revokes them: neither marked nor revoked, until it can be recorded', async () => {
    const org = await createOrg(ctx.deps.admin, 'leaks', 'test-all');
    await updateOrgSettings(ctx.deps.admin, org, { autoRevokeExposed: true, requestLogDays: 7, requestLogMax: 10_000 }, 'admin@example.com');
    const { key, info } = await createExpiringKey(ctx.deps.admin, org, { mode: 'live', name: 'leaky', expiresAt: null }, 'admin@example.com');
    const where = { via: 'query' as const, address: '127.0.0.1', route: 'GET /v1/codes' };
    await auditRefused(() => ctx.deps.exposures.report([key], where));
    assert.equal((await ctx.store.access.getKey(info.id))!.revokedAt, null);
    assert.deepEqual(await ctx.store.keyLife.listExposures(org.id, 10), []);
    assert.equal((await bare(ctx, '/v1/codes?limit=1', bearer(key))).statusCode, 200, 'the key works as its state says');
    // A minute on, the next report is recorded whole.
    ctx.clock.advance(61_000);
    await ctx.deps.exposures.report([key], where);
    assert.notEqual((await ctx.store.access.getKey(info.id))!.revokedAt, null);
    assert.equal((await ctx.store.keyLife.listExposures(org.id, 10)).length, 1);
    assert.deepEqual((await actions(org.id)).slice(-2), ['exposure key.exposed', 'exposure key.revoked']);
  });
});
