/**
 * Managing plans, organisations and API keys: the operations behind the CLI and
 * the dashboard. Every input is validated here, once, with a message fit to
 * show to the person who made the request.
 */
import { randomAlphanumeric, displayPrefix, generateKey, hashSecret, newKeyId } from './api-keys.ts';
import {
  ENDPOINTS,
  PLAN_NAME_PATTERN,
  SLUG_PATTERN,
  UNCOUNTED_OUTCOMES,
  type ApiKeyInfo,
  type KeyMode,
  type Organisation,
  type Plan,
} from '../../domain/access.ts';
import { givenBackWindow } from '../../domain/windows.ts';
import { holdsKeyShape } from '../../domain/key-shape.ts';
import { InvalidRequest } from '../../errors.ts';
import { audit, OPERATOR } from '../audit.ts';
import type { KeyRevocation } from '../../store/access-store.ts';
import type { Store, WriteTransaction } from '../../store/store.ts';

export interface AdminDeps {
  store: Store;
  now: () => number;
  /** Called after any change to keys, organisations or plans (drops auth caches). */
  onChange?: () => void;
  /**
   * Awaited after onChange, before the operation returns: tells every other
   * instance (the Redis access epoch) so a revocation holds for their next
   * request. Never throws.
   */
  afterChange?: () => Promise<void>;
}

const MAX_RATE = 1_000_000;
const MAX_QUOTA = 1_000_000_000_000;
const MAX_KEY_NAME = 100;
const CONTROL = /\p{Cc}/u;

export interface PlanInput {
  name: string;
  endpoints: string[];
  ratePerMinute: number;
  monthlyQuota: number | null;
  testKeysAllowed: boolean;
}

export async function setPlan(deps: AdminDeps, input: PlanInput): Promise<Plan> {
  if (!PLAN_NAME_PATTERN.test(input.name)) throw new InvalidRequest(`plan name "${input.name}" must match [a-z0-9][a-z0-9_-]{0,31}`);
  const unknown = input.endpoints.filter((e) => !(ENDPOINTS as readonly string[]).includes(e));
  if (unknown.length > 0) throw new InvalidRequest(`unknown endpoint(s) ${unknown.join(', ')}; known: ${ENDPOINTS.join(', ')}`);
  if (input.endpoints.length === 0) throw new InvalidRequest(`a plan needs at least one endpoint (${ENDPOINTS.join(', ')})`);
  if (!Number.isSafeInteger(input.ratePerMinute) || input.ratePerMinute < 1 || input.ratePerMinute > MAX_RATE) {
    throw new InvalidRequest(`rate per minute must be an integer from 1 to ${MAX_RATE}`);
  }
  if (input.monthlyQuota !== null && (!Number.isSafeInteger(input.monthlyQuota) || input.monthlyQuota < 1 || input.monthlyQuota > MAX_QUOTA)) {
    throw new InvalidRequest(`monthly quota must be an integer from 1 to ${MAX_QUOTA}, or unlimited`);
  }
  const plan: Plan = {
    name: input.name,
    endpoints: ENDPOINTS.filter((e) => input.endpoints.includes(e)),
    ratePerMinute: input.ratePerMinute,
    monthlyQuota: input.monthlyQuota,
    testKeysAllowed: input.testKeysAllowed,
  };
  await deps.store.access.upsertPlan(plan);
  deps.onChange?.();
  await deps.afterChange?.();
  return plan;
}

async function requirePlan(deps: AdminDeps, name: string): Promise<Plan> {
  const plan = await deps.store.access.getPlan(name);
  if (!plan) {
    const names = (await deps.store.access.listPlans()).map((p) => p.name);
    throw new InvalidRequest(`no plan "${name}" (plans: ${names.join(', ')})`);
  }
  return plan;
}

export async function requireOrg(deps: AdminDeps, slug: string): Promise<Organisation> {
  const org = await deps.store.access.getOrg(slug);
  if (!org) throw new InvalidRequest(`no organisation "${slug}"`);
  return org;
}

export async function createOrg(deps: AdminDeps, slug: string, planName: string): Promise<Organisation> {
  if (!SLUG_PATTERN.test(slug))
    throw new InvalidRequest(`organisation slug "${slug}" must be lower-case letters, digits and inner hyphens, at most 63 characters`);
  await requirePlan(deps, planName);
  const org = await deps.store.access.createOrg({
    id: `org_${randomAlphanumeric(16)}`,
    slug,
    plan: planName,
    createdAt: new Date(deps.now()).toISOString(),
  });
  if (!org) throw new InvalidRequest(`organisation "${slug}" already exists`);
  return org;
}

export async function setOrgPlan(deps: AdminDeps, slug: string, planName: string): Promise<Organisation> {
  await requirePlan(deps, planName);
  if (!(await deps.store.access.setOrgPlan(slug, planName))) throw new InvalidRequest(`no organisation "${slug}"`);
  deps.onChange?.();
  await deps.afterChange?.();
  return requireOrg(deps, slug);
}

export interface CreatedKey {
  /** The full key: shown once, never stored. */
  key: string;
  info: ApiKeyInfo;
}

/** How the audit log names a key. */
export function keyLabel(k: ApiKeyInfo): string {
  return `${k.name} (${k.displayPrefix}…, ${k.mode})`;
}

/** A new key for the organisation, its name and mode checked, not stored yet: storeKey stores it. */
export async function makeKey(deps: AdminDeps, org: Organisation, mode: KeyMode, name: string, expiresAt: string | null): Promise<CreatedKey> {
  const trimmed = name.trim();
  if (trimmed.length > MAX_KEY_NAME) throw new InvalidRequest(`key name must be at most ${MAX_KEY_NAME} characters`);
  // A name is shown in the dashboard, the audit log and the operator's terminal, where an escape sequence would act.
  if (CONTROL.test(trimmed)) throw new InvalidRequest('key name must not contain control characters (line breaks, tabs, escapes)');
  // A name is stored and shown as it is, on every page and in the audit log: a key in it would be kept in plaintext.
  if (holdsKeyShape(trimmed)) throw new InvalidRequest('key name must not contain an API key: name the key after what uses it');
  if (mode === 'test') {
    const plan = await requirePlan(deps, org.plan);
    if (!plan.testKeysAllowed) throw new InvalidRequest(`the ${plan.name} plan does not allow test keys`);
  }
  const key = generateKey(mode);
  const info: ApiKeyInfo = {
    id: newKeyId(),
    orgId: org.id,
    name: trimmed === '' ? `${mode} key` : trimmed,
    mode,
    displayPrefix: displayPrefix(key),
    createdAt: new Date(deps.now()).toISOString(),
    revokedAt: null,
    lastUsedAt: null,
    expiresAt,
  };
  return { key, info };
}

/** Stores a key made by makeKey, and its entry in the audit log, in the caller's transaction. */
export async function storeKey(tx: WriteTransaction, deps: AdminDeps, { key, info }: CreatedKey, actor: string): Promise<void> {
  await tx.access.insertKey({ ...info, hash: hashSecret(key) });
  await audit(tx, deps, info.orgId, actor, 'key.created', `${keyLabel(info)}${info.expiresAt === null ? '' : `, expires ${info.expiresAt}`}`);
}

/**
 * Creates a key and records it in the audit log as done by actor (a user's
 * email; the CLI's operator by default), in one transaction: a key is never
 * stored without its entry (nor its entry without the key).
 */
export async function createKey(
  deps: AdminDeps,
  org: Organisation,
  mode: KeyMode,
  name: string,
  options: { expiresAt?: string | null; actor?: string } = {},
): Promise<CreatedKey> {
  const created = await makeKey(deps, org, mode, name, options.expiresAt ?? null);
  await deps.store.withTransaction((tx) => storeKey(tx, deps, created, options.actor ?? OPERATOR));
  deps.onChange?.();
  await deps.afterChange?.();
  return created;
}

/**
 * Revokes a key; with org given, only a key of that organisation (the
 * dashboard's case). Revoking a revoked key changes nothing and says so
 * (revokedNow false) and records nothing: the audit log holds one revocation,
 * by actor (a user's email; the CLI's operator by default), written in the
 * revocation's transaction.
 */
export async function revokeKey(deps: AdminDeps, keyId: string, org?: Organisation, actor = OPERATOR): Promise<KeyRevocation> {
  const existing = await deps.store.access.getKey(keyId);
  if (!existing || (org && existing.orgId !== org.id)) throw new InvalidRequest(`no key "${keyId}"`);
  const revocation = await deps.store.withTransaction(async (tx) => {
    const done = (await tx.access.revokeKey(keyId, new Date(deps.now()).toISOString()))!;
    if (done.revokedNow) await audit(tx, deps, done.key.orgId, actor, 'key.revoked', keyLabel(done.key));
    return done;
  });
  if (revocation.revokedNow) {
    deps.onChange?.();
    await deps.afterChange?.();
  }
  return revocation;
}

export async function listKeys(deps: AdminDeps, org: Organisation): Promise<ApiKeyInfo[]> {
  return deps.store.access.listKeys(org.id);
}

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export interface UsageReport {
  org: string;
  plan: Plan;
  month: string;
  /** Requests counted toward the monthly allowance (what the limits hold: admitted, less server errors given back). */
  counted: number;
  /** Requests of the organisation's keys not counted toward it, by reason (outcome). */
  notCounted: Record<string, number>;
  /** counted + every request not counted. */
  total: number;
  byOutcome: Record<string, number>;
  byKey: { keyId: string; displayPrefix: string; name: string; mode: KeyMode; byOutcome: Record<string, number> }[];
  byDay: { day: string; byOutcome: Record<string, number> }[];
}

export async function usageReport(deps: AdminDeps, org: Organisation, month: string): Promise<UsageReport> {
  if (!MONTH_PATTERN.test(month)) throw new InvalidRequest(`month "${month}" must be YYYY-MM`);
  const plan = await requirePlan(deps, org.plan);
  const counters = await deps.store.usage.loadCounters(org.id, [`month:${month}`, givenBackWindow(`month:${month}`)]);
  const rows = await deps.store.usage.usageByDay(org.id, month);
  const keys = new Map((await deps.store.access.listKeys(org.id)).map((k) => [k.id, k]));
  const byOutcome: Record<string, number> = {};
  const byKey = new Map<string, Record<string, number>>();
  const byDay = new Map<string, Record<string, number>>();
  const add = (target: Record<string, number>, outcome: string, n: number) => (target[outcome] = (target[outcome] ?? 0) + n);
  for (const r of rows) {
    add(byOutcome, r.outcome, r.count);
    if (!byKey.has(r.keyId)) byKey.set(r.keyId, {});
    add(byKey.get(r.keyId)!, r.outcome, r.count);
    if (!byDay.has(r.day)) byDay.set(r.day, {});
    add(byDay.get(r.day)!, r.outcome, r.count);
  }
  const counted = Math.max(0, (counters.get(`month:${month}`) ?? 0) - (counters.get(givenBackWindow(`month:${month}`)) ?? 0));
  const notCounted = Object.fromEntries(UNCOUNTED_OUTCOMES.map((o) => [o, byOutcome[o] ?? 0]));
  return {
    org: org.slug,
    plan,
    month,
    counted,
    notCounted,
    total: counted + Object.values(notCounted).reduce((a, b) => a + b, 0),
    byOutcome,
    byKey: [...byKey].map(([keyId, outcomes]) => {
      const k = keys.get(keyId);
      return { keyId, displayPrefix: k?.displayPrefix ?? '', name: k?.name ?? '', mode: k?.mode ?? 'live', byOutcome: outcomes };
    }),
    byDay: [...byDay].map(([day, outcomes]) => ({ day, byOutcome: outcomes })),
  };
}
