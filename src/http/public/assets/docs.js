// Renders the API reference from /openapi.json with the renderer this host
// serves (/assets/scalar.js, which runs after this file and before
// DOMContentLoaded). Everything that would reach another host is off: the
// default fonts (a font CDN), telemetry, the AI agent, and the request client
// with its proxy. Keys are server-side secrets: the reference shows requests
// and never sends one.

// The renderer's validation library (zod) probes for eval once; the page's CSP
// forbids eval, so it is told up front to run without it.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

document.addEventListener('DOMContentLoaded', () => {
  /* global Scalar */
  Scalar.createApiReference('#reference', {
    url: '/openapi.json',
    // Example requests name the address this page was reached at: the service itself.
    servers: [{ url: window.location.origin, description: 'This service' }],
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    hideClientButton: true,
    hideTestRequestButton: true,
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    defaultOpenAllTags: true,
    expandAllResponses: true,
    hideModels: true,
    favicon: '/favicon.svg',
    metaData: { title: 'Codebook API reference' },
  });
});
