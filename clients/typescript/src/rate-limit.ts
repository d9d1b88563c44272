/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11) every
 * authenticated answer carries:
 *   RateLimit-Policy: "minute";q=600;w=60, "month";q=1000000
 *   RateLimit: "minute";r=597;t=42, "month";r=998765;t=864000
 * The month part is absent on a plan without a monthly allowance.
 */

export interface RateLimitWindow {
  /** Requests the window allows (the policy's q), when the answer said. */
  limit: number | undefined;
  /** Requests left in the window (r). */
  remaining: number;
  /** Seconds until the window resets (t), as of `observedAt`. */
  resetSeconds: number;
  /** Length of the window in seconds (w), when the policy says. */
  windowSeconds: number | undefined;
}

export interface RateLimitState {
  /** The per-minute rate. */
  minute?: RateLimitWindow;
  /** The monthly allowance; absent on plans without one. */
  month?: RateLimitWindow;
  /** Every window the answer named, by name (minute and month among them). */
  windows: Record<string, RateLimitWindow>;
  /** When the answer carrying these fields arrived (ms since the epoch). */
  observedAt: number;
}

type Items = Map<string, Map<string, number>>;

/** A structured-field list of `"name";key=int;…` items; what it cannot read, it leaves out. */
function parseItems(field: string): Items {
  const items: Items = new Map();
  for (const member of field.split(',')) {
    const [rawName, ...params] = member.split(';').map((part) => part.trim());
    const name = /^"([^"]*)"$/.exec(rawName ?? '')?.[1];
    if (name === undefined) continue;
    const values = new Map<string, number>();
    for (const param of params) {
      const match = /^([a-z][a-z0-9_.*-]*)=(-?\d{1,15})$/.exec(param);
      if (match) values.set(match[1]!, Number(match[2]));
    }
    items.set(name, values);
  }
  return items;
}

/** The state the two fields describe, or null when the answer carried no RateLimit field. */
export function parseRateLimit(rateLimit: string | null, policy: string | null, observedAt: number): RateLimitState | null {
  if (rateLimit === null) return null;
  const policies: Items = policy === null ? new Map<string, Map<string, number>>() : parseItems(policy);
  const windows: Record<string, RateLimitWindow> = {};
  for (const [name, values] of parseItems(rateLimit)) {
    const remaining = values.get('r');
    const reset = values.get('t');
    if (remaining === undefined || reset === undefined) continue;
    const declared = policies.get(name);
    windows[name] = { limit: declared?.get('q'), remaining, resetSeconds: reset, windowSeconds: declared?.get('w') };
  }
  const state: RateLimitState = { windows, observedAt };
  if (windows.minute) state.minute = windows.minute;
  if (windows.month) state.month = windows.month;
  return state;
}
