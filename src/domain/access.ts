/** Organisations, plans and API keys, as the design fixes them. */

/** Plan-checkable names of the /v1 endpoints. */
export const ENDPOINTS = ['codes.list', 'codes.get', 'changes.list', 'codes.search', 'systems.list', 'codes.hierarchy', 'codes.batch'] as const;
export type EndpointName = (typeof ENDPOINTS)[number];

export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export interface Plan {
  name: string;
  endpoints: EndpointName[];
  ratePerMinute: number;
  /** null: unlimited. */
  monthlyQuota: number | null;
  testKeysAllowed: boolean;
}

export interface Organisation {
  id: string;
  slug: string;
  plan: string;
  createdAt: string;
}

export interface ApiKeyInfo {
  id: string;
  orgId: string;
  name: string;
  mode: KeyMode;
  displayPrefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** When the key stops working by itself (an expiry, or the end of a roll's grace period); null: never. */
  expiresAt: string | null;
}

/** What an authenticated request knows about its caller. */
export interface Principal {
  keyId: string;
  mode: KeyMode;
  org: Organisation;
  plan: Plan;
}

export const DEFAULT_PLANS: readonly Plan[] = [
  {
    name: 'free',
    endpoints: ['codes.list', 'codes.get', 'codes.search', 'systems.list', 'codes.hierarchy'],
    ratePerMinute: 60,
    monthlyQuota: 10_000,
    testKeysAllowed: true,
  },
  { name: 'pro', endpoints: [...ENDPOINTS], ratePerMinute: 600, monthlyQuota: 1_000_000, testKeysAllowed: true },
  { name: 'enterprise', endpoints: [...ENDPOINTS], ratePerMinute: 6_000, monthlyQuota: null, testKeysAllowed: true },
];

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const PLAN_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * Outcome classes counted per key and day for the dashboard. The first two
 * passed the limits and count toward the monthly allowance; the others do not
 * (a server error passed them too, but its request is given back to the month).
 */
export const OUTCOMES = ['ok', 'client_error', 'refused_auth', 'refused_route', 'refused_limit', 'server_error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcomes of requests counted toward the monthly allowance. */
export const COUNTED_OUTCOMES: readonly Outcome[] = ['ok', 'client_error'];
/** The outcomes of requests not counted toward it, each for its own reason. */
export const UNCOUNTED_OUTCOMES: readonly Outcome[] = ['refused_auth', 'refused_route', 'refused_limit', 'server_error'];

/**
 * The outcome of a finished request of a known key. `counted`: the limits
 * admitted it (it counts toward the minute; toward the month unless it is a
 * server error, which is given back).
 */
export function outcomeOf(status: number, counted: boolean): Outcome {
  if (status >= 500) return 'server_error';
  if (counted) return status >= 400 ? 'client_error' : 'ok';
  if (status === 401 || status === 403) return 'refused_auth';
  if (status === 429) return 'refused_limit';
  // No such route or method, or a path that could not be read: refused before the limits.
  return 'refused_route';
}
