// A server process a test fixture started: its output kept for error messages, a wait until it
// answers, and one stop (SIGTERM, then SIGKILL after a grace period) however often it is asked.
import type { ChildProcess } from 'node:child_process'

export interface SupervisedChild {
  /** What the process printed (the last `logLimit` characters). */
  logs(): string
  /** Stops the process (and runs `afterStop`); the same promise for every call. */
  stop(): Promise<void>
}

export interface SuperviseOptions {
  /** For the error message: `redis-server on port 6379`. */
  name: string
  /** Resolves once the process serves; rejects (or the process exits) otherwise. */
  ready: () => Promise<void>
  stopTimeoutMs: number
  logLimit?: number
  afterStop?: () => void
}

/** Resolves once `child` is ready; if it never is, stops it and rejects with its output. */
export async function superviseChild(child: ChildProcess, options: SuperviseOptions): Promise<SupervisedChild> {
  const limit = options.logLimit ?? Number.POSITIVE_INFINITY
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
    if (output.length > limit) output = output.slice(-limit)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let stopped: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopped ??= terminate(child, exited, options.stopTimeoutMs).finally(() => options.afterStop?.())
    return stopped
  }
  try {
    await options.ready()
  } catch (error) {
    await stop()
    throw new Error(`${options.name} did not start: ${(error as Error).message}\n${output}`)
  }
  return { logs: () => output, stop }
}

/** Throws when `child` has exited (for readiness loops). */
export function assertRunning(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`exited with ${child.exitCode ?? child.signalCode}`)
}

async function terminate(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}
