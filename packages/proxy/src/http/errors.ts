// Every error the proxy answers with: a code, and one table mapping each code to its status and
// exact body (the old proxy's bytes where it had them, JSON for the improvements).
import { randomUUID } from 'node:crypto'

export type ProxyErrorCode =
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INVALID_JSON'
  | 'VALIDATION_FAILED'
  | 'BODY_TOO_LARGE'
  | 'UNAUTHORIZED'
  | 'NOT_READY'
  | 'ALL_ENDPOINT_DISABLED'
  | 'NOT_FOUND'
  | 'INTERNAL'
  // The Unleash API routes (/api/*), answered as Unleash 8.2 does: JSON `{ message }`.
  | 'TOKEN_REQUIRED'
  | 'TOKEN_WRONG_TYPE'
  | 'TOKEN_UNVERIFIED'
  | 'SCOPE_NOT_SERVED'
  | 'SCOPE_NOT_READY'
  | 'API_NOT_FOUND'
  | 'API_BAD_REQUEST'
  | 'API_BAD_DATA'
  | 'TOO_MANY_STREAMS'
  | 'METHOD_NOT_ALLOWED'
  // Offline mode refuses a token as Edge does, whatever the reason: 403, empty body.
  | 'EDGE_FORBIDDEN'
  // OFREP (routes/ofrep.ts): bodies as the protocol's, `details` is `{ key }` on the single-flag route.
  | 'OFREP_PARSE_ERROR'
  | 'OFREP_INVALID_CONTEXT'
  | 'OFREP_FLAG_NOT_FOUND'

export class ProxyError extends Error {
  override name = 'ProxyError'
  constructor(
    readonly code: ProxyErrorCode,
    message: string,
    /** Extra data for the body (the validation error, the limit). */
    readonly details?: unknown,
  ) {
    super(message)
  }
}

/** One validation problem, shaped like the ajv errors the old proxy returned. */
interface ValidationProblem {
  instancePath: string
  schemaPath: string
  keyword: string
  params: Record<string, unknown>
  message: string
}

export interface ErrorResponse {
  status: number
  contentType: string | undefined
  body: string
}

const HTML = 'text/html; charset=utf-8'
const JSON_TYPE = 'application/json; charset=utf-8'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const RENDER: Record<ProxyErrorCode, (error: ProxyError) => ErrorResponse> = {
  // The old proxy answered 415 with an empty body.
  UNSUPPORTED_MEDIA_TYPE: () => ({ status: 415, contentType: undefined, body: '' }),
  INVALID_JSON: (e) => ({
    status: 400,
    contentType: JSON_TYPE,
    body: JSON.stringify({
      error: `We were unable to parse the data you provided. Please check it for syntax errors. The message we got was: "${e.message}"`,
    }),
  }),
  VALIDATION_FAILED: (e) => ({
    status: 400,
    contentType: JSON_TYPE,
    body: JSON.stringify({ error: 'Request validation failed', validation: [e.details] }),
  }),
  // Vexil: the old proxy answered 500 "request entity too large".
  BODY_TOO_LARGE: (e) => ({
    status: 413,
    contentType: JSON_TYPE,
    body: JSON.stringify({ error: e.message, limit: e.details }),
  }),
  UNAUTHORIZED: () => ({ status: 401, contentType: 'text/plain; charset=utf-8', body: 'Unauthorized' }),
  NOT_READY: () => ({
    status: 503,
    contentType: HTML,
    body: 'The Unleash Proxy has not connected to the Unleash API and is not ready to accept requests yet.',
  }),
  ALL_ENDPOINT_DISABLED: () => ({
    status: 501,
    contentType: HTML,
    body: 'The /proxy/all endpoint is disabled. Please check your server configuration. To enable it, set the `enableAllEndpoint` configuration option or `ENABLE_ALL_ENDPOINT` environment variable to `true`.',
  }),
  NOT_FOUND: (e) => ({
    status: 404,
    contentType: HTML,
    body: `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${escapeHtml(e.message)}</pre>\n</body>\n</html>\n`,
  }),
  INTERNAL: (e) => ({
    status: 500,
    contentType: JSON_TYPE,
    body: JSON.stringify({
      error: `Whoops! We dropped the ball on this one (an unexpected error occurred): ${e.message}`,
    }),
  }),
  TOKEN_REQUIRED: () =>
    message(
      401,
      'This endpoint requires an API token. Please add an authorization header to your request with a valid token',
    ),
  TOKEN_WRONG_TYPE: () => message(403, 'invalid token: expected a different token type for this endpoint'),
  TOKEN_UNVERIFIED: () =>
    message(503, 'The API token could not be checked with the upstream right now; try again shortly'),
  SCOPE_NOT_SERVED: (e) => message(503, e.message),
  SCOPE_NOT_READY: (e) => message(503, e.message),
  API_NOT_FOUND: (e) => message(404, e.message),
  API_BAD_REQUEST: (e) => message(400, e.message),
  TOO_MANY_STREAMS: (e) => message(429, e.message),
  METHOD_NOT_ALLOWED: (e) => message(405, e.message),
  EDGE_FORBIDDEN: () => ({ status: 403, contentType: undefined, body: '' }),
  OFREP_PARSE_ERROR: (e) => ofrepFailure(400, 'PARSE_ERROR', e),
  OFREP_INVALID_CONTEXT: (e) => ofrepFailure(400, 'INVALID_CONTEXT', e),
  OFREP_FLAG_NOT_FOUND: (e) => ofrepFailure(404, 'FLAG_NOT_FOUND', e),
  API_BAD_DATA: (e) => ({
    status: 400,
    contentType: JSON_TYPE,
    body: JSON.stringify({ id: randomUUID(), name: 'BadDataError', message: e.message, details: e.details }),
  }),
}

function message(status: number, text: string): ErrorResponse {
  return { status, contentType: JSON_TYPE, body: JSON.stringify({ message: text }) }
}

/** OFREP's `evaluationFailure` (single-flag route: with the key) or `bulkEvaluationFailure`. */
function ofrepFailure(status: number, errorCode: string, error: ProxyError): ErrorResponse {
  const key = (error.details as { key?: string } | undefined)?.key
  return {
    status,
    contentType: JSON_TYPE,
    body: JSON.stringify({ ...(key !== undefined ? { key } : {}), errorCode, errorDetails: error.message }),
  }
}

export function renderError(error: ProxyError): ErrorResponse {
  return RENDER[error.code](error)
}

/**
 * Unleash 8.2's bodies for the frontend API: as the table, but a request body whose content type
 * is not JSON is its ContentTypeError, naming the type as sent.
 */
function renderUnleashError(error: ProxyError): ErrorResponse {
  const contentType = (error.details as { contentType?: unknown } | undefined)?.contentType
  if (error.code !== 'UNSUPPORTED_MEDIA_TYPE' || typeof contentType !== 'string') return renderError(error)
  const message = `We do not accept the content-type you provided (${contentType}). Try using one of the content-types we do accept instead (application/json) and make sure the body is in the corresponding format.`
  return {
    status: 415,
    contentType: JSON_TYPE,
    body: JSON.stringify({ id: randomUUID(), name: 'ContentTypeError', message, details: [{ message }] }),
  }
}

/**
 * Any error on an OFREP route in the protocol's shapes: its own codes as they render, a body the
 * proxy could not read as PARSE_ERROR, everything else with its status and `{ errorDetails }`.
 */
function renderOfrepError(error: ProxyError): ErrorResponse {
  if (error.code.startsWith('OFREP_')) return renderError(error)
  if (error.code === 'INVALID_JSON') return ofrepFailure(400, 'PARSE_ERROR', error)
  const { status } = renderError(error)
  const details =
    status === 401
      ? 'A client key or a frontend token is required (X-API-Key, or Authorization with or without Bearer)'
      : status === 403
        ? 'This token may not evaluate flags here: use a frontend token or a client key'
        : error.message
  return { status, contentType: JSON_TYPE, body: JSON.stringify({ errorDetails: details }) }
}

/** Unleash 8.2's 400 BadDataError: its schema validation's `details`, each naming a path (its `id` is a fresh UUID too). */
export function badDataError(details: ReadonlyArray<Record<string, string>>): ProxyError {
  return new ProxyError(
    'API_BAD_DATA',
    'Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information.',
    details,
  )
}

export function validationError(
  instancePath: string,
  keyword: string,
  params: Record<string, unknown>,
  message: string,
  schemaPath: string,
): ProxyError {
  const problem: ValidationProblem = { instancePath, schemaPath, keyword, params, message }
  return new ProxyError('VALIDATION_FAILED', `${instancePath} ${message}`, problem)
}

/**
 * The error bodies a route speaks (its declaration's `errors`): `proxy`, the table above (the old
 * proxy's bytes for its routes, Unleash's `{ message }` for the API codes); `unleash`, the frontend
 * API's as Unleash 8.2 writes them; `ofrep`, OFREP's, where a method the route does not take is
 * 405 naming the methods it does (OFREP evaluates with POST). Elsewhere such a method is 404, as
 * Express answered it.
 */
export type ErrorShape = 'proxy' | 'unleash' | 'ofrep'

interface ErrorDialect {
  render(error: ProxyError): ErrorResponse
  /** The error for a method the route at the path does not take; undefined: answered as no route (404). */
  methodNotAllowed?(method: string): ProxyError
}

export const ERROR_DIALECTS: Record<ErrorShape, ErrorDialect> = {
  proxy: { render: renderError },
  unleash: { render: renderUnleashError },
  ofrep: {
    render: renderOfrepError,
    methodNotAllowed: (method) =>
      new ProxyError('METHOD_NOT_ALLOWED', `${method} is not allowed here: OFREP evaluates with POST`),
  },
}
