import { randomUUID } from 'node:crypto'
import { type H3Error, type H3Event, send, setResponseHeader, setResponseStatus } from 'h3'
import { type ErrorCode, isServiceError } from './errors.js'
import type { Logger } from './logger.js'

/** h3's own errors (no route, bad method, unreadable body) in the service's error vocabulary. */
const H3_CODES: Record<number, ErrorCode> = {
  400: 'BadDataError',
  404: 'NotFoundError',
  405: 'NotFoundError',
  413: 'PayloadTooLargeError',
  415: 'ContentTypeError',
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
    body = { id: randomUUID(), name: original.code, message: original.message, ...(original.details ? { details: original.details } : {}) }
  } else if (!error.unhandled && H3_CODES[error.statusCode]) {
    status = error.statusCode === 405 ? 404 : error.statusCode
    const message = status === 404 ? `There is no ${event.method} ${event.path}.` : error.statusMessage || error.message
    body = { id: randomUUID(), name: H3_CODES[error.statusCode] as string, message }
  } else {
    logger.error(`${event.method} ${event.path} failed`, original instanceof Error ? original.stack : original)
    status = 500
    body = { id: randomUUID(), name: 'UnknownError', message: 'Something went wrong on the server; the error was logged.' }
  }
  setResponseStatus(event, status)
  setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
  await send(event, JSON.stringify(body))
}
