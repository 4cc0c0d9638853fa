// A throwaway Redis for tests: Debian's `redis-server` on 127.0.0.1 and a free port, no
// persistence, in a temp folder, killed on stop. Under CI a missing binary is a failure, never
// a skip (`.ci/run` installs the package).
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isCI } from './ci.ts'
import { assertRunning, superviseChild } from './supervised-child.ts'
import { freePort } from './ports.ts'

const CANDIDATES = [process.env.REDIS_SERVER_PATH, '/usr/bin/redis-server', '/usr/local/bin/redis-server'].filter(
  Boolean,
) as string[]
const READY_TIMEOUT_MS = 10_000
const STOP_TIMEOUT_MS = 5_000

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string
  port: number
  stop(): Promise<void>
}

export function redisServerPath(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path))
}

/** Whether Redis tests can run here; under CI a missing `redis-server` throws instead of skipping. */
export function redisAvailable(): boolean {
  const path = redisServerPath()
  if (!path && isCI()) {
    throw new Error(
      "redis-server is required under CI: install Debian's redis-server package (see .ci/run) or set REDIS_SERVER_PATH",
    )
  }
  return path !== undefined
}

/**
 * Starts `redis-server` and resolves once it answers PING. `port` pins the port (to restart a
 * server where a client expects it); otherwise a free one is picked, retrying if another
 * process takes it first.
 */
export async function startRedis(options: { port?: number } = {}): Promise<RedisServer> {
  const bin = redisServerPath()
  if (!bin) throw new Error("redis-server not found: install Debian's redis-server package or set REDIS_SERVER_PATH")
  let lastError: unknown
  for (let attempt = 0; attempt < (options.port ? 1 : 3); attempt++) {
    const port = options.port ?? (await freePort())
    try {
      return await launch(bin, port)
    } catch (error) {
      lastError = error
    }
  }
  throw lastError
}

// --- Internal helpers ---

async function launch(bin: string, port: number): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'vexil-redis-'))
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const { stop } = await superviseChild(child, {
    name: `redis-server on port ${port}`,
    ready: () => waitForPong(port, child),
    stopTimeoutMs: STOP_TIMEOUT_MS,
    afterStop: () => rmSync(dir, { recursive: true, force: true }),
  })
  return { url: `redis://127.0.0.1:${port}`, port, stop }
}

async function waitForPong(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    assertRunning(child)
    if (await ping(port)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no PONG within ${READY_TIMEOUT_MS} ms`)
}

/** One inline `PING` over a raw socket: true when the server answers `+PONG`. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    let reply = ''
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1_000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      reply += chunk.toString()
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'))
    })
  })
}
