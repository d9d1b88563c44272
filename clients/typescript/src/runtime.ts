/**
 * What the client needs from its runtime beyond fetch, read without assuming
 * Node.js: the client runs on Node.js 18+, Deno, Bun and edge runtimes alike.
 */

interface MaybeGlobals {
  process?: { env?: Record<string, string | undefined> };
  window?: unknown;
  document?: unknown;
}

const globals = globalThis as MaybeGlobals;

/** An environment variable where the runtime has process.env (Node.js, Bun, Deno's Node compatibility). */
export function environmentVariable(name: string): string | undefined {
  try {
    return globals.process?.env?.[name];
  } catch {
    // Deno without --allow-env throws on access.
    return undefined;
  }
}

/** A web page, as opposed to a server runtime (Deno 1 has a window but no document). */
export function inBrowser(): boolean {
  return typeof globals.window !== 'undefined' && typeof globals.document !== 'undefined';
}

/** The longest delay setTimeout takes: a longer one overflows and fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits ms milliseconds, however many; resolves false at once when the signal aborts (and true otherwise). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout>;
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const wait = (left: number) => {
      const step = Math.min(left, MAX_TIMER_MS);
      timer = setTimeout(() => {
        if (left - step > 0) return wait(left - step);
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      }, step);
    };
    wait(ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface AttemptSignal {
  signal: AbortSignal;
  /** True when the attempt's time limit, not the caller, ended it. */
  timedOut(): boolean;
  /** Releases what ties the caller's signal to this attempt. */
  release(): void;
}

/**
 * The signal of one attempt: its time limit, and the caller's signal when
 * given. AbortSignal.any where the runtime has it (Node.js 20.3+); otherwise
 * a controller listening to both, released after the attempt so that a
 * long-lived caller's signal (a follower's) does not collect listeners.
 */
export function attemptSignal(timeoutMs: number, caller: AbortSignal | undefined): AttemptSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  const timedOut = () => timeout.aborted && !caller?.aborted;
  if (caller === undefined) return { signal: timeout, timedOut, release: () => undefined };
  if (typeof AbortSignal.any === 'function') return { signal: AbortSignal.any([caller, timeout]), timedOut, release: () => undefined };
  const controller = new AbortController();
  const fromCaller = () => controller.abort(caller.reason);
  const fromTimeout = () => controller.abort(timeout.reason);
  if (caller.aborted) fromCaller();
  caller.addEventListener('abort', fromCaller, { once: true });
  timeout.addEventListener('abort', fromTimeout, { once: true });
  return {
    signal: controller.signal,
    timedOut,
    release() {
      caller.removeEventListener('abort', fromCaller);
      timeout.removeEventListener('abort', fromTimeout);
    },
  };
}

/** The reason a caller's signal was aborted with, as an Error to throw. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
