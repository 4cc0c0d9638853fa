// Offline mode's feed, beside @vexil/sync's poller and stream feed: it offers the flags of a file
// instead of an upstream's. The file is read again every interval (Edge's RELOAD_INTERVAL); a
// changed text that reads as flags replaces the set served, and one that does not (or a file
// gone) leaves the last good flags served, said once per change of the file, not every interval.
import { readFile } from 'node:fs/promises'
import type { Timers, TimerHandle } from '@vexil/sync'
import type { Logger } from '../logger.js'
import { parseOfflineFlags } from './offline-file.js'
import type { ScopeFlags } from './scope-flags.js'

interface OfflineFeedOptions {
  path: string
  flags: Pick<ScopeFlags, 'offer'>
  logger: Logger
  /** 0: never read again. */
  intervalMs: number
  timers: Timers
  /** The text the flags served were read from (at start). */
  text: string
}

export interface OfflineFeed {
  /** Epoch ms of the last read of the file that gave flags (or found them unchanged). */
  readonly lastRead: number
  start(): void
  stop(): void
}

export function createOfflineFeed(options: OfflineFeedOptions): OfflineFeed {
  const { path, flags, logger, intervalMs, timers } = options
  let lastText: string | undefined = options.text
  let lastProblem: string | undefined
  let lastRead = Date.now()
  let timer: TimerHandle | undefined
  let stopped = false

  function problem(why: string): void {
    if (why === lastProblem) return
    lastProblem = why
    logger.error(`The offline file ${path} ${why}; the flags read from it last are still served`)
  }

  async function reload(): Promise<void> {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      lastText = undefined
      return problem(`could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
    }
    if (text === lastText) {
      if (lastProblem === undefined) lastRead = Date.now()
      return
    }
    lastText = text
    let parsed: ReturnType<typeof parseOfflineFlags>
    try {
      parsed = parseOfflineFlags(text)
    } catch (error) {
      return problem((error as Error).message)
    }
    flags.offer({ payload: parsed.payload, source: 'bootstrap' })
    lastRead = Date.now()
    if (lastProblem !== undefined)
      logger.warn(`The offline file ${path} reads as flags again: ${parsed.payload.features.length} flags served`)
    else logger.info(`Read ${parsed.payload.features.length} flags from the offline file ${path}`)
    lastProblem = undefined
  }

  function schedule(): void {
    if (stopped || intervalMs <= 0) return
    timer = timers.set(() => reload().finally(schedule), intervalMs, false)
  }

  return {
    get lastRead() {
      return lastRead
    },
    start: schedule,
    stop() {
      stopped = true
      if (timer) timers.clear(timer)
    },
  }
}
