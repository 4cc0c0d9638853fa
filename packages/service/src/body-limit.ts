import { type H3Event, getRequestHeader } from 'h3'
import { ServiceError } from './errors.js'

/** Request bodies above this answer 413 before they are read. */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * Rejects a declared `Content-Length` over the limit with 413 before the body is read.
 * (Chunked bodies without a length are read as h3 reads them; SDKs and fetch send a length.)
 */
export function bodyLimit(event: H3Event): void {
  const declared = Number(getRequestHeader(event, 'content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) {
    throw new ServiceError('PayloadTooLargeError', `The request body is larger than ${MAX_BODY_BYTES} bytes.`)
  }
}
