/**
 * Every operation of the API and the client method that calls it: the one
 * table a new endpoint is added to (see CONTRIBUTING.md). The drift test
 * checks it against the service's OpenAPI document both ways, method and path
 * included, and that each method exists on the client.
 */
import type { OperationId } from './types.ts';

export interface OperationEntry {
  method: 'GET' | 'POST';
  /** The path as the OpenAPI document writes it, `{name}` for a path parameter. */
  path: string;
  /** The client method, as `resource.method` (`client.codes.list`). */
  clientMethod: string;
}

export const OPERATIONS = {
  listCodes: { method: 'GET', path: '/v1/codes', clientMethod: 'codes.list' },
  getCode: { method: 'GET', path: '/v1/codes/{code_id}', clientMethod: 'codes.get' },
  listCodeChanges: { method: 'GET', path: '/v1/codes/{code_id}/changes', clientMethod: 'codes.changes' },
  listChanges: { method: 'GET', path: '/v1/changes', clientMethod: 'changes.list' },
  searchCodes: { method: 'GET', path: '/v1/codes/search', clientMethod: 'codes.search' },
  listSystems: { method: 'GET', path: '/v1/systems', clientMethod: 'systems.list' },
  getSystem: { method: 'GET', path: '/v1/systems/{system}', clientMethod: 'systems.get' },
  listReleases: { method: 'GET', path: '/v1/systems/{system}/releases', clientMethod: 'systems.releases' },
  batchGetCodes: { method: 'POST', path: '/v1/codes/batch', clientMethod: 'codes.batch' },
  listChildren: { method: 'GET', path: '/v1/codes/{code_id}/children', clientMethod: 'codes.children' },
  listDescendants: { method: 'GET', path: '/v1/codes/{code_id}/descendants', clientMethod: 'codes.descendants' },
  listAncestors: { method: 'GET', path: '/v1/codes/{code_id}/ancestors', clientMethod: 'codes.ancestors' },
  listSystemRoots: { method: 'GET', path: '/v1/systems/{system}/roots', clientMethod: 'systems.roots' },
} as const satisfies Record<OperationId, OperationEntry>;

/**
 * The path of an operation with its parameters filled in, each percent-encoded (a `/` in a code becomes %2F).
 * `.` and `..` are refused: a URL parser resolves them as path segments, encoded (%2E) or not, so
 * `codes.changes('..')` would ask /v1/changes. No code id (`{system}:{code}`) or system is either.
 */
export function operationPath(operation: OperationId, params: Record<string, string> = {}): string {
  return OPERATIONS[operation].path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string.`);
    if (value === '.' || value === '..') throw new TypeError(`${name} must not be ${JSON.stringify(value)}: no code or system has that id.`);
    return encodeURIComponent(value);
  });
}
