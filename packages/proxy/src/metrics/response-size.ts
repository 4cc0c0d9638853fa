// The bytes an answer's body was sent with, 0 when none (Edge reads its body's size hint, 0 for a
// stream): an evaluation answer's as its sender reported them (its one `writeHead` hides its
// `content-length` from `getHeader`), any other answer's `content-length` header.
import type { H3Event } from 'h3'

export function sentContentLength(event: H3Event): number {
  const sent = event.context.responseBytes
  if (sent !== undefined) return sent
  const declared = event.node.res.getHeader('content-length')
  return declared === undefined ? 0 : Number(declared) || 0
}
