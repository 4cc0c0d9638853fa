// How soon a dead worker is replaced: at once for the first few deaths in a window, then after a
// delay that doubles with every further death in it, up to a ceiling. A worker that crashes as
// it starts (a bad payload, a full disk) then costs one fork every maxDelayMs, not a busy loop.

interface RestartPolicyOptions {
  /** Deaths older than this are forgotten. */
  windowMs?: number
  /** Deaths in the window replaced at once. */
  immediate?: number
  baseDelayMs?: number
  maxDelayMs?: number
  now?: () => number
}

interface RestartPolicy {
  /** Records a death; returns how long to wait before forking its replacement (ms). */
  nextDelay(): number
}

export function createRestartPolicy(options: RestartPolicyOptions = {}): RestartPolicy {
  const { windowMs = 60_000, immediate = 3, baseDelayMs = 1_000, maxDelayMs = 30_000, now = Date.now } = options
  const deaths: number[] = []
  return {
    nextDelay() {
      const at = now()
      while (deaths.length > 0 && deaths[0]! <= at - windowMs) deaths.shift()
      const earlier = deaths.length
      deaths.push(at)
      if (earlier < immediate) return 0
      return Math.min(maxDelayMs, baseDelayMs * 2 ** (earlier - immediate))
    },
  }
}
