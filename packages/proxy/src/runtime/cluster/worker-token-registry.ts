// A cluster worker's token registry: the primary's, mirrored. Known tokens are answered from the
// copy the primary keeps up to date (every token learned or revoked is sent to every worker); an
// unknown one is asked of the primary, whose registry validates it upstream once for the whole
// cluster (batching, strict mode, the invalid-token memory and revalidation all live there).
// The secrets waiting here are shared fairly between callers as the primary's are (fair-queue.ts).
import type { TraceCarrier } from '@vexil/server-kit/tracing'
import type { KnownToken } from '../../tokens/api-token.js'
import { createFairQueue } from '../../tokens/fair-queue.js'
import type { Refusal, TokenRegistry } from '../../tokens/token-registry.js'

interface WorkerTokenRegistryOptions {
  mode: 'dynamic' | 'strict'
  /** Strict mode: the only secrets accepted (refused here without asking). */
  configured: readonly string[]
  /** Sends a resolve request to the primary, for `caller` (caller-key.ts), from the request whose span is `trace`. */
  ask: (id: number, secret: string, caller: string, trace: TraceCarrier | undefined) => void
  /** At most this many secrets wait for the primary's answer, shared fairly between callers. */
  maxWaiting?: number
}

interface WorkerTokenRegistry extends TokenRegistry {
  /** The primary learned (or, undefined, revoked) a token. */
  apply(secret: string, token: KnownToken | undefined, invalidCount: number): void
  /** The primary's answer to request `id`. */
  settle(id: number, result: KnownToken | Refusal, invalidCount: number): void
}

export function createWorkerTokenRegistry(options: WorkerTokenRegistryOptions): WorkerTokenRegistry {
  const maxWaiting = options.maxWaiting ?? 1_000
  const configured = new Set(options.configured)
  const valid = new Map<string, KnownToken>()
  /** Secret → its request to the primary; one per secret, however many callers wait for it. */
  const asking = new Map<string, { id: number; promise: Promise<KnownToken | Refusal> }>()
  const settlers = new Map<number, { secret: string; settle: (result: KnownToken | Refusal) => void }>()
  const shares = createFairQueue(maxWaiting)
  let nextId = 1
  let invalidCount = 0
  let stopped = false

  return {
    known: (secret) => valid.get(secret),
    resolve(secret, caller = '', cause) {
      const token = valid.get(secret)
      if (token) return Promise.resolve(token)
      if (options.mode === 'strict' && !configured.has(secret)) return Promise.resolve('invalid')
      const pending = asking.get(secret)
      if (pending) return pending.promise
      if (stopped) return Promise.resolve('unavailable')
      const added = shares.add(secret, caller)
      if (added === false) return Promise.resolve('unavailable')
      // A busier caller's newest secret made room: its requests are told to try again (the
      // primary's answer to it, when it comes, finds no one waiting).
      if (added !== undefined) settle(asking.get(added)!.id, 'unavailable')
      const id = nextId++
      const promise = new Promise<KnownToken | Refusal>((resolve) => settlers.set(id, { secret, settle: resolve }))
      asking.set(secret, { id, promise })
      options.ask(id, secret, caller, cause?.())
      return promise
    },
    tokens: () => [...valid.values()],
    // The primary restores the backup and validates: a worker learns only from it.
    restore: () => undefined,
    start: () => Promise.resolve(),
    stop() {
      stopped = true
      for (const { settle } of settlers.values()) settle('unavailable')
      settlers.clear()
      asking.clear()
      shares.take(shares.size)
    },
    get invalidCount() {
      return invalidCount
    },
    apply(secret, token, count) {
      invalidCount = count
      if (token) valid.set(secret, token)
      else valid.delete(secret)
    },
    settle(id, result, count) {
      invalidCount = count
      settle(id, result)
    },
  }

  function settle(id: number, result: KnownToken | Refusal): void {
    const settler = settlers.get(id)
    if (!settler) return
    settlers.delete(id)
    asking.delete(settler.secret)
    shares.delete(settler.secret)
    // The primary sends a learned token before its answer; keep the same object the copy holds.
    settler.settle(typeof result === 'object' ? (valid.get(result.secret) ?? result) : result)
  }
}
