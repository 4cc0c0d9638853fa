import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import { type H3Error, type H3Event, send, setResponseHeader, setResponseStatus } from 'h3'
import { ERROR_STATUS, type ErrorCode, isServiceError } from './errors.js'
import type { Logger } from './logger.js'

/** h3's own errors (no route, bad method, unreadable body) in the service's error vocabulary. */
const H3_CODES: Record<number, ErrorCode> = {
  400: 'BadDataError',
  404: 'NotFoundError',
  405: 'NotFoundError',
  413: 'PayloadTooLargeError',
  415: 'ContentTypeError',
}

/** PostgreSQL errors a racing or odd request can still reach past validation (SQLSTATE codes). */
const SQLSTATE_CODES: Record<string, { code: ErrorCode; message: string }> = {
  '23505': { code: 'NameExistsError', message: 'Something with that name or id already exists.' },
  '23503': {
    code: 'ConflictError',
    message: 'A resource this change refers to does not exist (any more), or is still in use.',
  },
  '22P02': { code: 'BadDataError', message: 'A value in the request has the wrong type.' },
  '22003': { code: 'BadDataError', message: 'A number in the request is out of range.' },
  '22P05': {
    code: 'BadDataError',
    message: 'A text in the request contains a character the database cannot store (\\u0000).',
  },
  '22021': {
    code: 'BadDataError',
    message: 'A text in the request contains a character the database cannot store (\\u0000).',
  },
  '22007': { code: 'BadDataError', message: 'A date in the request is not one the database can read.' },
  '22008': { code: 'BadDataError', message: 'A date in the request is out of the range the database can hold.' },
}

/**
 * Answers every error as Unleash does: JSON `{ id, name, message, details? }`. Service errors
 * carry their status (one table in errors.ts); anything unknown is logged with its stack and
 * answered 500 with a fixed message.
 */
export async function sendServiceError(event: H3Event, error: H3Error, logger: Logger): Promise<void> {
  const original = error.cause ?? error
  let status: number
  let body: { id: string; name: string; message: string; details?: unknown[] }
  if (isServiceError(original)) {
    status = original.status
    body = {
      id: randomUUID(),
      name: original.code,
      message: original.message,
      ...(original.details ? { details: original.details } : {}),
    }
  } else if (sqlState(original)) {
    const known = sqlState(original) as { code: ErrorCode; message: string }
    status = ERROR_STATUS[known.code]
    body = { id: randomUUID(), name: known.code, message: known.message }
  } else if (!error.unhandled && H3_CODES[error.statusCode]) {
    status = error.statusCode === 405 ? 404 : error.statusCode
    const message =
      status === 404 ? `There is no ${event.method} ${event.path.split('?')[0]}.` : error.statusMessage || error.message
    body = { id: randomUUID(), name: H3_CODES[error.statusCode] as string, message }
  } else {
    logger.error(`${event.method} ${event.path} failed`, original instanceof Error ? original.stack : original)
    status = 500
    body = {
      id: randomUUID(),
      name: 'UnknownError',
      message: 'Something went wrong on the server; the error was logged.',
    }
  }
  // The standard reason phrase: h3 would put its own message (with the request path) in the status line.
  setResponseStatus(event, status, STATUS_CODES[status])
  setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
  // An oversize body is not read to its end: close the connection rather than read the rest.
  if (status === 413) setResponseHeader(event, 'connection', 'close')
  await send(event, JSON.stringify(body))
}

// --- Internal helpers ---

function sqlState(error: unknown): { code: ErrorCode; message: string } | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? SQLSTATE_CODES[code] : undefined
}
