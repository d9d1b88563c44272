/** Usage by key on the overview: this month and the last 30 days, live and test keys apart. */
import type { KeyMode } from '../../domain/access.ts';
import type { KeyUsage, KeyUsageRow } from '../../services/access/key-usage.ts';
import { html, type SafeHtml } from '../../html.ts';

const fmt = (n: number) => n.toLocaleString('en');

function modeTable(mode: KeyMode, rows: KeyUsageRow[], usage: KeyUsage): SafeHtml {
  const sum = (pick: (r: KeyUsageRow) => number) => rows.reduce((a, r) => a + pick(r), 0);
  const title = mode === 'live' ? 'Live keys' : 'Test keys';
  if (rows.length === 0) return html`<h3>${title}</h3><p class="muted">No ${mode} keys.</p>`;
  return html`<h3>${title}</h3>
<div class="scroll"><table class="stack" id="usage-${mode}">
  <thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">State</th><th scope="col" class="n">${usage.month}</th><th scope="col" class="n">Counted</th><th scope="col" class="n">30 days</th><th scope="col" class="n">Counted</th></tr></thead>
  <tbody>${rows.map(
    (r) => html`<tr data-key="${r.key.displayPrefix}">
    <td data-label="Key"><code>${r.key.displayPrefix}…</code></td>
    <td data-label="Name">${r.key.name}</td>
    <td data-label="State">${r.state}</td>
    <td data-label="${usage.month}" class="n">${fmt(r.month.total)}</td>
    <td data-label="Counted" class="n">${fmt(r.month.counted)}</td>
    <td data-label="30 days" class="n">${fmt(r.last30Days.total)}</td>
    <td data-label="Counted" class="n">${fmt(r.last30Days.counted)}</td>
  </tr>`,
  )}
  <tr class="sum"><th scope="row" colspan="3">All ${mode} keys</th><td data-label="${usage.month}" class="n">${fmt(sum((r) => r.month.total))}</td><td data-label="Counted" class="n">${fmt(sum((r) => r.month.counted))}</td><td data-label="30 days" class="n">${fmt(sum((r) => r.last30Days.total))}</td><td data-label="Counted" class="n">${fmt(sum((r) => r.last30Days.counted))}</td></tr>
  </tbody>
</table></div>`;
}

export function keyUsageSection(usage: KeyUsage): SafeHtml {
  return html`<section class="card" aria-labelledby="by-key-h">
  <h2 id="by-key-h">Usage by key</h2>
  <p class="hint">Every request of each key in ${usage.month}, and in the last 30 days (${usage.since} to today, UTC); each followed by what counted toward the monthly allowance.</p>
  ${modeTable('live', usage.byMode.live, usage)}
  ${modeTable('test', usage.byMode.test, usage)}
</section>`;
}
