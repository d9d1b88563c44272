/** Shared pieces of the access-control tests: bare requests, extra keys, error bodies, header parsing. */
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ENDPOINTS, type KeyMode, type Organisation } from '../../src/domain/access.ts';
import { createKey, createOrg, revokeKey, setPlan, type AdminDeps, type PlanInput } from '../../src/services/access/admin.ts';
import type { TestContext } from '../helpers/context.ts';

export const ALL_ENDPOINTS: string[] = [...ENDPOINTS];

/** A request with exactly these headers: no default key. */
export function bare(ctx: TestContext, url: string, headers: Record<string, string> = {}, method: InjectOptions['method'] = 'GET') {
  return ctx.app.inject({ method, url, headers });
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** The 32 random characters of a key. */
export function randomPart(key: string): string {
  return key.slice('svc_live_'.length);
}

/** A key of the right shape that was never issued. */
export function unknownKey(mode: KeyMode = 'live'): string {
  return `svc_${mode}_${'Zz9'.repeat(11).slice(0, 32)}`;
}

export async function newKey(ctx: TestContext, org: Organisation = ctx.org, mode: KeyMode = 'live') {
  return createKey(ctx.deps.admin, org, mode, `${mode} key`);
}

export async function revokedKey(ctx: TestContext): Promise<string> {
  const { key, info } = await newKey(ctx);
  // Used once first, so a cached lookup would have something to serve.
  assert.equal((await bare(ctx, '/v1/codes', bearer(key))).statusCode, 200);
  await revokeKey(ctx.deps.admin, info.id);
  return key;
}

/** An organisation on a new plan, with one live key. */
export async function orgOnPlan(ctx: TestContext, slug: string, plan: Partial<PlanInput> & { name: string }, admin: AdminDeps = ctx.deps.admin) {
  await setPlan(admin, { endpoints: ALL_ENDPOINTS, ratePerMinute: 1000, monthlyQuota: null, testKeysAllowed: true, ...plan });
  const org = await createOrg(admin, slug, plan.name);
  const { key, info } = await createKey(admin, org, 'live', 'live key');
  return { org, key, keyId: info.id, headers: bearer(key) };
}

/** Asserts the status and the error code of an error response, and the error body's shape. */
export function assertError(res: LightMyRequestResponse, status: number, code: string): { code: string; message: string; param?: string } {
  assert.equal(res.statusCode, status, `expected ${status} ${code}, got ${res.statusCode}: ${res.body}`);
  const body = res.json<{ error: { code: string; message: string; request_id: string; param?: string } }>();
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0);
  assert.equal(body.error.request_id, res.headers['request-id']);
  // RFC 9110: a 401 says which scheme would be accepted.
  if (status === 401) assert.equal(res.headers['www-authenticate'], 'Bearer realm="codebook"');
  return body.error;
}

export interface RateLimitState {
  minute: { r: number; t: number };
  month?: { r: number; t: number };
}

/** Parses `RateLimit: "minute";r=4;t=30, "month";r=9;t=100` (and fails on any other syntax). */
export function rateLimit(res: LightMyRequestResponse): RateLimitState {
  const header = res.headers['ratelimit'];
  assert.equal(typeof header, 'string', `no RateLimit header on a ${res.statusCode} response`);
  const m = /^"minute";r=(\d+);t=(\d+)(?:, "month";r=(\d+);t=(\d+))?$/.exec(header as string);
  assert.ok(m, `RateLimit header not in draft-11 syntax: ${String(header)}`);
  const state: RateLimitState = { minute: { r: Number(m[1]), t: Number(m[2]) } };
  if (m[3] !== undefined) state.month = { r: Number(m[3]), t: Number(m[4]) };
  return state;
}

/** Resolves with the value, or rejects after ms. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
