import type { InsightsTimers } from '../../src/insights/scheduler.js'

/** Timers that fire only when a test advances them, moving the test's clock with them. */
export interface ManualTimers extends InsightsTimers {
  /** Moves the clock forward by `ms`, firing (and awaiting) each timer that falls due, in order. */
  advance(ms: number): Promise<void>
  /** How many timers are set and not yet fired or cleared. */
  pending(): number
}

export function manualTimers(clock: { now: Date }): ManualTimers {
  let next = 1
  const timers = new Map<number, { at: number; callback: () => unknown }>()
  return {
    setTimeout(callback, ms) {
      const id = next++
      timers.set(id, { at: clock.now.getTime() + Math.max(0, ms), callback })
      return id
    },
    clearTimeout(handle) {
      timers.delete(handle as number)
    },
    async advance(ms) {
      const end = clock.now.getTime() + ms
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at)[0]
        if (!due) break
        const [id, timer] = due
        timers.delete(id)
        clock.now = new Date(Math.max(clock.now.getTime(), timer.at))
        await timer.callback()
      }
      clock.now = new Date(end)
    },
    pending: () => timers.size,
  }
}
