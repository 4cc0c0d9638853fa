// `npm start` (vexil start): the service on its embedded database plus the proxy syncing from
// it, with the printed curl line working as pasted, and Ctrl-C stopping both cleanly.
import { spawn, type ChildProcess } from 'node:child_process'
import { connect, createServer, type Socket } from 'node:net'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@vexil/test-fixtures/ports.ts'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const workdir = mkdtempSync(join(tmpdir(), 'vexil-platform-'))
afterAll(() => rmSync(workdir, { recursive: true, force: true }))

interface Started {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

function launch(ports: { proxy: number; service: number }, env: Record<string, string> = {}): Started {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
  const child = spawn(process.execPath, [CLI, 'start'], {
    cwd: workdir,
    // The proxy's backup goes to the work folder, not the machine's shared temp folder.
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(ports.proxy),
      SERVICE_PORT: String(ports.service),
      SERVICE_METRICS_INTERVAL: '600000',
      STORAGE_FILE_DIRECTORY: workdir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d))
  child.stderr!.on('data', (d: Buffer) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { child, output: () => output, exited }
}

/** Launches the platform and resolves once its banner is out. */
function start(ports: { proxy: number; service: number }): Promise<Started> {
  const { child, output, exited } = launch(ports)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the platform did not start in time:\n${output()}`)), 60_000)
    const poll = setInterval(() => {
      if (output().includes('Press Ctrl-C to stop.')) {
        clearInterval(poll)
        clearTimeout(timer)
        resolve({ child, output, exited })
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(new Error(`the platform exited with ${code}:\n${output()}`))
    })
  })
}

/** Runs the printed curl line's request (same header, same URL). */
/** Runs the `index`th curl line the platform printed (0: /proxy, 1: /api/frontend). */
async function curlLine(output: string, index = 0): Promise<Response> {
  const match = [...output.matchAll(/curl -H 'Authorization: ([^']+)' '([^']+)'/g)][index]
  if (!match) throw new Error(`no curl line ${index} in:\n${output}`)
  return fetch(match[2]!, { headers: { authorization: match[1]! } })
}

describe('vexil start', () => {
  const ports = { proxy: 0, service: 0 }
  beforeAll(async () => {
    ports.proxy = await freePort()
    ports.service = await freePort()
  })

  it('runs the service and the proxy, prints URLs, the client key and a working curl line; Ctrl-C stops both', async () => {
    const platform = await start(ports)
    const output = platform.output()
    expect(output).toContain(`http://127.0.0.1:${ports.service}/`)
    expect(output).toContain(`http://127.0.0.1:${ports.proxy}/proxy`)
    expect(output).toMatch(/Admin token:\s+\*:\*\./)
    expect(output).toMatch(/Proxy client key:\s+proxy-/)

    let res: Response | undefined
    for (let i = 0; i < 100 && res?.status !== 200; i++) {
      res = await curlLine(output)
      if (res.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(res!.status).toBe(200)
    const toggles = ((await res!.json()) as { toggles: Array<{ name: string }> }).toggles
    expect(toggles.length).toBeGreaterThan(0)
    expect((await fetch(`http://127.0.0.1:${ports.service}/health`)).status).toBe(200)
    // The frontend API, as Edge serves it, with the demo's frontend token: the same flags, from the
    // proxy's one sync (the frontend token's scope is the client token's).
    expect(output).toMatch(/Frontend token:\s+\*:development\./)
    const frontend = await curlLine(output, 1)
    expect(frontend.status).toBe(200)
    // The demo's gradual-* flags depend on a random sessionId per request (both APIs invent one).
    const steady = (list: Array<{ name: string }>) =>
      list.map((t) => t.name).filter((name) => !name.startsWith('gradual-'))
    expect(steady(((await frontend.json()) as { toggles: Array<{ name: string }> }).toggles)).toEqual(steady(toggles))
    // OFREP, at the URL printed, with the printed frontend token: every flag, the enabled ones true.
    const ofrepUrl = /OpenFeature \(OFREP\):\s+(\S+)/.exec(output)![1]!
    const frontendToken = /Frontend token:\s+(\S+)/.exec(output)![1]!
    const ofrep = await fetch(ofrepUrl, {
      method: 'POST',
      headers: { authorization: frontendToken, 'content-type': 'application/json' },
      body: '{"context":{"targetingKey":"42"}}',
    })
    expect(ofrep.status).toBe(200)
    const flags = ((await ofrep.json()) as { flags: Array<{ key: string; metadata?: { enabled: boolean } }> }).flags
    expect(steady(flags.filter((f) => f.metadata?.enabled).map((f) => ({ name: f.key })))).toEqual(steady(toggles))
    // The admin UI's setup snippets name the proxy it runs and its /proxy key (GET /api/admin/ui-config).
    const adminToken = /Admin token:\s+(\S+)/.exec(output)![1]!
    const uiConfig = await fetch(`http://127.0.0.1:${ports.service}/api/admin/ui-config`, {
      headers: { authorization: adminToken },
    })
    expect(((await uiConfig.json()) as { proxy: unknown }).proxy).toEqual({
      url: `http://127.0.0.1:${ports.proxy}`,
      clientKey: /Proxy client key:\s+(\S+)/.exec(output)![1],
    })

    platform.child.kill('SIGINT')
    expect(await platform.exited).toBe(0)
    expect(platform.output()).toContain('stopping the proxy')
  })

  it('a restart reuses the data folder: the same demo credentials, the same flags', async () => {
    const credentials = JSON.parse(readFileSync(join(workdir, '.vexil', 'data', 'demo-credentials.json'), 'utf8')) as {
      proxyClientKey: string
    }
    const platform = await start(ports)
    expect(platform.output()).toContain(credentials.proxyClientKey)
    let res: Response | undefined
    for (let i = 0; i < 100 && res?.status !== 200; i++) {
      res = await curlLine(platform.output())
      if (res.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(res!.status).toBe(200)
    platform.child.kill('SIGTERM')
    expect(await platform.exited).toBe(0)
  })

  it('a signal while the proxy waits for its first flags stops at once, without the banner', async () => {
    // A forward proxy that takes connections and never answers: the proxy's fetches hang.
    const held: Socket[] = []
    const blackHole = createServer((socket) => held.push(socket))
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve))
    const { port } = blackHole.address() as { port: number }
    // No backup of the flags: the earlier runs' would make it ready at once.
    const storage = mkdtempSync(join(workdir, 'storage-'))
    const platform = launch(ports, {
      HTTP_PROXY: `http://127.0.0.1:${port}`,
      SERVICE_METRICS_INTERVAL: '0',
      STORAGE_FILE_DIRECTORY: storage,
    })
    try {
      // Listening, and its first fetch held: it is in the wait (up to 10 s) before the banner.
      const listening = () =>
        new Promise<boolean>((resolve) =>
          connect(ports.proxy, '127.0.0.1')
            .on('connect', function (this: Socket) {
              this.destroy()
              resolve(true)
            })
            .on('error', () => resolve(false)),
        )
      const deadline = Date.now() + 40_000
      const exited = () => platform.child.exitCode !== null || platform.child.signalCode !== null
      while (!(held.length > 0 && (await listening()))) {
        if (Date.now() > deadline || exited()) throw new Error(platform.output())
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const signalled = Date.now()
      platform.child.kill('SIGTERM')
      const stopped = new Promise((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000).unref())
      expect(await Promise.race([platform.exited, stopped])).toBe(0)
      expect(Date.now() - signalled).toBeLessThan(8_000)
      expect(platform.output()).not.toContain('Vexil is running.')
      expect(held.length).toBeGreaterThan(0)
      expect(platform.output()).toContain('SIGTERM: stopping the proxy')
    } finally {
      platform.child.kill('SIGKILL')
      for (const socket of held) socket.destroy()
      await new Promise((resolve) => blackHole.close(resolve))
    }
  }, 70_000)
})
