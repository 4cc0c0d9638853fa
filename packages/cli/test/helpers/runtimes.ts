// The built packages run under Bun and Deno beside Node (issue 23): the command line each runtime
// needs, a script run to completion, a server started and stopped, and the skip rule (a missing
// runtime fails under CI, and skips with a line saying why elsewhere).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { fileURLToPath } from 'node:url'
import { DENO_PERMISSIONS, runtimeAvailable, runtimeBinary, runtimeMissing } from '@vexil/test-fixtures/runtimes.ts'
import { assertRunning, superviseChild } from '@vexil/test-fixtures/supervised-child.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'

export type Runtime = 'node' | 'bun' | 'deno'

/** The runtimes compared with Node. */
export const OTHER_RUNTIMES = ['bun', 'deno'] as const

const root = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url))

/** The built entry points the runtimes run, as users run them. */
export const BUILT = {
  engine: root('packages/engine/dist/index.js'),
  proxyCli: root('packages/proxy/dist/cli.js'),
  cli: root('packages/cli/dist/cli.js'),
} as const

/** Throws naming the missing file when the packages are not built. */
export function requireBuilt(...paths: string[]): void {
  for (const path of paths)
    if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build first (npm ci does)`)
}

/**
 * Whether the suites for `runtime` run here: always under CI (a missing binary throws there),
 * elsewhere only when it is installed, with a line saying why not.
 */
export function runtimeSuiteRuns(runtime: (typeof OTHER_RUNTIMES)[number], suite: string): boolean {
  if (runtimeAvailable(runtime)) return true
  console.warn(`[${suite}] ${runtimeMissing(runtime)}: the ${runtime} tests are skipped (they fail under CI=true).`)
  return false
}

/** The command and arguments that run `script` under `runtime`; Deno with the README's permissions. */
export function runtimeCommand(
  runtime: Runtime,
  script: string,
  args: readonly string[] = [],
): { command: string; args: string[] } {
  if (runtime === 'node') return { command: process.execPath, args: [script, ...args] }
  const binary = runtimeBinary(runtime)
  if (!binary) throw new Error(runtimeMissing(runtime))
  return runtime === 'deno'
    ? { command: binary, args: ['run', ...DENO_PERMISSIONS, script, ...args] }
    : { command: binary, args: [script, ...args] }
}

/**
 * The environment a runtime's process gets: only what is given, the PATH and HOME (Deno keeps
 * its caches under HOME), never the test runner's own variables (NODE_ENV, VITEST...).
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', ...(process.env.HOME ? { HOME: process.env.HOME } : {}), ...env }
}

/** Runs `script` under `runtime` to completion; resolves with its stdout, rejects with its stderr on a non-zero exit. */
export function runScript(
  runtime: Runtime,
  script: string,
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<string> {
  const { command, args: argv } = runtimeCommand(runtime, script, args)
  const child = spawn(command, argv, { env: childEnv({}), stdio: ['ignore', 'pipe', 'pipe'] })
  const stdout: Buffer[] = []
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'))
      else reject(new Error(`${runtime} ${script} exited with ${code ?? signal}:\n${stderr}`))
    })
  })
}

export interface RuntimeServer {
  runtime: Runtime
  /** What the process printed, stdout and stderr interleaved. */
  logs(): string
  /** SIGTERM (SIGKILL after 10 s); resolves with the exit code (null when killed by a signal). */
  stop(): Promise<number | null>
}

export interface StartOptions {
  env: Record<string, string>
  cwd: string
  /** Resolves once the server answers (called repeatedly until it does, for up to `startTimeoutMs`). */
  ready: (logs: string) => Promise<boolean>
  startTimeoutMs?: number
}

/** Starts `script args` under `runtime` and waits until `ready` holds; a server that never does is stopped and its output thrown. */
export async function startRuntimeServer(
  runtime: Runtime,
  script: string,
  args: readonly string[],
  options: StartOptions,
): Promise<RuntimeServer> {
  const { command, args: argv } = runtimeCommand(runtime, script, args)
  const child = spawn(command, argv, {
    cwd: options.cwd,
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // Read by `ready` while it starts (superviseChild keeps its own copy for its error message).
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  const supervised = await superviseChild(child, {
    name: `${runtime} ${script} ${args.join(' ')}`,
    stopTimeoutMs: 10_000,
    ready: () =>
      waitFor(
        async () => {
          assertRunning(child)
          return options.ready(output).catch(() => false)
        },
        `${runtime} to serve`,
        options.startTimeoutMs ?? 60_000,
      ).then(() => undefined),
  })
  return {
    runtime,
    logs: supervised.logs,
    stop: async () => {
      await supervised.stop()
      return child.exitCode
    },
  }
}

/** Whether `url` answers `status` (a readiness probe). */
export async function answers(url: string, status = 200, headers: Record<string, string> = {}): Promise<boolean> {
  const response = await fetch(url, { headers })
  await response.arrayBuffer()
  return response.status === status
}

export interface Sent {
  method: string
  path: string
  headers?: Record<string, string>
  /** Sent as is (a string as UTF-8). */
  body?: string | Buffer
}

export interface Answer {
  status: number
  /** Header names in lower case; a repeated header's values joined with `, `. */
  headers: Record<string, string>
  /** The body bytes as sent (not decompressed). */
  body: Buffer
}

export interface SendOptions {
  timeoutMs?: number
  /** For an answer that does not end (an event stream): what has arrived is the answer once this holds. */
  until?: (body: Buffer) => boolean
}

/**
 * One request with exactly the given headers on a fresh connection; resolves with the answer as
 * sent. A server that answers before the whole body is read (413) and closes may make the rest of
 * the upload fail: the answer that arrived is what counts.
 */
export function send(
  base: string,
  { method, path, headers = {}, body }: Sent,
  { timeoutMs = 15_000, until }: SendOptions = {},
): Promise<Answer> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    let answered = false
    const req = httpRequest({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      answered = true
      const chunks: Buffer[] = []
      const done = () => {
        const names: Record<string, string> = {}
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase()
          names[name] = name in names ? `${names[name]}, ${res.rawHeaders[i + 1]}` : res.rawHeaders[i + 1]!
        }
        resolve({ status: res.statusCode ?? 0, headers: names, body: Buffer.concat(chunks) })
      }
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        if (until?.(Buffer.concat(chunks))) {
          done()
          req.destroy()
        }
      })
      res.on('error', (error) => {
        if (!until) reject(error)
      })
      res.on('end', done)
    })
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} timed out`)))
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    req.end(body)
  })
}
