// Reading a web `Request` body (Workers, Deno.serve, Bun.serve, h3's web adapter) within a byte
// limit, with the rules of read-body.ts for Node's request: decompressed (gzip/deflate, by the
// runtime's DecompressionStream) as it arrives, the bytes as sent held to the limit plus framing,
// and reading stopped (the stream cancelled) as soon as either limit is passed.
import { type BodyReadOptions, COMPRESSION_FRAMING_BYTES } from './read-body.js'

/** The whole body; an absent body is empty. */
export function readLimitedWebBody(
  body: ReadableStream<Uint8Array> | null,
  options: BodyReadOptions,
): Promise<Uint8Array> {
  if (body === null) return Promise.resolve(new Uint8Array(0))
  if (!options.encoding) return readAll(body, options, () => false)
  const sentLimit = options.limit + COMPRESSION_FRAMING_BYTES
  let sent = 0
  let overSent = false
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength
        if (sent <= sentLimit) return controller.enqueue(chunk)
        overSent = true
        controller.error(new Error('over the limit as sent'))
      },
    }),
  )
  const decoded = counted.pipeThrough(
    new DecompressionStream(options.encoding) as unknown as TransformStream<Uint8Array, Uint8Array>,
  )
  return readAll(decoded, options, () => overSent)
}

// --- Internal helpers ---

async function readAll(
  stream: ReadableStream<Uint8Array>,
  options: BodyReadOptions,
  overSent: () => boolean,
): Promise<Uint8Array> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let result: Awaited<ReturnType<typeof reader.read>>
    try {
      result = await reader.read()
    } catch (error) {
      throw overSent() ? options.tooLarge() : options.failed(error instanceof Error ? error : new Error(String(error)))
    }
    if (result.done) break
    size += result.value.byteLength
    if (size > options.limit) {
      await reader.cancel().catch(() => undefined)
      throw options.tooLarge()
    }
    chunks.push(result.value)
  }
  if (chunks.length === 1) return chunks[0]!
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}
