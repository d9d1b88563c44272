/** A control character as an escape a terminal shows instead of obeying (a name stored before they were refused). */
const shown = (text: string): string => text.replace(/\p{Cc}/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);

/** Plain aligned columns for human output. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => shown(String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
