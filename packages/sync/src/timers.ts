// Timers behind one small interface, so the same sync code runs where timers live (Node, Bun,
// Deno: the runtime's setTimeout) and where they do not (a Cloudflare Worker, whose timers end
// with the request that set them: there, a list of due tasks that the Worker runs after answering
// each request, with waitUntil, and on its cron trigger).

export interface Timers {
  /**
   * Calls `task` after `ms`; what it returns (the work it started) is what the Worker waits for.
   * `keepAlive: false` lets a Node process exit while it is pending.
   */
  set(task: () => unknown, ms: number, keepAlive?: boolean): TimerHandle
  clear(handle: TimerHandle): void
}

/** Opaque: what `set` returned, for `clear`. */
export type TimerHandle = { readonly timer: unknown }

/** The runtime's own timers (the default). */
export const systemTimers: Timers = {
  set(task, ms, keepAlive = true) {
    const timer = setTimeout(task, ms)
    if (!keepAlive && typeof timer === 'object') timer.unref?.()
    return { timer }
  },
  clear(handle) {
    clearTimeout(handle.timer as ReturnType<typeof setTimeout>)
  },
}

/** Timers that fire only when asked: `runDue` runs the tasks due by then. */
export interface DueTimers extends Timers {
  /** Runs each task due by `now` once, and resolves when the work they returned has settled. */
  runDue(now?: number): Promise<void>
  /** Epoch ms when the next task is due; undefined when none is set. */
  readonly nextDue: number | undefined
  /** Tasks set and not yet run or cleared. */
  readonly pending: number
}

export function createDueTimers(clock: () => number = Date.now): DueTimers {
  const tasks = new Map<TimerHandle, { at: number; task: () => unknown }>()
  return {
    set(task, ms) {
      const handle: TimerHandle = { timer: undefined }
      tasks.set(handle, { at: clock() + Math.max(0, ms), task })
      return handle
    },
    clear(handle) {
      tasks.delete(handle)
    },
    async runDue(now = clock()) {
      // Only what is due now: a task that sets another for "now" runs on the next call.
      const due = [...tasks].filter(([, entry]) => entry.at <= now).sort((a, b) => a[1].at - b[1].at)
      const work: unknown[] = []
      for (const [handle, entry] of due) {
        tasks.delete(handle)
        try {
          work.push(entry.task())
        } catch (error) {
          work.push(Promise.reject(error))
        }
      }
      await Promise.allSettled(work)
    },
    get nextDue() {
      let next: number | undefined
      for (const { at } of tasks.values()) if (next === undefined || at < next) next = at
      return next
    },
    get pending() {
      return tasks.size
    },
  }
}
