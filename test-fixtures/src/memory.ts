// What a test process keeps in memory, for the floods and fuzz runs that must not make a server
// grow: the JS heap in use and what Buffers hold outside it, after full collections (garbage
// that a later collection would free is not growth). V8's gc() is exposed once, here.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let gc: (() => void) | undefined

/**
 * Bytes kept after two full collections; `external: false` leaves out what Buffers and
 * WebAssembly memories hold (an embedded database's WASM heap grows with its data and never shrinks).
 */
export function retainedBytes(options: { external?: boolean } = {}): number {
  if (!gc) {
    setFlagsFromString('--expose-gc')
    gc = runInNewContext('gc') as () => void
  }
  gc()
  gc()
  const usage = process.memoryUsage()
  return usage.heapUsed + (options.external === false ? 0 : usage.external)
}

export const MiB = 1024 * 1024
