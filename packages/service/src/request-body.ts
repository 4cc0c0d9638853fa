import type { IncomingMessage } from 'node:http'
import { ABORTED_BODY_MESSAGE, readLimitedBody } from '@vexil/server-kit'
import { type H3Event, getRequestHeader } from 'h3'
import { badData, ServiceError } from './errors.js'

/** Request bodies above this are refused with 413, on every route. */
export const MAX_BODY_BYTES = 1024 * 1024

/** Refuses a declared `Content-Length` over the limit with 413 before anything is read. */
export function bodyLimit(event: H3Event): void {
  const declared = Number(getRequestHeader(event, 'content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw tooLarge(MAX_BODY_BYTES)
}

/**
 * The whole request body, counted as it arrives: chunked bodies (no `Content-Length`) are held
 * to the same limit. Past the limit it stops reading and rejects with 413; the answer closes the
 * connection (http-errors.ts), so the rest of the body is never read. A body that breaks off is 400.
 */
export function readBodyBytes(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
  refusal: () => Error = () => tooLarge(limit),
): Promise<Buffer> {
  return readLimitedBody(req, { limit, tooLarge: refusal, failed: () => badData(ABORTED_BODY_MESSAGE) })
}

function tooLarge(limit: number): ServiceError {
  return new ServiceError('PayloadTooLargeError', `The request body is larger than ${limit} bytes.`)
}
