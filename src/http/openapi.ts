/** Options for @fastify/swagger: the parts of /openapi.json that routes do not carry. */
import type { SwaggerOptions } from '@fastify/swagger';

const description = `Codebook serves a code set and the history of its changes.

**Authentication.** Every \`/v1\` request carries an API key, preferably as \`Authorization: Bearer <key>\`, or as \`X-API-Key: <key>\`. Never put a key in a query string (400 \`api_key_in_query\`). Keys are server-side secrets: the API sends no CORS headers, so call it from a server, not from a web page.

**Paging.** Collections return \`{"data": [...], "pagination": {"has_more", "next_cursor"}}\`. To get the next page, send \`next_cursor\` as \`cursor\`. There is no offset or page number. Cursors are opaque and bound to their collection and filters.

**Errors.** Every error is \`{"error": {"code", "message", "param"?, "request_id"}}\`, and every response has a \`Request-Id\` header.`;

export const openApiOptions: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Codebook API', version: '1', description },
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
