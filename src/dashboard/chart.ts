/** Requests per day of a month, stacked by outcome, drawn server-side as SVG (no script, no inline style). */
import { OUTCOMES, type Outcome } from '../domain/access.ts';
import { html, type SafeHtml } from '../html.ts';

export const OUTCOME_LABELS: Record<Outcome, string> = {
  ok: 'OK',
  client_error: 'Client error',
  refused_auth: 'Refused by key or plan',
  refused_route: 'No such route or method',
  refused_limit: 'Refused by a limit',
  server_error: 'Server error',
};

const WIDTH = 720;
const HEIGHT = 240;
const LEFT = 64;
const BOTTOM = 32;
const TOP = 12;

/** A round axis maximum at or above max. */
function niceMax(max: number): number {
  if (max <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

export function usageChart(month: string, days: { day: string; byOutcome: Record<string, number> }[]): SafeHtml {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, monthIndex, 0)).getUTCDate();
  const totals = new Map(days.map((d) => [Number(d.day.slice(8, 10)), d.byOutcome]));
  const max = niceMax(Math.max(0, ...days.map((d) => OUTCOMES.reduce((sum, o) => sum + (d.byOutcome[o] ?? 0), 0))));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT) / daysInMonth;
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => TOP + plotHeight - (value / max) * plotHeight;

  const bars: SafeHtml[] = [];
  for (let day = 1; day <= daysInMonth; day++) {
    const counts = totals.get(day) ?? {};
    let base = 0;
    const x = LEFT + (day - 1) * slot + (slot - barWidth) / 2;
    const total = OUTCOMES.reduce((sum, o) => sum + (counts[o] ?? 0), 0);
    const label = `${month}-${String(day).padStart(2, '0')}: ${total} requests (${OUTCOMES.map((o) => `${OUTCOME_LABELS[o]} ${counts[o] ?? 0}`).join(', ')})`;
    const parts = OUTCOMES.filter((o) => (counts[o] ?? 0) > 0).map((o) => {
      const value = counts[o]!;
      const rect = html`<rect class="o-${o}" x="${x.toFixed(1)}" y="${y(base + value).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(y(base) - y(base + value)).toFixed(1)}"></rect>`;
      base += value;
      return rect;
    });
    bars.push(html`<g><title>${label}</title>${parts}</g>`);
  }
  const ticks = [0, max / 2, max].map(
    (v) => html`<line class="grid" x1="${LEFT}" x2="${WIDTH}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"></line>
      <text class="axis" x="${LEFT - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toLocaleString('en')}</text>`,
  );
  const dayLabels = [1, 8, 15, 22, daysInMonth].map(
    (d) => html`<text class="axis" x="${(LEFT + (d - 0.5) * slot).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle">${d}</text>`,
  );
  const total = days.reduce((sum, d) => sum + OUTCOMES.reduce((s, o) => s + (d.byOutcome[o] ?? 0), 0), 0);
  return html`<figure class="chart">
  <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title">
    <title id="chart-title">Requests per day in ${month}, by outcome: ${total} in all</title>
    ${ticks}${dayLabels}${bars}
  </svg>
  <figcaption>
    <ul class="legend">${OUTCOMES.map((o) => html`<li><span class="swatch o-${o}" aria-hidden="true"></span>${OUTCOME_LABELS[o]}</li>`)}</ul>
  </figcaption>
</figure>`;
}
