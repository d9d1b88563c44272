/** The organisation: plan, usage this month against the allowance, requests per day. */
import type { UsageReport } from '../../services/access/admin.ts';
import type { ActiveSession } from '../../services/dashboard/sessions.ts';
import { usageChart } from '../chart.ts';
import { html } from '../html.ts';
import { page } from '../layout.ts';

const fmt = (n: number) => n.toLocaleString('en');

export function overviewPage(session: ActiveSession, report: UsageReport, resetsAt: Date): string {
  const { plan } = report;
  const quota = plan.monthlyQuota;
  const share = quota === null ? null : Math.min(100, (100 * report.counted) / quota);
  return page({
    title: session.org.slug,
    session,
    current: 'overview',
    body: html`
<section class="card" aria-labelledby="plan-h">
  <h2 id="plan-h">Plan: ${plan.name}</h2>
  <dl class="facts">
    <dt>Endpoints</dt><dd>${plan.endpoints.join(', ')}</dd>
    <dt>Rate</dt><dd>${fmt(plan.ratePerMinute)} requests per minute</dd>
    <dt>Monthly allowance</dt><dd>${quota === null ? 'unlimited' : `${fmt(quota)} requests`}</dd>
    <dt>Test keys</dt><dd>${plan.testKeysAllowed ? 'allowed' : 'not allowed'}</dd>
  </dl>
</section>
<section class="card" aria-labelledby="usage-h">
  <h2 id="usage-h">Usage in ${report.month}</h2>
  ${
    quota === null
      ? html`<p>${fmt(report.counted)} requests this month (no monthly limit).</p>`
      : html`<label for="allowance">${fmt(report.counted)} of ${fmt(quota)} requests used (${share!.toFixed(1)} %)</label>
        <progress id="allowance" max="${quota}" value="${Math.min(report.counted, quota)}">${share!.toFixed(1)} %</progress>`
  }
  <p class="hint">The allowance resets on <time datetime="${resetsAt.toISOString()}">${resetsAt.toISOString().slice(0, 10)} at 00:00 UTC</time>.</p>
  ${usageChart(report.month, report.byDay)}
</section>`,
  });
}
