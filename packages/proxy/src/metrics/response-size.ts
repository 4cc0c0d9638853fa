// The `content-length` an answer was sent with, 0 when none (Edge reads its body's size hint, 0
// for a stream). An answer written in one `writeHead` with its headers (answers/send-answer.ts)
// leaves none for `getHeader` under Node and Deno: the header block it wrote has it.
import type { ServerResponse } from 'node:http'

const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i

export function sentContentLength(res: ServerResponse): number {
  const declared = res.getHeader('content-length')
  if (declared !== undefined) return Number(declared) || 0
  const written = (res as { _header?: unknown })._header
  if (typeof written !== 'string') return 0
  const match = CONTENT_LENGTH.exec(written)
  return match ? Number(match[1]) : 0
}
