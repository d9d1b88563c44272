/** Options for @fastify/swagger: the parts of /openapi.json that routes do not carry. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SwaggerOptions } from '@fastify/swagger';
import packageJson from '../../package.json' with { type: 'json' };
import { withOwnErrorExamples } from './examples.ts';

/** The API's version is the package's: both grow together (see the README's Development section). */
export const API_VERSION: string = packageJson.version;

// The guide before the operations: authentication, paging, errors, limits, with curl examples.
const description = readFileSync(join(import.meta.dirname, 'api-guide.md'), 'utf8');

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
        {
          name: 'codes',
          description:
            'A code record is one code of one system as it stands now: its `id` is `{system}:{code}` (e.g. `iso4217:EUR`), with a display name, a definition, a status (`active`, `deprecated`, `retired`), its parents and every other column of the source in `attributes`. Codes are never deleted: a code that leaves its code set is retired.',
        },
        {
          name: 'hierarchy',
          description:
            'Where a code sits: a code names its parents (`parents`); its children, every code below it and every code above it, and the roots of a system (codes without parents) are collections of their own. Parents form a graph, not a tree: a code may have several.',
        },
        {
          name: 'changes',
          description:
            'A change records what one import did to one code: `added`, `revised` (with the fields that changed, their values before and after), `retired` or `reactivated`, on an effective date. Changes are never edited; ids grow in the order they were recorded. Follow the feed to keep a copy of the code set up to date.',
        },
        {
          name: 'systems',
          description:
            "A system is one code set (`iso4217`, `icd10cm`): its name and publisher, its codes counted by status, and its releases. A release is one import of the system under a name, with its effective date and the range of change ids it wrote, so a code record's `release` and a change's `release` can be traced to it.",
        },
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
    // Each operation's 400 and 404 examples are the codes and messages its own route answers.
    transform: ({ schema, url, route }) => ({
      schema: url.startsWith('/v1/') ? withOwnErrorExamples(schema, [route.method].flat()[0]!, url) : { ...schema, hide: true },
      url,
    }),
  };
}
