/**
 * Throttling of password guesses, on the sign-in form and the change-password
 * form alike: growing delays instead of a lock-out, so that knowing someone's
 * email is not enough to keep them out.
 *
 * Three counts of failures over the last 24 hours, each with its own backoff:
 * after n failures, the next attempt must wait min(2^(n−free), cap) seconds
 * after the latest of them.
 *
 * - account and address together (free 4, cap 15 min): one address guessing
 *   one account; the real user at another address never meets it;
 * - address (free 20, cap 15 min): one address trying many accounts (spraying);
 * - account (free 10, cap 5 min): one account guessed from many addresses. It
 *   does not apply to an address the account signed in from in the last 30
 *   days, so the real user at their usual address is never kept out by it;
 *   elsewhere a right password still passes once the current delay is over.
 *
 * An attempt refused by a delay is not checked and not counted. A right
 * password clears the account-and-address count only: failures from
 * elsewhere still stand. Attempts still being checked count as failures that
 * happened now, so guesses sent all at once get no more than the free ones.
 */
import type { Store } from '../../store/store.ts';

export interface ThrottleDeps {
  store: Store;
  now: () => number;
}

interface Rule {
  subject: string;
  free: number;
  capSeconds: number;
}

const MINUTE_S = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
export const FAILURE_MEMORY_MS = DAY_MS;
export const KNOWN_ADDRESS_MS = 30 * DAY_MS;
export const PAIR_FREE = 4;
export const PAIR_CAP_S = 15 * MINUTE_S;
export const ADDRESS_FREE = 20;
export const ADDRESS_CAP_S = 15 * MINUTE_S;
export const ACCOUNT_FREE = 10;
export const ACCOUNT_CAP_S = 5 * MINUTE_S;

/** Seconds to wait after the latest of `failures` failures. */
export function backoffSeconds(failures: number, free: number, capSeconds: number): number {
  return failures <= free ? 0 : Math.min(2 ** (failures - free), capSeconds);
}

export class PasswordAttemptsThrottled extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    const wait = retryAfterSeconds < 120 ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}` : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
    super(`Too many wrong passwords. Wait ${wait} and try again.`);
    this.name = 'PasswordAttemptsThrottled';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Password checks under way, per store and subject (see the module comment). */
const underWay = new WeakMap<object, Map<string, number>>();

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Runs `check` (does the password match?) unless the account or the address
 * must wait, in which case it throws PasswordAttemptsThrottled; records the
 * outcome. `email` is the normalised account name, known user or not.
 */
export async function throttledPasswordCheck(deps: ThrottleDeps, email: string, address: string, check: () => Promise<boolean>): Promise<boolean> {
  const dash = deps.store.dashboard;
  const pair: Rule = { subject: `pair:${email} ${address}`, free: PAIR_FREE, capSeconds: PAIR_CAP_S };
  const byAddress: Rule = { subject: `ip:${address}`, free: ADDRESS_FREE, capSeconds: ADDRESS_CAP_S };
  const account: Rule = { subject: `email:${email}`, free: ACCOUNT_FREE, capSeconds: ACCOUNT_CAP_S };
  const rules = [pair, byAddress, account];

  // Taken before the first await, so that simultaneous attempts see each other.
  const inFlight = underWay.get(dash) ?? new Map<string, number>();
  underWay.set(dash, inFlight);
  const earlier = new Map(rules.map((r) => [r.subject, inFlight.get(r.subject) ?? 0]));
  for (const r of rules) inFlight.set(r.subject, (inFlight.get(r.subject) ?? 0) + 1);
  try {
    const now = deps.now();
    const since = iso(now - FAILURE_MEMORY_MS);
    const known = await dash.knowsSignInAddress(email, address, iso(now - KNOWN_ADDRESS_MS));
    let waitMs = 0;
    for (const rule of known ? [pair, byAddress] : rules) {
      const { count, latest } = await dash.signInFailures(rule.subject, since);
      const pending = earlier.get(rule.subject)!;
      const delayMs = backoffSeconds(count + pending, rule.free, rule.capSeconds) * 1000;
      if (delayMs === 0) continue;
      const from = pending > 0 || latest === null ? now : Date.parse(latest);
      waitMs = Math.max(waitMs, from + delayMs - now);
    }
    if (waitMs > 0) throw new PasswordAttemptsThrottled(Math.ceil(waitMs / 1000));

    const ok = await check();
    const at = deps.now();
    if (ok) {
      await dash.clearSignInFailures(pair.subject);
      await dash.rememberSignInAddress(email, address, iso(at), iso(at - KNOWN_ADDRESS_MS));
    } else {
      for (const r of rules) await dash.recordSignInFailure(r.subject, iso(at), iso(at - FAILURE_MEMORY_MS));
    }
    return ok;
  } finally {
    for (const r of rules) {
      const left = inFlight.get(r.subject)! - 1;
      if (left === 0) inFlight.delete(r.subject);
      else inFlight.set(r.subject, left);
    }
  }
}
