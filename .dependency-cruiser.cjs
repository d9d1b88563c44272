/**
 * The layer rule of src/ (README, "Layout"), checked by `npm run check`.
 *
 *   root      src/main.js, src/server.ts, src/deps.ts, src/cli/main.ts, src/http/app.ts
 *             (the web app: the http and dashboard layers together): wire everything
 *   entry     src/http, src/dashboard, src/cli: use services; never one another
 *   services  src/services: use the store's and the limiter's interfaces
 *   adapters  src/limiter over src/store: implementations behind those interfaces
 *   tools     src/tools: the data generator (the CLI and the bench use it)
 *   base      src/domain, src/errors.ts, src/config.ts, src/html.ts: used by every layer
 *
 * Arrows point down only; no cycles.
 */
const ROOT = '^src/main[.]js$|^src/(server|deps)[.]ts$|^src/cli/main[.]ts$|^src/http/app[.]ts$';
const ENTRY = '^src/(http|dashboard|cli)/';
const BASE = '^src/(domain/|errors[.]ts$|config[.]ts$|html[.]ts$)';
const STORE_INTERFACES = '^src/store/[^/]+[.]ts$';
const LIMITER_INTERFACES = '^src/limiter/limiter[.]ts$';

module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'Files that import each other in a loop.', from: { path: '^src/' }, to: { circular: true } },
    {
      name: 'nothing-imports-the-root',
      severity: 'error',
      comment: 'Only the root wires the layers; nothing below may reach back up to it (entry layers are handed its Deps, and may name that type).',
      from: { path: '^src/', pathNot: ROOT },
      to: { path: ROOT, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'services-get-no-deps',
      severity: 'error',
      comment: 'Services take what they use, not the whole wiring.',
      from: { path: '^src/(services|store|limiter|tools|domain)/|^src/(errors|config)[.]ts$' },
      to: { path: ROOT },
    },
    {
      name: 'entry-layers-apart',
      severity: 'error',
      comment: 'No entry layer imports another: what two of them share lives in a service (or the base).',
      from: { path: '^src/http/', pathNot: ROOT },
      to: { path: '^src/(dashboard|cli)/' },
    },
    { name: 'entry-layers-apart-dashboard', severity: 'error', from: { path: '^src/dashboard/', pathNot: ROOT }, to: { path: '^src/(http|cli)/' } },
    { name: 'entry-layers-apart-cli', severity: 'error', from: { path: '^src/cli/', pathNot: ROOT }, to: { path: '^src/(http|dashboard)/' } },
    {
      name: 'entry-uses-services',
      severity: 'error',
      comment: 'An entry layer reaches the store and the limiter only through services (and what the root hands it).',
      from: { path: ENTRY, pathNot: ROOT },
      to: { path: '^src/(store|limiter)/' },
    },
    {
      name: 'services-use-interfaces',
      severity: 'error',
      comment: 'Services see the store and the limiter through their interfaces, never a backend.',
      from: { path: '^src/services/' },
      to: { path: '^src/(store|limiter)/', pathNot: `${STORE_INTERFACES}|${LIMITER_INTERFACES}` },
    },
    { name: 'services-point-down', severity: 'error', from: { path: '^src/services/' }, to: { path: `${ENTRY}|^src/tools/` } },
    {
      name: 'adapters-point-down',
      severity: 'error',
      comment: 'The limiter may use the store (its usage interface); the store uses neither the limiter nor anything above.',
      from: { path: '^src/(store|limiter)/' },
      to: { path: `${ENTRY}|^src/(services|tools)/` },
    },
    { name: 'store-below-limiter', severity: 'error', from: { path: '^src/store/' }, to: { path: '^src/limiter/' } },
    { name: 'limiter-uses-store-interfaces', severity: 'error', from: { path: '^src/limiter/' }, to: { path: '^src/store/', pathNot: STORE_INTERFACES } },
    { name: 'tools-point-down', severity: 'error', from: { path: '^src/tools/' }, to: { path: `${ENTRY}|^src/(services|store|limiter)/` } },
    { name: 'base-is-the-ground', severity: 'error', from: { path: BASE }, to: { path: '^src/', pathNot: BASE } },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
