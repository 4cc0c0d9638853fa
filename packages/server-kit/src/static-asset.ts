import { getRequestHeader, type H3Event, sendNoContent, setResponseHeaders } from 'h3'
import { matchesIfNoneMatch } from './if-none-match.js'

/** A file held in memory with its strong ETag, as both servers serve their UI files. */
export interface StaticAsset {
  body: Buffer
  contentType: string
  etag: string
}

/**
 * Answers with an in-memory file: its type, `cacheControl`, its ETag and `nosniff`; 304 with no
 * body when If-None-Match names the ETag. Returns the body for h3 to send, or undefined after a 304.
 */
export function sendStaticAsset(event: H3Event, asset: StaticAsset, cacheControl: string): Buffer | undefined {
  setResponseHeaders(event, {
    'content-type': asset.contentType,
    'cache-control': cacheControl,
    etag: asset.etag,
    'x-content-type-options': 'nosniff',
  })
  if (matchesIfNoneMatch(getRequestHeader(event, 'if-none-match'), asset.etag)) {
    sendNoContent(event, 304)
    return undefined
  }
  return asset.body
}
