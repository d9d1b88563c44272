/**
 * The Store's sub-stores (access, usage, dashboard) through their interfaces
 * only, so every backend runs the same tests: PostgreSQL's twin must behave
 * exactly as SQLite's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Plan } from '../../src/domain/access.ts';
import type { Store } from '../../src/store/store.ts';
import { withStore, type OpenStore } from './suite-fixtures.ts';

const T = '2026-03-15T12:00:00.000Z';
const plan = (name: string, ratePerMinute = 10): Plan => ({
  name,
  endpoints: ['codes.list', 'codes.get'],
  ratePerMinute,
  monthlyQuota: 100,
  testKeysAllowed: true,
});

async function withOrgAndKey(store: Store): Promise<void> {
  await store.access.seedPlans([plan('basic')]);
  await store.access.createOrg({ id: 'org_1', slug: 'one', plan: 'basic', createdAt: T });
  await store.access.insertKey({ id: 'key_1', orgId: 'org_1', hash: 'hash1', displayPrefix: 'svc_live_abcd', name: 'first', mode: 'live', createdAt: T });
}

export function subStoreSuite(name: string, open: OpenStore): void {
  describe(`Sub-stores (${name})`, () => {
    test('plans: seeding keeps existing ones, upsert replaces; listed by name', async () => {
      await withStore(open, async (store) => {
        await store.access.seedPlans([plan('b'), plan('a')]);
        await store.access.seedPlans([plan('a', 99)]);
        assert.equal((await store.access.getPlan('a'))!.ratePerMinute, 10, 'seeding does not overwrite');
        await store.access.upsertPlan({ ...plan('a', 99), monthlyQuota: null, testKeysAllowed: false });
        assert.deepEqual(await store.access.getPlan('a'), { ...plan('a', 99), monthlyQuota: null, testKeysAllowed: false });
        assert.deepEqual(
          (await store.access.listPlans()).map((p) => p.name),
          ['a', 'b'],
        );
        assert.equal(await store.access.getPlan('nope'), null);
      });
    });

    test('organisations: a taken slug gives null; found by slug and id; plan changes', async () => {
      await withStore(open, async (store) => {
        await withOrgAndKey(store);
        await store.access.seedPlans([plan('other')]);
        assert.equal(await store.access.createOrg({ id: 'org_2', slug: 'one', plan: 'basic', createdAt: T }), null);
        await store.access.createOrg({ id: 'org_0', slug: 'aaa', plan: 'basic', createdAt: T });
        assert.deepEqual(
          (await store.access.listOrgs()).map((o) => o.slug),
          ['aaa', 'one'],
        );
        assert.deepEqual(await store.access.getOrgById('org_1'), { id: 'org_1', slug: 'one', plan: 'basic', createdAt: T });
        assert.equal(await store.access.setOrgPlan('one', 'other'), true);
        assert.equal(await store.access.setOrgPlan('none', 'other'), false);
        assert.equal((await store.access.getOrg('one'))!.plan, 'other');
        assert.equal(await store.access.getOrg('none'), null);
      });
    });

    test('keys: found by hash with org and plan; revocation keeps its first time', async () => {
      await withStore(open, async (store) => {
        await withOrgAndKey(store);
        const found = await store.access.findKeyByHash('hash1');
        assert.deepEqual(found, {
          key: {
            id: 'key_1',
            orgId: 'org_1',
            name: 'first',
            mode: 'live',
            displayPrefix: 'svc_live_abcd',
            createdAt: T,
            revokedAt: null,
            lastUsedAt: null,
            expiresAt: null,
          },
          org: { id: 'org_1', slug: 'one', plan: 'basic', createdAt: T },
          plan: plan('basic'),
        });
        assert.equal(await store.access.findKeyByHash('nope'), null);
        const first = await store.access.revokeKey('key_1', '2026-03-16T00:00:00.000Z');
        assert.deepEqual([first!.key.revokedAt, first!.revokedNow], ['2026-03-16T00:00:00.000Z', true]);
        const second = await store.access.revokeKey('key_1', '2026-03-17T00:00:00.000Z');
        assert.deepEqual([second!.key.revokedAt, second!.revokedNow], ['2026-03-16T00:00:00.000Z', false], 'a second revocation changes nothing, and says so');
        assert.equal((await store.access.findKeyByHash('hash1'))!.key.revokedAt, '2026-03-16T00:00:00.000Z');
        assert.equal(await store.access.revokeKey('key_none', T), null);
        await store.access.insertKey({
          id: 'key_0',
          orgId: 'org_1',
          hash: 'hash0',
          displayPrefix: 'svc_test_wxyz',
          name: 'second',
          mode: 'test',
          createdAt: '2026-03-15T13:00:00.000Z',
        });
        assert.deepEqual(
          (await store.access.listKeys('org_1')).map((k) => k.id),
          ['key_1', 'key_0'],
          'by creation time',
        );
      });
    });

    test('a transaction commits all it wrote or none of it, and takes in nothing written beside it', async () => {
      await withStore(open, async (store) => {
        await withOrgAndKey(store);
        await store.usage.addUsage([], new Map([['key_1', '2026-03-15T12:00:05.000Z']]));
        const second = { id: 'key_2', orgId: 'org_1', hash: 'hash2', displayPrefix: 'svc_live_efgh', name: 'second', mode: 'live' as const, createdAt: T };
        const entry = (action: string) => ({ orgId: 'org_1', actor: 'operator', action, target: 't', at: T });
        const settings = { autoRevokeExposed: true, requestLogDays: 2, requestLogMax: 100 };
        const unchanged = async (why: string) => {
          assert.equal(await store.access.getKey('key_2'), null, `${why}: no key`);
          assert.equal((await store.access.getKey('key_1'))!.revokedAt, null, `${why}: not revoked`);
          assert.deepEqual(await store.keyLife.getOrgSettings('org_1'), { autoRevokeExposed: false, requestLogDays: 7, requestLogMax: 10_000 }, why);
          assert.deepEqual(await store.dashboard.listAudit('org_1', 10), [], `${why}: no audit entry`);
        };

        // A throw after writes to every part: none of them is kept.
        let begun!: () => void;
        let release!: () => void;
        const inside = new Promise<void>((resolve) => (begun = resolve));
        const gate = new Promise<void>((resolve) => (release = resolve));
        const failing = store.withTransaction(async (tx) => {
          await tx.access.insertKey(second);
          assert.equal((await tx.access.getKey('key_2'))!.name, 'second', 'read back inside');
          const revoked = (await tx.access.revokeKey('key_1', T))!;
          assert.deepEqual([revoked.revokedNow, revoked.key.lastUsedAt], [true, '2026-03-15T12:00:05.000Z'], 'with its last use');
          await tx.keyLife.setOrgSettings('org_1', settings);
          await tx.dashboard.addAudit(entry('key.created'));
          begun();
          await gate;
          throw new Error('the audit entry could not be written');
        });
        await inside;
        // Another request meanwhile: it sees nothing of the transaction, and what it writes is its own.
        assert.equal(await store.access.getKey('key_2'), null, 'not seen before the commit');
        const nonce = store.dashboard.useNonce('n1', T, '2000-01-01T00:00:00.000Z');
        assert.equal(await store.usage.writeCounters([{ orgId: 'org_1', window: 'month:2026-03', count: 5 }], []), true, 'counts are not held back');
        release();
        await assert.rejects(failing, /could not be written/);
        assert.equal(await nonce, true);
        await unchanged('after a throw');
        assert.equal(await store.dashboard.useNonce('n1', T, '2000-01-01T00:00:00.000Z'), false, 'the write beside it was kept');

        // A statement the database refuses, after the audit entry: the entry goes too.
        await assert.rejects(
          store.withTransaction(async (tx) => {
            await tx.dashboard.addAudit(entry('key.created'));
            await tx.access.revokeKey('key_1', T);
            await tx.access.insertKey({ ...second, id: 'key_1' });
          }),
        );
        await unchanged('after a refused statement');

        const result = await store.withTransaction(async (tx) => {
          await tx.access.insertKey(second);
          await tx.dashboard.addAudit(entry('key.created'));
          return 'committed';
        });
        assert.equal(result, 'committed');
        assert.equal((await store.access.getKey('key_2'))!.name, 'second');
        assert.deepEqual(
          (await store.dashboard.listAudit('org_1', 10)).map((e) => e.action),
          ['key.created'],
        );
      });
    });

    test('usage: counters and daily usage by key, for one month', async () => {
      await withStore(open, async (store) => {
        await withOrgAndKey(store);
        assert.equal(await store.usage.writeCounters([{ orgId: 'org_1', window: 'month:2026-03', count: 5 }], []), true);
        const ok = await store.usage.addUsage(
          [
            { keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 4 },
            { keyId: 'key_1', day: '2026-03-15', outcome: 'refused_limit', count: 1 },
            { keyId: 'key_1', day: '2026-04-01', outcome: 'ok', count: 1 },
          ],
          new Map([['key_1', '2026-03-15T12:00:05.000Z']]),
        );
        assert.equal(ok, true);
        await store.usage.addUsage([{ keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 2 }], new Map());
        assert.deepEqual(await store.usage.loadCounters('org_1', ['month:2026-03', 'month:2026-02']), new Map([['month:2026-03', 5]]));
        assert.deepEqual(await store.usage.usageByDay('org_1', '2026-03'), [
          { keyId: 'key_1', day: '2026-03-15', outcome: 'ok', count: 6 },
          { keyId: 'key_1', day: '2026-03-15', outcome: 'refused_limit', count: 1 },
        ]);
        assert.equal((await store.access.getKey('key_1'))!.lastUsedAt, '2026-03-15T12:00:05.000Z');
      });
    });

    test('dashboard users: unique emails, listed by email, passwords and disabling', async () => {
      await withStore(open, async (store) => {
        await withOrgAndKey(store);
        const user = { id: 'usr_1', orgId: 'org_1', email: 'b@example.com', passwordHash: null, createdAt: T, disabledAt: null };
        assert.deepEqual(await store.dashboard.createUser(user), user);
        assert.equal(await store.dashboard.createUser({ ...user, id: 'usr_x' }), null, 'a taken email');
        await store.dashboard.createUser({ ...user, id: 'usr_2', email: 'a@example.com' });
        assert.deepEqual(
          (await store.dashboard.listUsers(null)).map((u) => u.email),
          ['a@example.com', 'b@example.com'],
        );
        assert.deepEqual(
          (await store.dashboard.listUsers('org_1')).map((u) => u.id),
          ['usr_2', 'usr_1'],
        );
        assert.deepEqual(await store.dashboard.listUsers('org_none'), []);
        await store.dashboard.setPassword('usr_1', 'scrypt$x');
        await store.dashboard.disableUser('usr_1', '2026-03-16T00:00:00.000Z');
        await store.dashboard.disableUser('usr_1', '2026-03-17T00:00:00.000Z');
        assert.deepEqual(await store.dashboard.getUserByEmail('b@example.com'), { ...user, passwordHash: 'scrypt$x', disabledAt: '2026-03-16T00:00:00.000Z' });
        assert.equal(await store.dashboard.getUser('usr_none'), null);
      });
    });

    test('dashboard one-time links, sessions, sign-in failures, nonces and audit', async () => {
      await withStore(open, async (store) => {
        await withOrgAndKey(store);
        await store.dashboard.createUser({ id: 'usr_1', orgId: 'org_1', email: 'a@example.com', passwordHash: null, createdAt: T, disabledAt: null });
        await store.dashboard.createPasswordToken('tok', 'usr_1', '2026-03-15T13:00:00.000Z');
        await store.dashboard.createPasswordToken('old', 'usr_1', '2026-03-15T11:00:00.000Z');
        assert.equal(await store.dashboard.passwordTokenUser('tok', T), 'usr_1', 'a working link is found');
        assert.equal(await store.dashboard.passwordTokenUser('tok', T), 'usr_1', 'and not used up by looking');
        assert.equal(await store.dashboard.passwordTokenUser('old', T), null, 'an expired link is not');
        assert.equal(await store.dashboard.passwordTokenUser('none', T), null, 'nor one never issued');
        assert.equal(await store.dashboard.consumePasswordToken('old', T), null, 'expired');
        assert.deepEqual(
          await Promise.all([store.dashboard.consumePasswordToken('tok', T), store.dashboard.consumePasswordToken('tok', T)]).then((r) => r.sort()),
          ['usr_1', null].sort(),
          'used once only',
        );
        assert.equal(await store.dashboard.passwordTokenUser('tok', T), null, 'a used link is not found');

        const session = { hash: 's1', userId: 'usr_1', csrfToken: 'c', createdAt: T, expiresAt: '2026-03-15T14:00:00.000Z' };
        await store.dashboard.createSession(session);
        await store.dashboard.createSession({ ...session, hash: 's2', expiresAt: '2026-03-15T12:30:00.000Z' });
        await store.dashboard.createSession({ ...session, hash: 's3' });
        assert.deepEqual(await store.dashboard.getSession('s1'), session);
        await store.dashboard.deleteExpiredSessions('2026-03-15T12:30:00.000Z');
        assert.equal(await store.dashboard.getSession('s2'), null);
        await store.dashboard.deleteSession('s1');
        assert.equal(await store.dashboard.getSession('s1'), null);
        await store.dashboard.deleteUserSessions('usr_1');
        assert.equal(await store.dashboard.getSession('s3'), null);

        const EPOCH = '2000-01-01T00:00:00.000Z';
        for (const at of ['2026-03-15T11:00:00.000Z', '2026-03-15T12:00:00.000Z', '2026-03-15T12:01:00.000Z'])
          await store.dashboard.recordSignInFailure('email:a', at, EPOCH);
        await store.dashboard.recordSignInFailure('ip:b', '2026-03-15T12:02:00.000Z', EPOCH);
        assert.deepEqual(await store.dashboard.signInFailures('email:a', '2026-03-15T11:30:00.000Z'), { count: 2, latest: '2026-03-15T12:01:00.000Z' });
        // Recording a failure forgets the subject's failures older than asked.
        await store.dashboard.recordSignInFailure('email:a', '2026-03-15T12:03:00.000Z', '2026-03-15T11:30:00.000Z');
        assert.deepEqual(await store.dashboard.signInFailures('email:a', EPOCH), { count: 3, latest: '2026-03-15T12:03:00.000Z' });
        await store.dashboard.clearSignInFailures('email:a');
        assert.deepEqual(await store.dashboard.signInFailures('email:a', EPOCH), { count: 0, latest: null });
        assert.deepEqual(await store.dashboard.signInFailures('ip:b', EPOCH), { count: 1, latest: '2026-03-15T12:02:00.000Z' }, 'other subjects stay');

        await store.dashboard.rememberSignInAddress('a@example.com', '192.0.2.1', '2026-03-15T12:00:00.000Z', EPOCH);
        assert.equal(await store.dashboard.knowsSignInAddress('a@example.com', '192.0.2.1', '2026-03-15T11:00:00.000Z'), true);
        assert.equal(await store.dashboard.knowsSignInAddress('a@example.com', '192.0.2.2', '2026-03-15T11:00:00.000Z'), false);
        assert.equal(await store.dashboard.knowsSignInAddress('b@example.com', '192.0.2.1', '2026-03-15T11:00:00.000Z'), false);
        assert.equal(await store.dashboard.knowsSignInAddress('a@example.com', '192.0.2.1', '2026-03-15T12:00:00.000Z'), false, 'not since then');
        await store.dashboard.rememberSignInAddress('a@example.com', '192.0.2.1', '2026-03-16T12:00:00.000Z', EPOCH);
        assert.equal(await store.dashboard.knowsSignInAddress('a@example.com', '192.0.2.1', '2026-03-16T11:00:00.000Z'), true, 'a later sign-in moves it');
        await store.dashboard.rememberSignInAddress('c@example.com', '192.0.2.3', '2026-04-20T00:00:00.000Z', '2026-04-01T00:00:00.000Z');
        assert.equal(await store.dashboard.knowsSignInAddress('a@example.com', '192.0.2.1', EPOCH), false, 'old entries are forgotten');

        assert.equal(await store.dashboard.useNonce('n1', T, '2026-03-15T11:00:00.000Z'), true);
        assert.equal(await store.dashboard.useNonce('n1', T, '2026-03-15T11:00:00.000Z'), false, 'a nonce works once');
        assert.equal(await store.dashboard.useNonce('n1', '2026-03-16T00:00:00.000Z', '2026-03-15T13:00:00.000Z'), true, 'once forgotten, it is new again');

        for (const action of ['key.created', 'key.revoked', 'password.changed'])
          await store.dashboard.addAudit({ orgId: 'org_1', actor: 'a@example.com', action, target: 't', at: T });
        assert.deepEqual(
          (await store.dashboard.listAudit('org_1', 2)).map((e) => e.action),
          ['password.changed', 'key.revoked'],
          'newest first, at most limit',
        );
        assert.deepEqual(await store.dashboard.listAudit('org_none', 10), []);
      });
    });
  });
}
