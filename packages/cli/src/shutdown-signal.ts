// The platform's Ctrl-C: the first SIGINT or SIGTERM stops it.

/**
 * Resolves with the first SIGINT or SIGTERM. Both listeners are then removed, so a second
 * signal while stopping ends the process at once.
 */
export function nextShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      resolve(signal)
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
}
