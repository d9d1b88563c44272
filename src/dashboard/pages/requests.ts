/** The request log page: the organisation's latest requests, newest first, filtered and paged with cursors. */
import type { ApiKeyInfo } from '../../domain/access.ts';
import type { RequestLogFilter, RequestLogPage } from '../../services/access/request-log.ts';
import type { ActiveSession } from '../../services/dashboard/sessions.ts';
import type { OrgSettings } from '../../domain/key-life-records.ts';
import { html, type SafeHtml } from '../../html.ts';
import { errorBox, page } from '../layout.ts';

function link(filter: RequestLogFilter, cursor?: string): string {
  const q = new URLSearchParams();
  if (filter.keyId) q.set('key', filter.keyId);
  if (filter.status) q.set('status', filter.status);
  if (filter.requestId) q.set('request_id', filter.requestId);
  if (cursor) q.set('cursor', cursor);
  const text = q.toString();
  return `/dashboard/requests${text ? `?${text}` : ''}`;
}

export interface RequestsView {
  keys: ApiKeyInfo[];
  filter: RequestLogFilter;
  result: RequestLogPage;
  settings: OrgSettings;
  banner?: SafeHtml;
  error?: string;
}

export function requestsPage(session: ActiveSession, v: RequestsView): string {
  const { filter, result } = v;
  const rows = result.entries.map(
    (e) => html`<tr>
      <td data-label="When (UTC)"><time datetime="${e.at}">${e.at.slice(0, 19).replace('T', ' ')}</time></td>
      <td data-label="Key"><code>${e.keyPrefix}…</code></td>
      <td data-label="Request"><code>${e.method} ${e.path}</code></td>
      <td data-label="Status"><span>${e.status}${e.errorCode ? html` <code>${e.errorCode}</code>` : ''}</span></td>
      <td data-label="Duration" class="n">${e.durationMs.toFixed(1)} ms</td>
      <td data-label="Request-Id"><code>${e.requestId}</code></td>
    </tr>`,
  );
  return page({
    title: 'Requests',
    session,
    current: 'requests',
    banner: v.banner,
    body: html`
${errorBox(v.error)}
<section class="card" aria-labelledby="filter-h">
  <h2 id="filter-h">Find requests</h2>
  <form method="get" action="/dashboard/requests" class="filters">
    <div><label for="request_id">Request-Id</label><input id="request_id" name="request_id" value="${filter.requestId ?? ''}" placeholder="req_…" autocomplete="off"></div>
    <div><label for="key">Key</label><select id="key" name="key">
      <option value="">All keys</option>
      ${v.keys.map((k) => html`<option value="${k.id}"${filter.keyId === k.id ? html` selected` : ''}>${k.displayPrefix}… ${k.name}</option>`)}
    </select></div>
    <div><label for="status">Status</label><select id="status" name="status">
      <option value="">Any</option>
      ${['2xx', '4xx', '5xx'].map((s) => html`<option value="${s}"${filter.status === s ? html` selected` : ''}>${s}</option>`)}
    </select></div>
    <button type="submit">Show</button>
  </form>
</section>
<section class="card" aria-labelledby="log-h">
  <h2 id="log-h">Latest requests</h2>
  ${
    rows.length === 0
      ? html`<p>No requests${filter.requestId || filter.keyId || filter.status ? ' match' : ' yet'}.</p>`
      : html`<div class="scroll"><table class="stack" id="requests">
    <thead><tr><th scope="col">When (UTC)</th><th scope="col">Key</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Request-Id</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>`
  }
  <p class="pager">${filter.cursor ? html`<a href="${link(filter)}">Newest</a>` : ''}${result.nextCursor ? html`<a href="${link(filter, result.nextCursor)}" rel="next">Older</a>` : ''}</p>
  <p class="hint">Requests are kept for ${v.settings.requestLogDays} days or the latest ${v.settings.requestLogMax.toLocaleString('en')}, whichever ends first (<a href="/dashboard/settings">settings</a>). A key-shaped value in a query is shown as [REDACTED]. They appear within a few seconds.</p>
</section>`,
  });
}
