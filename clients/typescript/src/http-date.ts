/**
 * HTTP dates (RFC 9110, section 5.6.7): the IMF-fixdate every sender should
 * use, `Sun, 06 Nov 1994 08:49:37 GMT`, and the two obsolete forms a recipient
 * must still read, `Sunday, 06-Nov-94 08:49:37 GMT` and
 * `Sun Nov  6 08:49:37 1994`. Parsed here rather than by Date.parse, whose
 * reading of the last one (as local time) differs between runtimes.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTH}) ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/** Milliseconds since the epoch, or undefined when the text is not an HTTP date. */
export function parseHttpDate(text: string, now: number = Date.now()): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(Number(match[3]), match[2]!, match[1]!, match.slice(4, 7));
  if ((match = RFC_850.exec(text))) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(match[3]);
    if (year > thisYear + 50) year -= 100;
    return utc(year, match[2]!, match[1]!, match.slice(4, 7));
  }
  if ((match = ASCTIME.exec(text))) return utc(Number(match[6]), match[1]!, match[2]!, match.slice(3, 6));
  return undefined;
}

/** The instant, or undefined for a day or time that does not exist (31 Feb, 25:00). A second of 60 is a leap second. */
function utc(year: number, monthName: string, day: string, time: string[]): number | undefined {
  const month = MONTHS.indexOf(monthName);
  const [hours, minutes, seconds] = time.map(Number) as [number, number, number];
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month, Number(day));
  if (date.getUTCMonth() !== month || Number(day) < 1) return undefined;
  date.setUTCHours(hours, minutes, seconds);
  return date.getTime();
}
