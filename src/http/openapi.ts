/** Options for @fastify/swagger: the parts of /openapi.json that routes do not carry. */
import type { SwaggerOptions } from '@fastify/swagger';
import packageJson from '../../package.json' with { type: 'json' };

/** The API's version is the package's: both grow together (see the README's Development section). */
export const API_VERSION: string = packageJson.version;

const description = `Codebook serves a code set and the history of its changes.

**Authentication.** Every \`/v1\` request carries an API key, preferably as \`Authorization: Bearer <key>\`, or as \`X-API-Key: <key>\`. Never put a key in a query string (400 \`api_key_in_query\`). Keys are server-side secrets: the API sends no CORS headers, so call it from a server, not from a web page.

**Paging.** Collections return \`{"data": [...], "pagination": {"has_more", "next_cursor"}}\`. To get the next page, send \`next_cursor\` as \`cursor\`. There is no offset or page number. Cursors are opaque and bound to their collection and filters.

**Errors.** Every error is \`{"error": {"code", "message", "param"?, "request_id"}}\`, and every response has a \`Request-Id\` header.

**Client library.** From TypeScript or JavaScript, \`@codebook/client\` (in the repository's \`clients/typescript/\`) sends the key, follows the cursors, raises one error class per code and waits out a 429 or a 503. Beside curl:

\`\`\`
curl -H "Authorization: Bearer $KEY" "$BASE/v1/codes/iso4217:EUR"
await codebook.codes.get('iso4217:EUR')

curl -H "Authorization: Bearer $KEY" "$BASE/v1/codes?system=iso4217&limit=200"   # then &cursor=…, page after page
for await (const code of codebook.codes.list({ system: 'iso4217', limit: 200 })) { … }

curl -H "Authorization: Bearer $KEY" "$BASE/v1/changes?limit=200"   # then &cursor=…, and again later for new changes
for await (const change of codebook.changes.follow({ since: savedPosition })) { … }   // resumes exactly after the saved position
\`\`\`

where \`const codebook = new Codebook({ apiKey, baseUrl })\`.`;

export interface OpenApiSettings {
  /** PUBLIC_URL when it is set; otherwise the document names its own host (a relative "/"). */
  publicUrl: string | null;
}

export function openApiOptions({ publicUrl }: OpenApiSettings): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Codebook API',
        version: API_VERSION,
        description,
        license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
      },
      servers: [publicUrl === null ? { url: '/', description: 'The host that serves this document' } : { url: publicUrl, description: 'This service' }],
      tags: [
        { name: 'codes', description: 'Code records.' },
        { name: 'changes', description: 'The history of changes to codes.' },
      ],
      components: {
        securitySchemes: {
          bearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer svc_live_…' },
          headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearerKey: [] }, { headerKey: [] }],
    },
    // The document describes the API under /v1 only: pages served elsewhere (the
    // dashboard's HTML forms, /docs itself) are not part of it, schema or not.
    transform: ({ schema, url }) => ({ schema: url.startsWith('/v1/') ? schema : { ...schema, hide: true }, url }),
  };
}
