// `vexil start` prints an admin token, so the demo platform listens on this machine only unless
// HOST says otherwise (security review 2, finding 14); the container image sets HOST=0.0.0.0.
// Checked from outside: a connection to one of the machine's other addresses is refused.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { freePort } from '@vexil/test-fixtures/ports.ts'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const workdir = mkdtempSync(join(tmpdir(), 'vexil-platform-host-'))
afterAll(() => rmSync(workdir, { recursive: true, force: true }))

/** An IPv4 address of this machine other than loopback, if it has one. */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address

interface Platform {
  child: ChildProcess
  output: string
  ports: { proxy: number; service: number }
}

let running: Platform | undefined
afterEach(async () => {
  if (!running) return
  const exited = new Promise((resolve) => running!.child.on('exit', resolve))
  running.child.kill('SIGINT')
  await exited
  running = undefined
})

async function startPlatform(extraEnv: Record<string, string>): Promise<Platform> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
  const ports = { proxy: await freePort(), service: await freePort() }
  const child = spawn(process.execPath, [CLI, 'start'], {
    cwd: workdir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(ports.proxy),
      SERVICE_PORT: String(ports.service),
      SERVICE_METRICS_INTERVAL: '600000',
      STORAGE_FILE_DIRECTORY: workdir,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d))
  child.stderr!.on('data', (d: Buffer) => (output += d))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the platform did not start in time:\n${output}`)), 60_000)
    const poll = setInterval(() => {
      if (!output.includes('Press Ctrl-C to stop.')) return
      clearInterval(poll)
      clearTimeout(timer)
      resolve()
    }, 50)
    child.on('exit', (code) => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(new Error(`the platform exited with ${code}:\n${output}`))
    })
  })
  running = { child, output, ports }
  return running
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

describe('vexil start: the listening address', { timeout: 90_000 }, () => {
  it.runIf(otherAddress)('listens on 127.0.0.1 only by default, and says so', async () => {
    const { output, ports } = await startPlatform({})
    for (const port of [ports.proxy, ports.service]) {
      expect(await accepts('127.0.0.1', port)).toBe(true)
      expect(await accepts(otherAddress!, port)).toBe(false)
    }
    expect(output).toMatch(/Listening on:\s+127\.0\.0\.1 only \(HOST=0\.0\.0\.0 for every interface\)/)
    expect(output).toContain(`http://127.0.0.1:${ports.service}/`)
    expect(output).toContain(`http://127.0.0.1:${ports.proxy}/proxy`)
  })

  it.runIf(otherAddress)('with HOST=0.0.0.0 listens on every interface, and says so', async () => {
    const { output, ports } = await startPlatform({ HOST: '0.0.0.0' })
    expect(output).toMatch(/Listening on:\s+every interface \(HOST=0\.0\.0\.0\)/)
    expect(output).toContain(`http://127.0.0.1:${ports.proxy}/proxy`)
    for (const port of [ports.proxy, ports.service]) {
      expect(await accepts('127.0.0.1', port)).toBe(true)
      expect(await accepts(otherAddress!, port)).toBe(true)
    }
  })
})
