// What a streaming SDK that reconnects with a Last-Event-ID has missed, per scope and filter: the
// delta messages the scope's streams were sent, kept for a while, so a reconnect after a few
// changes gets those changes instead of a hydration (Edge's enterprise build keeps the last 100
// events per environment the same way, reference/edge-and-frontend-api.md 3.3).
//
// Only the upstream adds to a history: a change is recorded once per filter that has one, the
// same message its open streams are sent. A filter gets a history when a stream opens with it,
// and keeps it while its streams are open and for `lingerMs` after the last one
// closes (an SDK reconnects within its backoff); a filter nobody streams costs nothing per change.
import type { Logger } from '../logger.js'
import type { PublishedFlags } from '../scope/scope-flags.js'
import type { FlagSet } from '../scope/flag-set.js'
import { type ClientFilter, deltaMessage, type StreamMessage, viewId } from './client-features.js'

/** The bounds of one scope's history (the proxy README's limits table lists them). */
export interface StreamHistoryLimits {
  /** Changes kept per filter; older ones are dropped first. */
  readonly changes: number
  /** UTF-8 bytes of kept changes for all filters of a scope together; the oldest go first. */
  readonly bytes: number
  /** Filters with a history per scope; a new one replaces only a history no stream uses. */
  readonly filters: number
  /** How long a filter's history is kept after its last stream closed. */
  readonly lingerMs: number
}

const STREAM_HISTORY_LIMITS: StreamHistoryLimits = {
  changes: 100,
  bytes: 8 * 1024 * 1024,
  filters: 32,
  lingerMs: 5 * 60_000,
}

/** One scope's histories. */
export interface StreamHistory {
  /**
   * A stream opens with `filter` on `current`: its history is kept from now on (when there is
   * room). Returns the function to call when the stream closes.
   */
  follow(filter: ClientFilter, current: FlagSet): () => void
  /**
   * The message that takes a client at `lastEventId` to `current`: the changes it missed, in
   * order, in one `{"events":[...]}`; undefined when the id is not in the history (a hydration).
   */
  replay(filter: ClientFilter, current: FlagSet, lastEventId: string): StreamMessage | undefined
  /** What the scope's histories hold, all filters together. */
  readonly size: { bytes: number; changes: number; filters: number }
  /** Stops recording. */
  close(): void
}

interface Change {
  /** The id a client has before the change, and after it. */
  from: string
  to: string
  /** The change's events, without the enclosing `[` `]`. */
  events: string
  bytes: number
  /** Order of recording across the scope's filters, for trimming the oldest first. */
  seq: number
}

interface FilterHistory {
  filter: ClientFilter
  /** The set recorded last, and the id a client at it has. */
  set: FlagSet
  id: string
  changes: Change[]
  streams: number
  idleSince: number
}

const EVENTS_PREFIX = '{"events":['
const EVENTS_SUFFIX = ']}'

interface StreamHistoryOptions {
  limits?: StreamHistoryLimits
  now?: () => number
  logger?: Pick<Logger, 'error'>
}

export function createStreamHistory(flags: PublishedFlags, options: StreamHistoryOptions = {}): StreamHistory {
  const { limits = STREAM_HISTORY_LIMITS, now = Date.now, logger } = options
  const histories = new Map<string, FilterHistory>()
  let bytes = 0
  let seq = 0
  // Replays made since the last change, by filter and Last-Event-ID, so a reconnect storm builds
  // each once; within the same byte bound as the changes, and emptied by any change.
  const replays = new Map<string, StreamMessage>()
  let replayBytes = 0
  const forgetReplays = () => {
    replays.clear()
    replayBytes = 0
  }

  const unsubscribe = flags.subscribe((set) => {
    forgetReplays()
    const time = now()
    for (const [key, history] of histories) {
      if (history.streams === 0 && time - history.idleSince > limits.lingerMs) drop(key, history)
      else {
        try {
          record(history, set)
        } catch (error) {
          // A listener must not throw into the scope's publish; this filter's reconnects hydrate.
          logger?.error('streaming: could not record a change for reconnects; its history is dropped', error)
          drop(key, history)
        }
      }
    }
    trim()
  })

  function record(history: FilterHistory, set: FlagSet): void {
    const message = deltaMessage(history.set, set, history.filter)
    history.set = set
    if (!message) return
    const events = message.text.slice(EVENTS_PREFIX.length, -EVENTS_SUFFIX.length)
    const change: Change = { from: history.id, to: message.id, events, bytes: Buffer.byteLength(events), seq: seq++ }
    history.id = message.id
    history.changes.push(change)
    bytes += change.bytes
    if (history.changes.length > limits.changes) bytes -= history.changes.shift()!.bytes
  }

  /** Drops the oldest changes of the scope until its histories fit their byte bound. */
  function trim(): void {
    while (bytes > limits.bytes) {
      let oldest: FilterHistory | undefined
      for (const history of histories.values()) {
        const first = history.changes[0]
        if (first && (!oldest || first.seq < oldest.changes[0]!.seq)) oldest = history
      }
      if (!oldest) return
      bytes -= oldest.changes.shift()!.bytes
    }
  }

  function drop(key: string, history: FilterHistory): void {
    for (const change of history.changes) bytes -= change.bytes
    histories.delete(key)
    forgetReplays()
  }

  /** Room for one more filter: past the bound, the history idle longest goes; one in use never does. */
  function makeRoom(): boolean {
    if (histories.size < limits.filters) return true
    let idlest: [string, FilterHistory] | undefined
    for (const entry of histories)
      if (entry[1].streams === 0 && (!idlest || entry[1].idleSince < idlest[1].idleSince)) idlest = entry
    if (!idlest) return false
    drop(...idlest)
    return true
  }

  return {
    follow(filter, current) {
      let history = histories.get(filter.key)
      if (!history || history.set !== current) {
        if (history) drop(filter.key, history)
        if (!makeRoom()) return () => undefined
        history = { filter, set: current, id: viewId(current, filter), changes: [], streams: 0, idleSince: now() }
        histories.set(filter.key, history)
      }
      const followed = history
      followed.streams++
      let open = true
      return () => {
        if (!open) return
        open = false
        followed.streams--
        if (followed.streams === 0) followed.idleSince = now()
      }
    },
    replay(filter, current, lastEventId) {
      const history = histories.get(filter.key)
      if (!history || history.set !== current) return undefined
      const memo = `${filter.key}\n${lastEventId}`
      const known = replays.get(memo)
      if (known) return known
      const { changes } = history
      // The newest point the id names: a view that came back to an earlier state has it twice.
      let from = -1
      for (let i = changes.length - 1; i >= 0; i--) {
        if (changes[i]!.to === lastEventId) {
          from = i + 1
          break
        }
      }
      if (from < 0 && changes[0]?.from === lastEventId) from = 0
      if (from < 0 || from >= changes.length) return undefined
      const parts: string[] = []
      let size = 0
      for (let i = from; i < changes.length; i++) {
        parts.push(changes[i]!.events)
        size += changes[i]!.bytes
      }
      const message = { text: `${EVENTS_PREFIX}${parts.join(',')}${EVENTS_SUFFIX}`, id: history.id }
      if (replayBytes + size > limits.bytes) forgetReplays()
      replays.set(memo, message)
      replayBytes += size
      return message
    },
    get size() {
      let changes = 0
      for (const history of histories.values()) changes += history.changes.length
      return { bytes, changes, filters: histories.size }
    },
    close() {
      unsubscribe()
      histories.clear()
      forgetReplays()
      bytes = 0
    },
  }
}
