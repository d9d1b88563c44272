/**
 * @codebook/client: the Codebook API from TypeScript and JavaScript.
 *
 *   import { Codebook } from '@codebook/client';
 *   const codebook = new Codebook(); // CODEBOOK_API_KEY, CODEBOOK_BASE_URL
 *   for await (const code of codebook.codes.list({ system: 'iso4217' })) console.log(code.id);
 */
export { Codebook, type CodebookOptions, type RawRequest } from './client.ts';
export {
  ApiKeyInQueryError,
  CodeNotFoundError,
  CodebookConnectionError,
  CodebookError,
  CodebookTimeoutError,
  ERROR_CLASSES,
  EndpointNotAvailableOnPlanError,
  InternalError,
  InvalidApiKeyError,
  InvalidBodyError,
  InvalidCursorError,
  InvalidParameterError,
  MethodNotAllowedError,
  MonthlyQuotaExceededError,
  PayloadTooLargeError,
  RateLimitExceededError,
  RouteNotFoundError,
  ServiceUnavailableError,
  SystemNotFoundError,
  UnknownParameterError,
  UnsupportedMediaTypeError,
  type CodebookErrorInit,
  type ErrorCode,
} from './errors.ts';
export { ChangeFeed, type FollowOptions } from './follow.ts';
export { OPERATIONS } from './operations.ts';
export { PageRequest } from './page.ts';
export type { RateLimitState, RateLimitWindow } from './rate-limit.ts';
export type { Changes, Codes, Systems } from './resources.ts';
export type { FetchLike } from './transport.ts';
export type {
  BatchParams,
  BatchResult,
  Change,
  ChangeType,
  Code,
  CodeStatus,
  ErrorBody,
  GetCodeParams,
  HierarchyParams,
  ListChangesParams,
  ListCodeChangesParams,
  SearchCodesParams,
  ListSystemsParams,
  GetSystemParams,
  ListReleasesParams,
  System,
  Release,
  ListCodesParams,
  Page,
  RequestOptions,
} from './types.ts';
export type { components, operations, paths } from './schema.ts';
