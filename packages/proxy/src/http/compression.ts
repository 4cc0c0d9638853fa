// Response compression as the old proxy's `compression` middleware offered it: br, then gzip,
// then deflate, for bodies of 1 kB and more, with `Vary: Accept-Encoding`.
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib'

export type Encoding = 'br' | 'gzip' | 'deflate'
export const COMPRESSION_THRESHOLD = 1024

/** The encoding to use for a client's `Accept-Encoding`, or undefined for identity. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined
  const offered = new Map<string, number>()
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    const q = params.map((p) => /^\s*q=([0-9.]+)/.exec(p)?.[1]).find(Boolean)
    offered.set(name!.trim(), q === undefined ? 1 : Number(q))
  }
  for (const encoding of ['br', 'gzip', 'deflate'] as const) {
    const q = offered.get(encoding) ?? offered.get('*')
    if (q !== undefined && q > 0) return encoding
  }
  return undefined
}

export function compress(body: string | Buffer, encoding: Encoding): Buffer {
  if (encoding === 'br') return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
  if (encoding === 'gzip') return gzipSync(body)
  return deflateSync(body)
}
