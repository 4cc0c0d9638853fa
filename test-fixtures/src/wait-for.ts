/** Polls `probe` every 20 ms until it returns something truthy; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * The ms from `since` (default: now) until `check` holds, checking every `everyMs` (10; timed
 * checks need finer steps than waitFor's); throws naming `what` after `timeoutMs`.
 */
export async function timeUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 5_000, since = performance.now(), everyMs = 10 } = {},
): Promise<number> {
  while (!(await check())) {
    if (performance.now() - since > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  return performance.now() - since
}
