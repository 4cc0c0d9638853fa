// Which API tokens the proxy accepts, learned from the upstream's POST /edge/validate
// (docs/architecture.md, "Proxy: many scopes"). Dynamic mode: an unknown token costs one
// validation and is then remembered, valid or not; strict mode: only the configured tokens.
// Whatever callers send, the upstream sees at most one validation request in flight, at most
// one per `minValidationGapMs`, each of at most `batchSize` tokens; at most `maxWaiting` tokens
// wait, shared fairly between callers (fair-queue.ts), so one caller's made-up tokens never keep
// another's real one waiting behind them. Known tokens are asked about again every
// `revalidateMs`, so a token revoked upstream stops working within that time; each token the
// upstream lists is also checked on its own API (`check`, check-token-upstream.ts), since
// Unleash 8.2's /edge/validate keeps listing deleted tokens.
import type { TraceCarrier } from '@vexil/server-kit/tracing'
import type { Logger } from '../logger.js'
import { type KnownToken, type KnownTokenType, normalizeProjects } from './api-token.js'
import type { CheckToken } from './check-token-upstream.js'
import { createFairQueue } from './fair-queue.js'
import { systemTimers, type TimerHandle, type Timers } from '@vexil/sync'

/**
 * The upstream's answer for some secrets: the valid ones, or a failure (nothing decided).
 * `causes`: the spans of the requests that wait for it (tracing), which its calls continue.
 */
type ValidateTokens = (secrets: readonly string[], causes?: readonly TraceCarrier[]) => Promise<KnownToken[]>

type TokenMode = 'dynamic' | 'strict'

export interface TokenRegistryOptions {
  mode: TokenMode
  validate: ValidateTokens
  /** Whether the upstream still accepts a token it listed, on its own API; default: it does. */
  check?: CheckToken
  logger: Logger
  /** Strict mode: the only secrets accepted. Dynamic mode: validated at start too. */
  configured?: readonly string[]
  /** Every known token is validated again this often (ms); 0 turns it off. */
  revalidateMs: number
  /** How long an invalid secret is remembered before a request with it is validated again (ms). */
  invalidTtlMs?: number
  /** At most this many invalid secrets are remembered (the oldest are forgotten first). */
  maxInvalid?: number
  /** And at most this many UTF-16 units of them (callers choose them, up to MAX_TOKEN_LENGTH each). */
  maxInvalidChars?: number
  maxWaiting?: number
  batchSize?: number
  minValidationGapMs?: number
  /** A token became known, or (undefined) was revoked upstream. */
  onChange?: (secret: string, token: KnownToken | undefined) => void
  now?: () => number
  /** Default: the runtime's setTimeout. */
  timers?: Timers
}

/** Why a secret was not accepted: unknown upstream, or not decided now (upstream down, too many waiting). */
export type Refusal = 'invalid' | 'unavailable'

export interface TokenRegistry {
  /** The known token, without waiting: undefined when it is not known (yet). */
  known(secret: string): KnownToken | undefined
  /**
   * The token, validating it upstream first when it is new (dynamic mode). `caller` (callerKey of
   * the caller's address) is whose share of the waiting room the secret takes; `cause` gives
   * the span of the request that asks (tracing), asked only when the secret is queued for a
   * validation, whose upstream calls continue it.
   */
  resolve(secret: string, caller?: string, cause?: () => TraceCarrier | undefined): Promise<KnownToken | Refusal>
  /** Every known token. */
  tokens(): KnownToken[]
  /** Tokens known before (the backup of a previous run): accepted until a validation says otherwise. */
  restore(tokens: readonly KnownToken[]): void
  /** Validates the configured tokens and the restored ones; starts revalidation. */
  start(): Promise<void>
  stop(): void
  /** For /internal-backstage/tokens: how many secrets are remembered as invalid. */
  readonly invalidCount: number
}

/** Settles one request waiting for a secret's validation. */
type Waiter = (result: KnownToken | Refusal) => void

export function createTokenRegistry(options: TokenRegistryOptions): TokenRegistry {
  const { mode, validate, logger, now = Date.now } = options
  const invalidTtlMs = options.invalidTtlMs ?? 60_000
  const maxInvalid = options.maxInvalid ?? 10_000
  const maxInvalidChars = options.maxInvalidChars ?? 1_048_576
  const maxWaiting = options.maxWaiting ?? 1_000
  const batchSize = options.batchSize ?? 100
  const minGap = options.minValidationGapMs ?? 100
  const check = options.check
  const configured = new Set(options.configured ?? [])
  const valid = new Map<string, KnownToken>()
  /** Secret → when it was found invalid; Map order is insertion order, so the oldest come first. */
  const invalid = new Map<string, number>()
  let invalidChars = 0
  /** Secret → the requests waiting for it, from when it is queued until its answer. */
  const waiting = new Map<string, Waiter[]>()
  /** Secret → the span of the first request waiting for it, while it waits (tracing only). */
  const causes = new Map<string, TraceCarrier>()
  const queue = createFairQueue(maxWaiting)
  let draining = false
  let lastCall = 0
  const timers = options.timers ?? systemTimers
  let revalidation: TimerHandle | undefined
  let stopped = false

  /**
   * Keeps a token the upstream validated. A revalidation that changes nothing keeps the very
   * object: callers compare by identity to learn that a token changed or went (the token gate's
   * admitted callers, the open SDK streams).
   */
  function remember(token: KnownToken): void {
    const previous = valid.get(token.secret)
    const next = { ...token, projects: normalizeProjects(token.projects) }
    unmarkInvalid(token.secret)
    if (
      previous &&
      previous.environment === next.environment &&
      previous.type === next.type &&
      previous.projects.join() === next.projects.join()
    )
      return
    valid.set(token.secret, next)
    options.onChange?.(token.secret, next)
  }

  function forget(secret: string): void {
    if (valid.delete(secret)) options.onChange?.(secret, undefined)
    unmarkInvalid(secret)
    invalid.set(secret, now())
    invalidChars += secret.length
    while (invalid.size > maxInvalid || invalidChars > maxInvalidChars)
      unmarkInvalid(invalid.keys().next().value as string)
  }

  function unmarkInvalid(secret: string): void {
    if (invalid.delete(secret)) invalidChars -= secret.length
  }

  /** Validates `secrets` upstream (one call); undefined when the upstream could not answer. */
  async function ask(
    secrets: readonly string[],
    traces?: ReadonlyMap<string, TraceCarrier>,
  ): Promise<Map<string, KnownToken> | undefined> {
    const gap = lastCall + minGap - now()
    if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap))
    lastCall = now()
    try {
      const answer = await validate(secrets, traces && [...traces.values()])
      const asked = new Set(secrets)
      const listed = answer.filter((token) => asked.has(token.secret) && isServed(token.type))
      return new Map((check ? await accepted(listed, check, traces) : listed).map((token) => [token.secret, token]))
    } catch (error) {
      logger.warn(
        `Could not validate ${secrets.length} API token(s) with the upstream: ${error instanceof Error ? error.message : String(error)}`,
      )
      return undefined
    }
  }

  /** Starts draining the waiting secrets unless a drain is running. */
  function kick(): void {
    if (draining || stopped) return
    draining = true
    void drain()
  }

  async function drain(): Promise<void> {
    try {
      // Secrets that arrive in the same turn go out in one request.
      await new Promise((resolve) => setImmediate(resolve))
      while (queue.size > 0 && !stopped) {
        const batch = queue.take(batchSize)
        const traces = new Map<string, TraceCarrier>()
        for (const secret of batch) {
          const cause = causes.get(secret)
          if (cause) traces.set(secret, cause)
          causes.delete(secret)
        }
        const answer = await ask(batch, traces)
        for (const secret of batch) {
          const waiters = waiting.get(secret) ?? []
          waiting.delete(secret)
          let result: KnownToken | Refusal = 'unavailable'
          if (answer) {
            const token = answer.get(secret)
            if (token) remember(token)
            else forget(secret)
            result = valid.get(secret) ?? 'invalid'
          }
          for (const waiter of waiters) waiter(result)
        }
      }
    } finally {
      // Cleared in the same turn as the last check of `queue`: a secret enqueued after it kicks a new drain.
      draining = false
    }
  }

  function enqueue(
    secret: string,
    caller: string,
    cause: (() => TraceCarrier | undefined) | undefined,
  ): Promise<KnownToken | Refusal> {
    const waiters = waiting.get(secret)
    if (waiters) return new Promise((resolve) => waiters.push(resolve))
    const added = queue.add(secret, caller)
    if (added === false) return Promise.resolve('unavailable')
    // A busier caller's newest secret made room: its requests are told to try again.
    if (added !== undefined) turnAway(added)
    const promise = new Promise<KnownToken | Refusal>((resolve) => waiting.set(secret, [resolve]))
    const carrier = cause?.()
    if (carrier) causes.set(secret, carrier)
    kick()
    return promise
  }

  function turnAway(secret: string): void {
    for (const waiter of waiting.get(secret) ?? []) waiter('unavailable')
    waiting.delete(secret)
    causes.delete(secret)
  }

  /**
   * Asks the upstream about `secrets` in batches: the ones it lists are remembered, the others
   * forgotten (`onMissing` says why). A batch the upstream cannot answer changes nothing.
   */
  async function validateAll(secrets: readonly string[], onMissing: (secret: string) => void): Promise<void> {
    for (let i = 0; i < secrets.length && !stopped; i += batchSize) {
      const batch = secrets.slice(i, i + batchSize)
      const answer = await ask(batch)
      if (!answer) continue
      for (const secret of batch) {
        const token = answer.get(secret)
        if (token) remember(token)
        else {
          onMissing(secret)
          forget(secret)
        }
      }
    }
  }

  const revalidate = () =>
    validateAll([...valid.keys()], (secret) =>
      logger.warn(
        `An API token for ${valid.get(secret)?.environment ?? '?'} is no longer valid upstream; it is refused from now on`,
      ),
    )

  return {
    known: (secret) => valid.get(secret),
    resolve(secret, caller = '', cause) {
      const token = valid.get(secret)
      if (token) return Promise.resolve(token)
      if (mode === 'strict' && !configured.has(secret)) return Promise.resolve('invalid')
      const refusedAt = invalid.get(secret)
      if (refusedAt !== undefined && now() - refusedAt < invalidTtlMs) return Promise.resolve('invalid')
      return enqueue(secret, caller, cause)
    },
    tokens: () => [...valid.values()],
    restore(tokens) {
      for (const token of tokens) {
        if (mode === 'strict' && !configured.has(token.secret)) continue
        if (isServed(token.type)) remember(token)
      }
    },
    async start() {
      const restored = [...valid.keys()].filter((secret) => !configured.has(secret))
      await validateAll([...configured], (secret) =>
        logger.error(
          `A configured API token (${secret.slice(0, secret.indexOf('.') + 1)}…) is not valid upstream: it is refused`,
        ),
      )
      // Tokens from the backup are asked about once now (not awaited: the upstream may be down).
      if (restored.length > 0) void validateAll(restored, () => undefined)
      const schedule = () => {
        if (stopped || options.revalidateMs <= 0) return
        revalidation = timers.set(() => revalidate().finally(schedule), options.revalidateMs, false)
      }
      schedule()
    },
    stop() {
      stopped = true
      if (revalidation) timers.clear(revalidation)
      queue.take(queue.size)
      for (const secret of [...waiting.keys()]) turnAway(secret)
    },
    get invalidCount() {
      return invalid.size
    },
  }
}

/** The tokens `check` does not find refused, checked CHECK_CONCURRENCY at a time (each under the span that asked for it). */
async function accepted(
  tokens: readonly KnownToken[],
  check: CheckToken,
  causes: ReadonlyMap<string, TraceCarrier> | undefined,
): Promise<KnownToken[]> {
  const refused = new Set<KnownToken>()
  let next = 0
  const worker = async () => {
    while (next < tokens.length) {
      const token = tokens[next++]!
      if (!(await check(token, causes?.get(token.secret)))) refused.add(token)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CHECK_CONCURRENCY, tokens.length) }, worker))
  return tokens.filter((token) => !refused.has(token))
}

/** Upstream requests at once when checking the tokens of one batch. */
const CHECK_CONCURRENCY = 8

function isServed(type: string): type is KnownTokenType {
  return type === 'client' || type === 'frontend' || type === 'admin'
}
