/**
 * The key-life store (expiries, rolls, exposures, organisation settings, usage
 * over days, the request log) through its interface, on every backend.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Store } from '../../src/store/store.ts';
import type { RequestLogEntry } from '../../src/store/key-life-store.ts';
import { RequestBatch } from '../../src/domain/request-batch.ts';
import { withStore, type OpenStore } from './suite-fixtures.ts';

const T = '2026-03-15T12:00:00.000Z';

async function orgWithKeys(store: Store): Promise<void> {
  await store.access.seedPlans([{ name: 'basic', endpoints: ['codes.list'], ratePerMinute: 10, monthlyQuota: 100, testKeysAllowed: true }]);
  await store.access.createOrg({ id: 'org_1', slug: 'one', plan: 'basic', createdAt: T });
  await store.access.createOrg({ id: 'org_2', slug: 'two', plan: 'basic', createdAt: T });
  await store.access.insertKey({ id: 'key_1', orgId: 'org_1', hash: 'h1', displayPrefix: 'svc_live_aaaa', name: 'a', mode: 'live', createdAt: T });
  await store.access.insertKey({
    id: 'key_2',
    orgId: 'org_1',
    hash: 'h2',
    displayPrefix: 'svc_test_bbbb',
    name: 'b',
    mode: 'test',
    createdAt: T,
    expiresAt: '2026-04-01T00:00:00.000Z',
  });
  await store.access.insertKey({ id: 'key_3', orgId: 'org_2', hash: 'h3', displayPrefix: 'svc_live_cccc', name: 'c', mode: 'live', createdAt: T });
}

const entry = (i: number, o: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  orgId: 'org_1',
  keyId: 'key_1',
  keyPrefix: 'svc_live_aaaa',
  at: new Date(Date.parse(T) + i * 1000).toISOString(),
  method: 'GET',
  path: `/v1/codes?limit=${i}`,
  status: 200,
  errorCode: null,
  durationMs: 1.5,
  requestId: `req_${String(i).padStart(32, '0')}`,
  ...o,
});

export function keyLifeStoreSuite(name: string, open: OpenStore): void {
  describe(`Key-life store (${name})`, () => {
    test('an expiry is stored with the key and only ever shortened, never on a revoked key', async () => {
      await withStore(open, async (store) => {
        await orgWithKeys(store);
        assert.equal((await store.access.getKey('key_1'))!.expiresAt, null);
        assert.equal((await store.access.findKeyByHash('h2'))!.key.expiresAt, '2026-04-01T00:00:00.000Z');
        assert.equal(await store.keyLife.shortenExpiry('key_1', '2026-03-16T00:00:00.000Z'), true);
        assert.equal(await store.keyLife.shortenExpiry('key_1', '2026-03-20T00:00:00.000Z'), false, 'a later end does not lengthen it');
        assert.equal((await store.access.getKey('key_1'))!.expiresAt, '2026-03-16T00:00:00.000Z');
        await store.access.revokeKey('key_3', T);
        assert.equal(await store.keyLife.shortenExpiry('key_3', '2026-03-16T00:00:00.000Z'), false);
        assert.equal((await store.access.getKey('key_3'))!.expiresAt, null);
      });
    });

    test('a roll is recorded with its successor; a key rolled twice names the latest, a key never rolled none', async () => {
      await withStore(open, async (store) => {
        await orgWithKeys(store);
        assert.equal(await store.keyLife.successorOf('key_1'), null);
        await store.keyLife.addRoll('key_1', 'key_2', T);
        assert.equal(await store.keyLife.successorOf('key_1'), 'key_2');
        await store.keyLife.addRoll('key_1', 'key_3', T);
        assert.equal(await store.keyLife.successorOf('key_1'), 'key_3', 'the same moment: the later roll');
        assert.equal(await store.keyLife.successorOf('key_2'), null, 'a successor was not rolled itself');
      });
    });

    test('exposures are listed per organisation, newest first; settings default to off, 7 days, 10 000', async () => {
      await withStore(open, async (store) => {
        await orgWithKeys(store);
        await store.keyLife.addExposure({ keyId: 'key_1', orgId: 'org_1', via: 'query', at: T, address: '10.0.0.1', route: 'GET /v1/codes', revoked: false });
        await store.keyLife.addExposure({ keyId: 'key_2', orgId: 'org_1', via: 'referer', at: T, address: '10.0.0.2', route: 'GET /', revoked: true });
        const listed = await store.keyLife.listExposures('org_1', 10);
        assert.deepEqual(
          listed.map((e) => [e.keyId, e.via, e.revoked, e.address, e.route]),
          [
            ['key_2', 'referer', true, '10.0.0.2', 'GET /'],
            ['key_1', 'query', false, '10.0.0.1', 'GET /v1/codes'],
          ],
        );
        assert.deepEqual(await store.keyLife.listExposures('org_2', 10), []);
        assert.deepEqual(await store.keyLife.getOrgSettings('org_1'), { autoRevokeExposed: false, requestLogDays: 7, requestLogMax: 10_000 });
        await store.keyLife.setOrgSettings('org_1', { autoRevokeExposed: true, requestLogDays: 3, requestLogMax: 500 });
        await store.keyLife.setOrgSettings('org_1', { autoRevokeExposed: true, requestLogDays: 2, requestLogMax: 500 });
        assert.deepEqual(await store.keyLife.getOrgSettings('org_1'), { autoRevokeExposed: true, requestLogDays: 2, requestLogMax: 500 });
        assert.equal((await store.keyLife.getOrgSettings('org_2')).autoRevokeExposed, false);
      });
    });

    test("usage since a day: only the organisation's keys, from that day on", async () => {
      await withStore(open, async (store) => {
        await orgWithKeys(store);
        await store.usage.addUsage(
          [
            { keyId: 'key_1', day: '2026-02-10', outcome: 'ok', count: 5 },
            { keyId: 'key_1', day: '2026-03-01', outcome: 'ok', count: 2 },
            { keyId: 'key_2', day: '2026-03-02', outcome: 'client_error', count: 1 },
            { keyId: 'key_3', day: '2026-03-02', outcome: 'ok', count: 9 },
          ],
          new Map(),
        );
        const rows = await store.keyLife.usageSince('org_1', '2026-02-14');
        assert.deepEqual(
          rows.map((r) => [r.keyId, r.day, r.outcome, r.count]),
          [
            ['key_1', '2026-03-01', 'ok', 2],
            ['key_2', '2026-03-02', 'client_error', 1],
          ],
        );
      });
    });

    test('request log: newest first, filtered, paged without loss, pruned by age and count', async () => {
      await withStore(open, async (store) => {
        await orgWithKeys(store);
        const entries = Array.from({ length: 25 }, (_, i) =>
          entry(
            i,
            i % 5 === 0
              ? { status: 404, errorCode: 'code_not_found' }
              : i % 7 === 0
                ? { keyId: 'key_2', keyPrefix: 'svc_test_bbbb', status: 500, errorCode: 'internal_error' }
                : {},
          ),
        );
        assert.equal(await store.keyLife.appendRequests(RequestBatch.of(entries)), true);
        assert.equal(await store.keyLife.appendRequests(RequestBatch.of([entry(99, { orgId: 'org_2', keyId: 'key_3' })])), true);
        const all: string[] = [];
        let before: number | null = null;
        for (;;) {
          const page = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before, limit: 10 });
          all.push(...page.entries.map((e) => e.requestId));
          if (!page.hasMore) break;
          before = page.entries.at(-1)!.id;
        }
        assert.deepEqual(all, entries.map((e) => e.requestId).reverse(), 'every entry once, newest first, no other organisation');
        const one = await store.keyLife.pageRequests({
          orgId: 'org_1',
          keyId: null,
          statusClass: null,
          requestId: entries[7]!.requestId,
          before: null,
          limit: 10,
        });
        assert.deepEqual(
          one.entries.map((e) => ({ ...e, id: 0 })),
          [{ ...entries[7]!, id: 0 }],
          'found by Request-Id, every field as written',
        );
        const errors = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: 4, requestId: null, before: null, limit: 50 });
        assert.deepEqual(
          errors.entries.map((e) => e.status),
          [404, 404, 404, 404, 404],
        );
        const ofKey = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: 'key_2', statusClass: 5, requestId: null, before: null, limit: 50 });
        assert.deepEqual(
          ofKey.entries.map((e) => e.requestId),
          [entries[21]!.requestId, entries[14]!.requestId, entries[7]!.requestId],
        );
        const other = await store.keyLife.pageRequests({
          orgId: 'org_1',
          keyId: null,
          statusClass: null,
          requestId: `req_${String(99).padStart(32, '0')}`,
          before: null,
          limit: 10,
        });
        assert.deepEqual(other.entries, [], "another organisation's request is not found");

        await store.keyLife.pruneRequests('org_1', entries[5]!.at, 12);
        const kept = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before: null, limit: 50 });
        assert.deepEqual(
          kept.entries.map((e) => e.requestId),
          entries
            .slice(13)
            .map((e) => e.requestId)
            .reverse(),
          'the newest 12',
        );
        await store.keyLife.pruneRequests('org_1', entries[20]!.at, 10_000);
        const recent = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before: null, limit: 50 });
        assert.deepEqual(
          recent.entries.map((e) => e.requestId),
          entries
            .slice(20)
            .map((e) => e.requestId)
            .reverse(),
          'none older than the cut',
        );
        assert.deepEqual((await store.keyLife.orgsWithRequests()).sort(), ['org_1', 'org_2']);
        await store.keyLife.pruneRequests('org_1', '2999-01-01T00:00:00.000Z', 10_000);
        const none = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before: null, limit: 50 });
        assert.deepEqual(none.entries, [], 'every row older than the cut, however few: all gone');
        assert.deepEqual(await store.keyLife.orgsWithRequests(), ['org_2'], "another organisation's rows stay");
      });
    });

    test('request log: a prune of thousands of rows deletes them all, in slices, and keeps the newest', async () => {
      await withStore(open, async (store) => {
        await orgWithKeys(store);
        const many = Array.from({ length: 3_500 }, (_, i) => entry(i));
        assert.equal(await store.keyLife.appendRequests(RequestBatch.of(many)), true);
        await store.keyLife.pruneRequests('org_1', many[0]!.at, 250);
        const kept: string[] = [];
        let before: number | null = null;
        for (;;) {
          const page = await store.keyLife.pageRequests({ orgId: 'org_1', keyId: null, statusClass: null, requestId: null, before, limit: 100 });
          kept.push(...page.entries.map((e) => e.requestId));
          if (!page.hasMore) break;
          before = page.entries.at(-1)!.id;
        }
        assert.deepEqual(
          kept,
          many
            .slice(-250)
            .map((e) => e.requestId)
            .reverse(),
          'exactly the newest 250 of 3 500',
        );
      });
    });
  });
}
