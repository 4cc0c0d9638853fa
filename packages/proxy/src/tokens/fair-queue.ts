// Secrets waiting for the upstream's answer, shared fairly between callers (security review 2,
// finding 7): one caller flooding made-up tokens fills only its own share. When the queue is
// full, a caller with fewer waiting secrets than the busiest caller takes the place of that
// caller's newest one (which is turned away), so a newcomer always gets in; and secrets are taken
// out round-robin over callers, so it is asked about in the next batch whatever waits before it.

interface FairQueue {
  /**
   * Queues `secret` for `caller`. Returns the secret turned away to make room (another caller's),
   * undefined when none was, or false when `secret` itself is turned away: the queue is full and
   * `caller` already has the largest share.
   */
  add(secret: string, caller: string): string | undefined | false
  has(secret: string): boolean
  /** Removes a secret, queued or not. */
  delete(secret: string): void
  /** Takes up to `n` secrets out, one per caller in turn. */
  take(n: number): string[]
  readonly size: number
}

export function createFairQueue(maxSize: number): FairQueue {
  /** Caller → its queued secrets, oldest first; Map order is the round-robin order. */
  const byCaller = new Map<string, string[]>()
  const callerOf = new Map<string, string>()

  function remove(secret: string): void {
    const caller = callerOf.get(secret)
    if (caller === undefined) return
    callerOf.delete(secret)
    const queued = byCaller.get(caller)!
    queued.splice(queued.lastIndexOf(secret), 1)
    if (queued.length === 0) byCaller.delete(caller)
  }

  function busiest(): string | undefined {
    let found: string | undefined
    let most = 0
    for (const [caller, queued] of byCaller) {
      if (queued.length > most) {
        most = queued.length
        found = caller
      }
    }
    return found
  }

  return {
    add(secret, caller) {
      if (callerOf.has(secret)) return undefined
      let displaced: string | undefined
      if (callerOf.size >= maxSize) {
        const victim = busiest()
        const own = byCaller.get(caller)?.length ?? 0
        if (victim === undefined || byCaller.get(victim)!.length <= own) return false
        displaced = byCaller.get(victim)!.at(-1)!
        remove(displaced)
      }
      const queued = byCaller.get(caller)
      if (queued) queued.push(secret)
      else byCaller.set(caller, [secret])
      callerOf.set(secret, caller)
      return displaced
    },
    has: (secret) => callerOf.has(secret),
    delete: remove,
    take(n) {
      const taken: string[] = []
      while (taken.length < n && byCaller.size > 0) {
        for (const [caller, queued] of [...byCaller]) {
          if (taken.length >= n) break
          const secret = queued.shift()!
          callerOf.delete(secret)
          taken.push(secret)
          // A caller served goes to the back of the turn.
          byCaller.delete(caller)
          if (queued.length > 0) byCaller.set(caller, queued)
        }
      }
      return taken
    },
    get size() {
      return callerOf.size
    },
  }
}
