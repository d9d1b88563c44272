/**
 * Rows of the access and dashboard tables → domain objects, shared by every
 * backend. Column names are the same on SQLite and PostgreSQL; only the
 * representation of booleans differs (0/1 against true/false).
 */
import type { ApiKeyInfo, EndpointName, KeyMode, Organisation, Plan } from '../../domain/access.ts';
import type { KeyLookup } from '../access-store.ts';
import type { SessionRow, User } from '../dashboard-store.ts';

export type { Row } from './sql.ts';
import type { Row } from './sql.ts';

const text = (v: Row[string] | undefined): string | null => (v === null || v === undefined ? null : String(v));
export const flag = (v: unknown): boolean => v === true || Number(v) === 1;

export function planFromRow(r: Row): Plan {
  return {
    name: String(r.name),
    endpoints: JSON.parse(String(r.endpoints)) as EndpointName[],
    ratePerMinute: Number(r.rate_per_minute),
    monthlyQuota: r.monthly_quota === null ? null : Number(r.monthly_quota),
    testKeysAllowed: flag(r.test_keys_allowed),
  };
}

export function orgFromRow(r: Row): Organisation {
  return { id: String(r.id), slug: String(r.slug), plan: String(r.plan), createdAt: String(r.created_at) };
}

export function keyFromRow(r: Row): ApiKeyInfo {
  return {
    id: String(r.id),
    orgId: String(r.org_id),
    name: String(r.name),
    mode: r.mode as KeyMode,
    displayPrefix: String(r.display_prefix),
    createdAt: String(r.created_at),
    revokedAt: text(r.revoked_at),
    lastUsedAt: text(r.last_used_at),
    expiresAt: text(r.expires_at),
  };
}

export function userFromRow(r: Row): User {
  return {
    id: String(r.id),
    orgId: String(r.org_id),
    email: String(r.email),
    passwordHash: text(r.password_hash),
    createdAt: String(r.created_at),
    disabledAt: text(r.disabled_at),
  };
}

export function sessionFromRow(r: Row): SessionRow {
  return {
    hash: String(r.hash),
    userId: String(r.user_id),
    csrfToken: String(r.csrf_token),
    createdAt: String(r.created_at),
    expiresAt: String(r.expires_at),
  };
}

/**
 * A key joined with its organisation (columns o_slug, o_plan, o_created_at)
 * and plan (p_name and the plan's columns): the name of the plan is selected
 * apart, since under one column name it would replace the key's.
 */
export function keyLookupFromRow(r: Row): KeyLookup {
  return {
    key: keyFromRow(r),
    org: { id: String(r.org_id), slug: String(r.o_slug), plan: String(r.o_plan), createdAt: String(r.o_created_at) },
    plan: planFromRow({ ...r, name: r.p_name ?? null }),
  };
}
