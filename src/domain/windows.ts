/** The two limit windows: the current UTC calendar minute and UTC calendar month. */

export interface Windows {
  minute: string;
  month: string;
  /** Requests of the month given back (server errors): the month's count is month − givenBack. */
  givenBack: string;
  /** Seconds until the minute window ends (1–60). */
  minuteResetSeconds: number;
  /** Seconds until the month window ends. */
  monthResetSeconds: number;
  /** First instant of the next month, for messages. */
  monthResetsAt: Date;
}

let cachedSecond = Number.NaN;
let cached: Windows | null = null;

/**
 * The windows at an instant. Every field is the same for all instants of one
 * second (resets are whole seconds, rounded up), so one result per second is
 * computed and shared; callers must not change it.
 */
export function windowsAt(nowMs: number): Windows {
  const second = Math.floor(nowMs / 1000);
  if (second !== cachedSecond || cached === null) {
    cached = computeWindows(second * 1000);
    cachedSecond = second;
  }
  return cached;
}

function computeWindows(nowMs: number): Windows {
  const d = new Date(nowMs);
  const iso = d.toISOString();
  const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const nextMinute = Math.floor(nowMs / 60_000) * 60_000 + 60_000;
  return {
    minute: `minute:${iso.slice(0, 16)}`,
    month: `month:${iso.slice(0, 7)}`,
    givenBack: givenBackWindow(`month:${iso.slice(0, 7)}`),
    minuteResetSeconds: Math.max(1, Math.ceil((nextMinute - nowMs) / 1000)),
    monthResetSeconds: Math.max(1, Math.ceil((nextMonth - nowMs) / 1000)),
    monthResetsAt: new Date(nextMonth),
  };
}

/**
 * The window of requests given back to a month ('month:YYYY-MM' → 'given-back:YYYY-MM').
 * Both only ever grow, so copies of them from several instances converge on the largest.
 */
export function givenBackWindow(month: string): string {
  return `given-back:${month.slice('month:'.length)}`;
}
