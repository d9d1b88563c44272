/** The organisation: plan, usage this month against the allowance, requests per day. */
import { UNCOUNTED_OUTCOMES } from '../../domain/access.ts';
import type { UsageReport } from '../../services/access/admin.ts';
import type { ActiveSession } from '../../services/dashboard/sessions.ts';
import { usageChart } from '../chart.ts';
import { html, type SafeHtml } from '../../html.ts';
import { page } from '../layout.ts';

const fmt = (n: number) => n.toLocaleString('en');

/** Why a request was not counted toward the allowance, as the tally says it. */
const NOT_COUNTED_REASON: Record<string, string> = {
  refused_auth: 'Refused: key revoked or endpoint not on the plan (401, 403)',
  refused_route: 'No such route or method (404, 405)',
  refused_limit: 'Refused by a limit (429)',
  server_error: 'Server errors, given back to the allowance (5xx)',
};

/** The month's requests: counted toward the allowance plus not counted, by reason, adding up to all of them. */
function tally(report: UsageReport) {
  const notCounted = report.total - report.counted;
  return html`<table class="tally" id="tally">
  <caption class="visually-hidden">How this month's requests count toward the allowance</caption>
  <tbody>
    <tr><th scope="row">Counted toward the allowance</th><td class="n">${fmt(report.counted)}</td></tr>
    <tr><th scope="row">Not counted</th><td class="n">${fmt(notCounted)}</td></tr>
    ${UNCOUNTED_OUTCOMES.map((o) => html`<tr class="sub"><th scope="row">${NOT_COUNTED_REASON[o]}</th><td class="n">${fmt(report.notCounted[o] ?? 0)}</td></tr>`)}
    <tr class="sum"><th scope="row">All requests with a known key</th><td class="n">${fmt(report.total)}</td></tr>
  </tbody>
</table>
<p class="hint">A request that passes the limits counts toward the allowance whatever its answer (a 400 for a bad parameter or a 404 for an unknown code too), except a server error, which is given back. Requests refused before the limits, or by one of them, do not count.</p>`;
}

export function overviewPage(session: ActiveSession, report: UsageReport, resetsAt: Date, extra: { banner?: SafeHtml; byKey?: SafeHtml } = {}): string {
  const { plan } = report;
  const quota = plan.monthlyQuota;
  const share = quota === null ? null : Math.min(100, (100 * report.counted) / quota);
  return page({
    title: session.org.slug,
    session,
    current: 'overview',
    banner: extra.banner,
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
  ${tally(report)}
  ${usageChart(report.month, report.byDay)}
</section>
${extra.byKey ?? ''}`,
  });
}
