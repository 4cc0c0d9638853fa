/**
 * Resolves with the first SIGINT or SIGTERM, then stops listening for them, so a second signal
 * gets Node's default (the process ends) while the first one's graceful stop runs. Every command
 * that runs a server (vexil start, proxy, service) waits on this one promise.
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
