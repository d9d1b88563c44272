/**
 * The Codebook API's types, generated from the service's /openapi.json by
 * openapi-typescript (npm run generate). Do not edit: regenerate. A test
 * fails when this file differs from what the running service documents.
 */

export interface paths {
    "/v1/codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List codes
         * @description Pages through every code, ordered by id (binary string order); with `as_of`, the codes as they stood on that date.
         */
        get: operations["listCodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one code
         * @description One code record by its id, `{system}:{code}`. Percent-encode the id as a path segment: a `/` in the code is sent as `%2F`. A retired code is still served, with `status: retired`. With `as_of`, the record as it stood on that date.
         */
        get: operations["getCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search codes
         * @description Codes matching `q`, case- and accent-insensitive (`sao tome` finds São Tomé), as you type (`diab mell` finds Diabetes mellitus). Results come in four groups: the code equals q; the code starts with q (by code); the display starts with q (by display); every other match (in the order the codes were first imported). Each group is read in that fixed order, so paging has no depth limit and a deep page costs what the first one costs. Codes that an import adds during a walk never disturb it, but a code whose display an import revises during a walk may change group, and so appear twice or not at all (see Paging with cursors).
         */
        get: operations["searchCodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/systems": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List systems
         * @description Pages through the code systems, ordered by id, with their counts of codes by status and their latest release.
         */
        get: operations["listSystems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/systems/{system}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one system
         * @description One code system: its name and publisher, its codes counted by status, its latest release.
         */
        get: operations["getSystem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/systems/{system}/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a system's releases
         * @description The releases of one system in the order they were imported, each with its effective date, mode, counts of changes and the range of change ids it wrote.
         */
        get: operations["listReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List changes
         * @description Pages through the history of changes of every code. Ordered by (effective_date, id): changes sharing an effective date are ordered by id.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code_id}/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the changes of one code
         * @description Ordered by (effective_date, id): changes sharing an effective date are ordered by id.
         */
        get: operations["listCodeChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code_id}/children": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the children of a code
         * @description Codes that name this one among their `parents`, ordered by id. Parents form a graph, not a tree: a code with two parents is a child of each.
         */
        get: operations["listChildren"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code_id}/descendants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List every code below a code
         * @description Every code below this one at any depth, each once even where several paths lead to it, ordered by id. Parents form a graph, not a tree: a code with two parents is a child of each.
         */
        get: operations["listDescendants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code_id}/ancestors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List every code above a code
         * @description Every code above this one, nearest first: by the length of the shortest path to it, then by id. Parents form a graph, not a tree: a code with two parents is a child of each. Codes that an import adds during a walk never disturb it, but an import that changes parents along the way during a walk may change an ancestor's distance, and so make it appear twice or not at all (see Paging with cursors).
         */
        get: operations["listAncestors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/systems/{system}/roots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the roots of a system
         * @description The codes of the system that have no parents, ordered by id. In a system without a hierarchy, every code is a root.
         */
        get: operations["listSystemRoots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get many codes in one request
         * @description Up to 200 code records by id, optionally as they stood on `as_of`. The records found come in the order of `ids`, each once; the ids not found are listed in `not_found`. One batch counts as one request toward the rate and the monthly allowance.
         */
        post: operations["batchGetCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listCodes: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only codes of this system. */
                system?: string;
                /** @description Only codes with this status. */
                status?: "active" | "deprecated" | "retired";
                /**
                 * @description The codes as they stood once every change effective on or before this date was applied: codes added later are left out, and every field is that of the date. Without it: the codes as the latest import left them, changes effective after today included (an import may be dated ahead); send the current date for what holds today.
                 * @example 2024-06-25
                 */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of codes. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "code",
                     *           "id": "iso4217:AED",
                     *           "system": "iso4217",
                     *           "code": "AED",
                     *           "display": "UAE Dirham",
                     *           "definition": "Currency of the United Arab Emirates.",
                     *           "status": "active",
                     *           "parents": [],
                     *           "attributes": {
                     *             "entities": "United Arab Emirates",
                     *             "minor_unit": "2",
                     *             "numeric_code": "784"
                     *           },
                     *           "release": "2022-07",
                     *           "effective_from": "2022-07-01",
                     *           "updated_at": "2026-01-02T09:14:30.923Z"
                     *         },
                     *         {
                     *           "object": "code",
                     *           "id": "iso4217:AFN",
                     *           "system": "iso4217",
                     *           "code": "AFN",
                     *           "display": "Afghani",
                     *           "definition": "Currency of Afghanistan.",
                     *           "status": "active",
                     *           "parents": [],
                     *           "attributes": {
                     *             "entities": "Afghanistan",
                     *             "minor_unit": "2",
                     *             "numeric_code": "971"
                     *           },
                     *           "release": "2022-07",
                     *           "effective_from": "2022-07-01",
                     *           "updated_at": "2026-01-02T09:14:30.923Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": true,
                     *         "next_cursor": "WzEsImNvZGVzIiwiIiwiaXNvNDIxNzpBRk4iXQ.5JBNg1xHhn0fdBlHtsQaiA"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "code";
                            /**
                             * @description `{system}:{code}`; immutable.
                             * @example iso4217:EUR
                             */
                            id: string;
                            system: string;
                            /** @description As published, case kept. */
                            code: string;
                            display: string;
                            definition: string | null;
                            /**
                             * @description Lifecycle status of the code.
                             * @enum {string}
                             */
                            status: "active" | "deprecated" | "retired";
                            /** @description code_ids of the parent codes. */
                            parents: string[];
                            /** @description Every other column of the source. */
                            attributes: {
                                [key: string]: string | number | boolean | null;
                            };
                            /** @description The release that last changed this record. */
                            release: string;
                            /**
                             * Format: date
                             * @description Effective date of the change that added it.
                             */
                            effective_from: string;
                            /**
                             * Format: date-time
                             * @description When the service last wrote it.
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getCode: {
        parameters: {
            query?: {
                /** @description A date, YYYY-MM-DD, e.g. 2024-06-25: the records as they stood once every change effective on or before it was applied. A code added later is `404 code_not_found` (and absent from lists). Without it: the records as the latest import left them, changes effective after today included (an import may be dated ahead); send the current date for what holds today. */
                as_of?: string;
            };
            header?: never;
            path: {
                /**
                 * @description `{system}:{code}`, percent-encoded (a `/` in the code is sent as `%2F`).
                 * @example iso4217:EUR
                 */
                code_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The code record. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "code",
                     *       "id": "iso4217:EUR",
                     *       "system": "iso4217",
                     *       "code": "EUR",
                     *       "display": "Euro",
                     *       "definition": "Single currency of the euro area, also used by several other states and territories.",
                     *       "status": "active",
                     *       "parents": [],
                     *       "attributes": {
                     *         "entities": "Åland Islands; Andorra; Austria; Belgium; Bulgaria; Croatia; …",
                     *         "minor_unit": "2",
                     *         "numeric_code": "978"
                     *       },
                     *       "release": "2026-01",
                     *       "effective_from": "2022-07-01",
                     *       "updated_at": "2026-01-02T09:14:31.205Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "code";
                        /**
                         * @description `{system}:{code}`; immutable.
                         * @example iso4217:EUR
                         */
                        id: string;
                        system: string;
                        /** @description As published, case kept. */
                        code: string;
                        display: string;
                        definition: string | null;
                        /**
                         * @description Lifecycle status of the code.
                         * @enum {string}
                         */
                        status: "active" | "deprecated" | "retired";
                        /** @description code_ids of the parent codes. */
                        parents: string[];
                        /** @description Every other column of the source. */
                        attributes: {
                            [key: string]: string | number | boolean | null;
                        };
                        /** @description The release that last changed this record. */
                        release: string;
                        /**
                         * Format: date
                         * @description Effective date of the change that added it.
                         */
                        effective_from: string;
                        /**
                         * Format: date-time
                         * @description When the service last wrote it.
                         */
                        updated_at: string;
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `code_not_found`: no code with this id (or none on the `as_of` date). */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    searchCodes: {
        parameters: {
            query: {
                /**
                 * @description The text to search for, 200 characters at most once trimmed. Case and accents are ignored. A code matches when every word of q starts a word of its code, display or definition, or when q (punctuation kept) starts its code.
                 * @example sao tome
                 */
                q: string;
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only codes of this system. */
                system?: string;
                /** @description Only codes with this status. */
                status?: "active" | "deprecated" | "retired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of matching codes. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "code",
                     *           "id": "iso4217:STN",
                     *           "system": "iso4217",
                     *           "code": "STN",
                     *           "display": "Dobra",
                     *           "definition": "Currency of São Tomé and Príncipe.",
                     *           "status": "active",
                     *           "parents": [],
                     *           "attributes": {
                     *             "entities": "Sao Tome and Principe",
                     *             "minor_unit": "2",
                     *             "numeric_code": "930"
                     *           },
                     *           "release": "2026-01",
                     *           "effective_from": "2018-01-01",
                     *           "updated_at": "2026-01-02T09:14:30.923Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "code";
                            /**
                             * @description `{system}:{code}`; immutable.
                             * @example iso4217:EUR
                             */
                            id: string;
                            system: string;
                            /** @description As published, case kept. */
                            code: string;
                            display: string;
                            definition: string | null;
                            /**
                             * @description Lifecycle status of the code.
                             * @enum {string}
                             */
                            status: "active" | "deprecated" | "retired";
                            /** @description code_ids of the parent codes. */
                            parents: string[];
                            /** @description Every other column of the source. */
                            attributes: {
                                [key: string]: string | number | boolean | null;
                            };
                            /** @description The release that last changed this record. */
                            release: string;
                            /**
                             * Format: date
                             * @description Effective date of the change that added it.
                             */
                            effective_from: string;
                            /**
                             * Format: date-time
                             * @description When the service last wrote it.
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listSystems: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of systems. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "system",
                     *           "id": "iso4217",
                     *           "name": "ISO 4217 currency codes",
                     *           "description": "Codes for the representation of currencies and funds.",
                     *           "url": "https://www.iso.org/iso-4217-currency-codes.html",
                     *           "publisher": "ISO",
                     *           "license": null,
                     *           "counts": {
                     *             "active": 177,
                     *             "deprecated": 1,
                     *             "retired": 6
                     *           },
                     *           "latest_release": "2026-01",
                     *           "latest_effective_date": "2026-01-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "system";
                            /**
                             * @description The system, as in code ids (`{system}:{code}`).
                             * @example iso4217
                             */
                            id: string;
                            /** @description Its name; the id until the operator sets one, and again once the operator clears it. */
                            name: string;
                            /** @description What it codes; null until set. */
                            description: string | null;
                            /** @description The publisher's page for it; null until set. */
                            url: string | null;
                            /** @description Who publishes it; null until set. */
                            publisher: string | null;
                            /** @description Terms of use; null until set. */
                            license: string | null;
                            counts: {
                                /** @description Active codes. */
                                active: number;
                                /** @description Deprecated codes. */
                                deprecated: number;
                                /** @description Retired codes. */
                                retired: number;
                            };
                            /** @description The release imported last. */
                            latest_release: string | null;
                            /** @description The latest effective date of its releases, a release that changed nothing included. No import records changes dated before it unless its operator forces one, so asking for its changes from this date on (`effective_from`) misses none recorded later. */
                            latest_effective_date: string | null;
                            /**
                             * Format: date-time
                             * @description When an import or the operator last changed it.
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getSystem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The system id, e.g. `iso4217`. A name no system can have (upper case, over 64 characters) is no such system: `404 system_not_found`.
                 * @example iso4217
                 */
                system: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The system. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "system",
                     *       "id": "iso4217",
                     *       "name": "ISO 4217 currency codes",
                     *       "description": "Codes for the representation of currencies and funds.",
                     *       "url": "https://www.iso.org/iso-4217-currency-codes.html",
                     *       "publisher": "ISO",
                     *       "license": null,
                     *       "counts": {
                     *         "active": 177,
                     *         "deprecated": 1,
                     *         "retired": 6
                     *       },
                     *       "latest_release": "2026-01",
                     *       "latest_effective_date": "2026-01-01",
                     *       "updated_at": "2026-01-02T09:14:31.205Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "system";
                        /**
                         * @description The system, as in code ids (`{system}:{code}`).
                         * @example iso4217
                         */
                        id: string;
                        /** @description Its name; the id until the operator sets one, and again once the operator clears it. */
                        name: string;
                        /** @description What it codes; null until set. */
                        description: string | null;
                        /** @description The publisher's page for it; null until set. */
                        url: string | null;
                        /** @description Who publishes it; null until set. */
                        publisher: string | null;
                        /** @description Terms of use; null until set. */
                        license: string | null;
                        counts: {
                            /** @description Active codes. */
                            active: number;
                            /** @description Deprecated codes. */
                            deprecated: number;
                            /** @description Retired codes. */
                            retired: number;
                        };
                        /** @description The release imported last. */
                        latest_release: string | null;
                        /** @description The latest effective date of its releases, a release that changed nothing included. No import records changes dated before it unless its operator forces one, so asking for its changes from this date on (`effective_from`) misses none recorded later. */
                        latest_effective_date: string | null;
                        /**
                         * Format: date-time
                         * @description When an import or the operator last changed it.
                         */
                        updated_at: string;
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `system_not_found`: no such system. */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listReleases: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The system id, e.g. `iso4217`. A name no system can have (upper case, over 64 characters) is no such system: `404 system_not_found`.
                 * @example iso4217
                 */
                system: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of releases. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "release",
                     *           "system": "iso4217",
                     *           "id": "2026-01",
                     *           "effective_date": "2026-01-01",
                     *           "mode": "snapshot",
                     *           "imported_at": "2026-01-02T09:14:31.205Z",
                     *           "counts": {
                     *             "added": 0,
                     *             "revised": 0,
                     *             "retired": 2,
                     *             "reactivated": 0
                     *           },
                     *           "first_change_id": 193,
                     *           "last_change_id": 194
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "release";
                            system: string;
                            /**
                             * @description The release name, unique within its system.
                             * @example 2026-01
                             */
                            id: string;
                            /** Format: date */
                            effective_date: string;
                            /**
                             * @description snapshot: the file was the whole system (missing codes retired); delta: only its rows changed. Releases recorded before releases existed say delta.
                             * @enum {string}
                             */
                            mode: "snapshot" | "delta";
                            /** Format: date-time */
                            imported_at: string;
                            counts: {
                                /** @description Codes added. */
                                added: number;
                                /** @description Codes revised. */
                                revised: number;
                                /** @description Codes retired. */
                                retired: number;
                                /** @description Codes reactivated. */
                                reactivated: number;
                            };
                            /** @description Id of its first change; null when it changed nothing. */
                            first_change_id: number | null;
                            /** @description Id of its last change; null when it changed nothing. */
                            last_change_id: number | null;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `system_not_found`: no such system. */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChanges: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only changes of this type. */
                type?: "added" | "revised" | "retired" | "reactivated";
                /**
                 * @description Only changes effective on or after this date (inclusive).
                 * @example 2024-06-25
                 */
                effective_from?: string;
                /**
                 * @description Only changes effective on or before this date (inclusive).
                 * @example 2024-06-25
                 */
                effective_to?: string;
                /** @description Only codes of this system. */
                system?: string;
                /** @description Only changes of this code. */
                code_id?: string;
                /** @description Only changes of this release (the import that produced them), e.g. `2026-01`. */
                release?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of changes. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "change",
                     *           "id": 193,
                     *           "code_id": "iso4217:ANG",
                     *           "type": "retired",
                     *           "effective_date": "2026-01-01",
                     *           "release": "2026-01",
                     *           "fields": [
                     *             "status"
                     *           ],
                     *           "before": {
                     *             "status": "deprecated"
                     *           },
                     *           "after": {
                     *             "status": "retired"
                     *           },
                     *           "recorded_at": "2026-01-02T09:14:31.205Z"
                     *         },
                     *         {
                     *           "object": "change",
                     *           "id": 194,
                     *           "code_id": "iso4217:BGN",
                     *           "type": "retired",
                     *           "effective_date": "2026-01-01",
                     *           "release": "2026-01",
                     *           "fields": [
                     *             "status"
                     *           ],
                     *           "before": {
                     *             "status": "active"
                     *           },
                     *           "after": {
                     *             "status": "retired"
                     *           },
                     *           "recorded_at": "2026-01-02T09:14:31.205Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": true,
                     *         "next_cursor": "WzEsImNoYW5nZXMiLCJlZmZlY3RpdmVfZnJvbT0yMDI2LTAxLTAxIiwiMjAyNi0wMS0wMSIsMTk0XQ.1VB7N1C8MaM31jartjhMGg"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "change";
                            /** @description Row id: assigned in commit order, never reused. */
                            id: number;
                            code_id: string;
                            /**
                             * @description What happened to the code.
                             * @enum {string}
                             */
                            type: "added" | "revised" | "retired" | "reactivated";
                            /** Format: date */
                            effective_date: string;
                            /** @description The import that produced it. */
                            release: string;
                            /** @description Fields that changed; empty for added. */
                            fields: ("display" | "definition" | "status" | "parents" | "attributes")[];
                            before: {
                                display?: string;
                                definition?: string | null;
                                /**
                                 * @description Lifecycle status of the code.
                                 * @enum {string}
                                 */
                                status?: "active" | "deprecated" | "retired";
                                /** @description code_ids of the parent codes. */
                                parents?: string[];
                                /** @description Every other column of the source. */
                                attributes?: {
                                    [key: string]: string | number | boolean | null;
                                };
                            } | null;
                            after: {
                                display?: string;
                                definition?: string | null;
                                /**
                                 * @description Lifecycle status of the code.
                                 * @enum {string}
                                 */
                                status?: "active" | "deprecated" | "retired";
                                /** @description code_ids of the parent codes. */
                                parents?: string[];
                                /** @description Every other column of the source. */
                                attributes?: {
                                    [key: string]: string | number | boolean | null;
                                };
                            } | null;
                            /** Format: date-time */
                            recorded_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listCodeChanges: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only changes of this type. */
                type?: "added" | "revised" | "retired" | "reactivated";
                /**
                 * @description Only changes effective on or after this date (inclusive).
                 * @example 2024-06-25
                 */
                effective_from?: string;
                /**
                 * @description Only changes effective on or before this date (inclusive).
                 * @example 2024-06-25
                 */
                effective_to?: string;
            };
            header?: never;
            path: {
                /**
                 * @description `{system}:{code}`, percent-encoded (a `/` in the code is sent as `%2F`).
                 * @example iso4217:EUR
                 */
                code_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of changes. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "change",
                     *           "id": 62,
                     *           "code_id": "iso4217:HRK",
                     *           "type": "added",
                     *           "effective_date": "2022-07-01",
                     *           "release": "2022-07",
                     *           "fields": [],
                     *           "before": null,
                     *           "after": {
                     *             "display": "Kuna",
                     *             "definition": "Currency of Croatia.",
                     *             "status": "active",
                     *             "parents": [],
                     *             "attributes": {
                     *               "entities": "Croatia",
                     *               "minor_unit": "2",
                     *               "numeric_code": "191"
                     *             }
                     *           },
                     *           "recorded_at": "2026-01-02T09:14:30.923Z"
                     *         },
                     *         {
                     *           "object": "change",
                     *           "id": 183,
                     *           "code_id": "iso4217:HRK",
                     *           "type": "retired",
                     *           "effective_date": "2023-01-01",
                     *           "release": "2023-01",
                     *           "fields": [
                     *             "status"
                     *           ],
                     *           "before": {
                     *             "status": "active"
                     *           },
                     *           "after": {
                     *             "status": "retired"
                     *           },
                     *           "recorded_at": "2026-01-02T09:14:30.958Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "change";
                            /** @description Row id: assigned in commit order, never reused. */
                            id: number;
                            code_id: string;
                            /**
                             * @description What happened to the code.
                             * @enum {string}
                             */
                            type: "added" | "revised" | "retired" | "reactivated";
                            /** Format: date */
                            effective_date: string;
                            /** @description The import that produced it. */
                            release: string;
                            /** @description Fields that changed; empty for added. */
                            fields: ("display" | "definition" | "status" | "parents" | "attributes")[];
                            before: {
                                display?: string;
                                definition?: string | null;
                                /**
                                 * @description Lifecycle status of the code.
                                 * @enum {string}
                                 */
                                status?: "active" | "deprecated" | "retired";
                                /** @description code_ids of the parent codes. */
                                parents?: string[];
                                /** @description Every other column of the source. */
                                attributes?: {
                                    [key: string]: string | number | boolean | null;
                                };
                            } | null;
                            after: {
                                display?: string;
                                definition?: string | null;
                                /**
                                 * @description Lifecycle status of the code.
                                 * @enum {string}
                                 */
                                status?: "active" | "deprecated" | "retired";
                                /** @description code_ids of the parent codes. */
                                parents?: string[];
                                /** @description Every other column of the source. */
                                attributes?: {
                                    [key: string]: string | number | boolean | null;
                                };
                            } | null;
                            /** Format: date-time */
                            recorded_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `code_not_found`: no code with this id. */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listChildren: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only codes with this status. */
                status?: "active" | "deprecated" | "retired";
            };
            header?: never;
            path: {
                /**
                 * @description `{system}:{code}`, percent-encoded (a `/` in the code is sent as `%2F`).
                 * @example iso4217:EUR
                 */
                code_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of children. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00.0",
                     *           "system": "icd10cm",
                     *           "code": "A00.0",
                     *           "display": "Cholera due to Vibrio cholerae 01, biovar cholerae",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [
                     *             "icd10cm:A00"
                     *           ],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         },
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00.1",
                     *           "system": "icd10cm",
                     *           "code": "A00.1",
                     *           "display": "Cholera due to Vibrio cholerae 01, biovar eltor",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [
                     *             "icd10cm:A00"
                     *           ],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": true,
                     *         "next_cursor": "WzEsImNoaWxkcmVuIiwiY29kZV9pZD1pY2QxMGNtJTNBQTAwIiwiaWNkMTBjbTpBMDAuMSJd.Wb3vRz5m8kqkHNKa3lVb2g"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "code";
                            /**
                             * @description `{system}:{code}`; immutable.
                             * @example iso4217:EUR
                             */
                            id: string;
                            system: string;
                            /** @description As published, case kept. */
                            code: string;
                            display: string;
                            definition: string | null;
                            /**
                             * @description Lifecycle status of the code.
                             * @enum {string}
                             */
                            status: "active" | "deprecated" | "retired";
                            /** @description code_ids of the parent codes. */
                            parents: string[];
                            /** @description Every other column of the source. */
                            attributes: {
                                [key: string]: string | number | boolean | null;
                            };
                            /** @description The release that last changed this record. */
                            release: string;
                            /**
                             * Format: date
                             * @description Effective date of the change that added it.
                             */
                            effective_from: string;
                            /**
                             * Format: date-time
                             * @description When the service last wrote it.
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `code_not_found`: no code with this id. */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listDescendants: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only codes with this status. */
                status?: "active" | "deprecated" | "retired";
            };
            header?: never;
            path: {
                /**
                 * @description `{system}:{code}`, percent-encoded (a `/` in the code is sent as `%2F`).
                 * @example iso4217:EUR
                 */
                code_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of descendants. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00",
                     *           "system": "icd10cm",
                     *           "code": "A00",
                     *           "display": "Cholera",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [
                     *             "icd10cm:A00-A09"
                     *           ],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         },
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00.0",
                     *           "system": "icd10cm",
                     *           "code": "A00.0",
                     *           "display": "Cholera due to Vibrio cholerae 01, biovar cholerae",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [
                     *             "icd10cm:A00"
                     *           ],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": true,
                     *         "next_cursor": "WzEsImRlc2NlbmRhbnRzIiwiY29kZV9pZD1pY2QxMGNtJTNBQTAwLUEwOSIsImljZDEwY206QTAwLjAiXQ.0hY2sU9x1Jr6C9y7m1i8WA"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "code";
                            /**
                             * @description `{system}:{code}`; immutable.
                             * @example iso4217:EUR
                             */
                            id: string;
                            system: string;
                            /** @description As published, case kept. */
                            code: string;
                            display: string;
                            definition: string | null;
                            /**
                             * @description Lifecycle status of the code.
                             * @enum {string}
                             */
                            status: "active" | "deprecated" | "retired";
                            /** @description code_ids of the parent codes. */
                            parents: string[];
                            /** @description Every other column of the source. */
                            attributes: {
                                [key: string]: string | number | boolean | null;
                            };
                            /** @description The release that last changed this record. */
                            release: string;
                            /**
                             * Format: date
                             * @description Effective date of the change that added it.
                             */
                            effective_from: string;
                            /**
                             * Format: date-time
                             * @description When the service last wrote it.
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `code_not_found`: no code with this id. */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listAncestors: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only codes with this status. */
                status?: "active" | "deprecated" | "retired";
            };
            header?: never;
            path: {
                /**
                 * @description `{system}:{code}`, percent-encoded (a `/` in the code is sent as `%2F`).
                 * @example iso4217:EUR
                 */
                code_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ancestors. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00",
                     *           "system": "icd10cm",
                     *           "code": "A00",
                     *           "display": "Cholera",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [
                     *             "icd10cm:A00-A09"
                     *           ],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         },
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00-A09",
                     *           "system": "icd10cm",
                     *           "code": "A00-A09",
                     *           "display": "Intestinal infectious diseases",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [
                     *             "icd10cm:A00-B99"
                     *           ],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         },
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00-B99",
                     *           "system": "icd10cm",
                     *           "code": "A00-B99",
                     *           "display": "Certain infectious and parasitic diseases",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "code";
                            /**
                             * @description `{system}:{code}`; immutable.
                             * @example iso4217:EUR
                             */
                            id: string;
                            system: string;
                            /** @description As published, case kept. */
                            code: string;
                            display: string;
                            definition: string | null;
                            /**
                             * @description Lifecycle status of the code.
                             * @enum {string}
                             */
                            status: "active" | "deprecated" | "retired";
                            /** @description code_ids of the parent codes. */
                            parents: string[];
                            /** @description Every other column of the source. */
                            attributes: {
                                [key: string]: string | number | boolean | null;
                            };
                            /** @description The release that last changed this record. */
                            release: string;
                            /**
                             * Format: date
                             * @description Effective date of the change that added it.
                             */
                            effective_from: string;
                            /**
                             * Format: date-time
                             * @description When the service last wrote it.
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `code_not_found`: no code with this id. */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listSystemRoots: {
        parameters: {
            query?: {
                /** @description Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200. */
                limit?: number;
                /** @description The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it. */
                cursor?: string;
                /** @description Only codes with this status. */
                status?: "active" | "deprecated" | "retired";
            };
            header?: never;
            path: {
                /**
                 * @description The system id, e.g. `iso4217`. A name no system can have (upper case, over 64 characters) is no such system: `404 system_not_found`.
                 * @example iso4217
                 */
                system: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of root codes. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "code",
                     *           "id": "icd10cm:A00-B99",
                     *           "system": "icd10cm",
                     *           "code": "A00-B99",
                     *           "display": "Certain infectious and parasitic diseases",
                     *           "definition": null,
                     *           "status": "active",
                     *           "parents": [],
                     *           "attributes": {},
                     *           "release": "2026",
                     *           "effective_from": "2025-10-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "has_more": true,
                     *         "next_cursor": "WzEsInJvb3RzIiwic3lzdGVtPWljZDEwY20iLCJpY2QxMGNtOkEwMC1COTkiXQ.n2e3W0m6y0r9aQhS8c1xgQ"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            object: "code";
                            /**
                             * @description `{system}:{code}`; immutable.
                             * @example iso4217:EUR
                             */
                            id: string;
                            system: string;
                            /** @description As published, case kept. */
                            code: string;
                            display: string;
                            definition: string | null;
                            /**
                             * @description Lifecycle status of the code.
                             * @enum {string}
                             */
                            status: "active" | "deprecated" | "retired";
                            /** @description code_ids of the parent codes. */
                            parents: string[];
                            /** @description Every other column of the source. */
                            attributes: {
                                [key: string]: string | number | boolean | null;
                            };
                            /** @description The release that last changed this record. */
                            release: string;
                            /**
                             * Format: date
                             * @description Effective date of the change that added it.
                             */
                            effective_from: string;
                            /**
                             * Format: date-time
                             * @description When the service last wrote it.
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description true when further records exist after this page. */
                            has_more: boolean;
                            /** @description Present only when has_more is true: send it as cursor to get the next page. */
                            next_cursor?: string;
                        };
                    };
                };
            };
            /** @description Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance. */
            304: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag. */
                    ETag?: string;
                    /** @description `private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse. */
                    "Cache-Control"?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `system_not_found`: no such system. */
            404: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    batchGetCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description 1 to 200 code ids, `{system}:{code}` (not percent-encoded: they are JSON strings).
                     * @example [
                     *       "iso4217:EUR",
                     *       "iso4217:USD",
                     *       "iso4217:XYZ"
                     *     ]
                     */
                    ids: string[];
                    /**
                     * Format: date
                     * @description A date, YYYY-MM-DD, e.g. 2024-06-25: the records as they stood once every change effective on or before it was applied. A code added later is `404 code_not_found` (and absent from lists). Without it: the records as the latest import left them, changes effective after today included (an import may be dated ahead); send the current date for what holds today.
                     */
                    as_of?: string;
                };
            };
        };
        responses: {
            /** @description The codes found and the ids not found. */
            200: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description `Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more). */
                    Vary?: string;
                    /** @description `br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise. */
                    "Content-Encoding"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "batch",
                     *       "data": [
                     *         {
                     *           "object": "code",
                     *           "id": "iso4217:EUR",
                     *           "system": "iso4217",
                     *           "code": "EUR",
                     *           "display": "Euro",
                     *           "definition": "Single currency of the euro area, also used by several other states and territories.",
                     *           "status": "active",
                     *           "parents": [],
                     *           "attributes": {
                     *             "entities": "Åland Islands; Andorra; Austria; Belgium; Bulgaria; Croatia; …",
                     *             "minor_unit": "2",
                     *             "numeric_code": "978"
                     *           },
                     *           "release": "2026-01",
                     *           "effective_from": "2022-07-01",
                     *           "updated_at": "2026-01-02T09:14:31.205Z"
                     *         }
                     *       ],
                     *       "not_found": [
                     *         "iso4217:XYZ"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "batch";
                        /** @description The records found, in the order of `ids`, each once. */
                        data: {
                            /** @enum {string} */
                            object: "code";
                            /**
                             * @description `{system}:{code}`; immutable.
                             * @example iso4217:EUR
                             */
                            id: string;
                            system: string;
                            /** @description As published, case kept. */
                            code: string;
                            display: string;
                            definition: string | null;
                            /**
                             * @description Lifecycle status of the code.
                             * @enum {string}
                             */
                            status: "active" | "deprecated" | "retired";
                            /** @description code_ids of the parent codes. */
                            parents: string[];
                            /** @description Every other column of the source. */
                            attributes: {
                                [key: string]: string | number | boolean | null;
                            };
                            /** @description The release that last changed this record. */
                            release: string;
                            /**
                             * Format: date
                             * @description Effective date of the change that added it.
                             */
                            effective_from: string;
                            /**
                             * Format: date-time
                             * @description When the service last wrote it.
                             */
                            updated_at: string;
                        }[];
                        /** @description The ids not found (on `as_of`, when given), in the order of `ids`. */
                        not_found: string[];
                    };
                };
            };
            /** @description A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_body` (a body that is not valid JSON, or not a JSON object), or `api_key_in_query`. */
            400: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `invalid_api_key`: no key, or a malformed, unknown or revoked key. */
            401: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `endpoint_not_available_on_plan`: the key's plan does not include this endpoint. */
            403: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `payload_too_large`: the request body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: the body is not sent as `application/json`. */
            415: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit. */
                    "RateLimit-Policy"?: string;
                    /** @description What remains (IETF RateLimit fields): r requests, t seconds until the window resets. */
                    RateLimit?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `internal_error`: a fault on our side. Quote the `request_id`. */
            500: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies the request; the same as request_id in an error body. Quote it when asking about a request. */
                    "Request-Id"?: string;
                    /** @description An error answer is never to be kept by a cache. */
                    "Cache-Control"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /**
                             * @description Stable, machine-readable error code.
                             * @enum {string}
                             */
                            code: "api_key_in_query" | "invalid_parameter" | "unknown_parameter" | "invalid_cursor" | "invalid_body" | "invalid_api_key" | "endpoint_not_available_on_plan" | "code_not_found" | "system_not_found" | "route_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "monthly_quota_exceeded" | "internal_error" | "service_unavailable";
                            /** @description Human-readable explanation; may change. */
                            message: string;
                            /** @description The parameter at fault, when there is one. */
                            param?: string;
                            /** @description Same as the Request-Id response header. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
}
