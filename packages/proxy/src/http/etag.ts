import { createHash } from 'node:crypto'

/**
 * Express's default weak ETag over the body bytes: `W/"<byte length in hex>-<27 chars of
 * base64(SHA-1(body))>"` (docs/old-proxy-compatibility.md section 3.4), so clients holding an ETag
 * from the old proxy get a 304 for the same body.
 */
export function weakEtag(body: string): string {
  const length = Buffer.byteLength(body, 'utf8')
  const hash = createHash('sha1').update(body, 'utf8').digest('base64').slice(0, 27)
  return `W/"${length.toString(16)}-${hash}"`
}

// One If-None-Match rule for every route of both servers.
export { matchesIfNoneMatch } from '@vexil/server-kit'
