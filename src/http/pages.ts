/** The two HTML pages outside /v1 and the dashboard: the landing page at / and the API reference's frame at /docs. */
import { html } from '../html.ts';

const ICONS = html`<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48">`;

/** origin: where the browser reached this service, for the example request. */
export function landingPage(origin: string): string {
  const links = [
    ['/docs', 'API reference', 'A short guide (keys, paging with cursors, errors, limits) and every endpoint, with example requests and responses.'],
    ['/openapi.json', 'OpenAPI document', 'The same reference as OpenAPI 3.1, to generate a client or import into your tools.'],
    ['/dashboard', 'Dashboard', "Sign in to create and revoke your organisation's API keys and to see its usage."],
    ['/healthz', 'Health', 'Answers {"status":"ok"} while the service is up.'],
  ] as const;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Codebook</title>
<meta name="description" content="Codebook: a code set and the history of its changes, over a keyed, cursor-paged HTTP API.">
${ICONS}
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
</head>
<body>
<header class="top">
  <a class="brand" href="/">Codebook</a>
  <nav aria-label="Site">
    <ul>${links.slice(0, 3).map(([href, label]) => html`<li><a href="${href}">${label}</a></li>`)}</ul>
  </nav>
</header>
<main id="main">
<h1>Codebook</h1>
<p class="lead">Codes and their history over an HTTP API: a code set (ISO currency codes, medical terminologies,
tariff codes, any <code>{system}:{code}</code> records) and every change made to it, served under <code>/v1</code>
with API keys, rate limits and cursor paging.</p>
<ul class="links">
  ${links.map(([href, label, text]) => html`<li class="card"><a href="${href}">${label}</a> <code>${href}</code><p>${text}</p></li>`)}
</ul>
<section class="card" aria-labelledby="try-h">
  <h2 id="try-h">Try it</h2>
  <p>With an API key from the dashboard (or from your operator), from your server or a terminal:</p>
  <pre><code>curl -H "Authorization: Bearer $KEY" "${origin}/v1/codes?limit=2"</code></pre>
</section>
</main>
</body>
</html>`.value;
}

/** The frame the renderer draws the reference into; the reference itself is /openapi.json. */
export function referencePage(): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Codebook API reference</title>
<meta name="description" content="Reference of the Codebook API: authentication, paging with cursors, errors, limits and every endpoint.">
${ICONS}
<link rel="stylesheet" href="/assets/docs.css">
<script src="/assets/docs.js" defer></script>
<script src="/assets/scalar.js" defer></script>
</head>
<body>
<div id="reference"></div>
<p class="loading">Loading the Codebook API reference… It needs JavaScript; the same reference is
<a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Back to <a href="/">Codebook</a>.</p>
</body>
</html>`.value;
}
