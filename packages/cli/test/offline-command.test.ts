// `vexil offline` as a process: the command reaches the proxy's offline mode (its help, its exit
// code for a file it cannot serve, and a first answer from a file); the mode itself is covered by
// @vexil/proxy's offline-mode.test.ts.
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const TOKEN = '*:development.command-test'
const folder = tempDir('offline-command')
afterAll(() => folder.remove())

function vexil(args: string[]) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d))
  child.stderr.on('data', (d: Buffer) => (output += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => (clearTimeout(timer), resolve(code))))
  return { child, exit, output: () => output }
}

describe('vexil offline', () => {
  it("--help describes Edge's offline options", async () => {
    const run = vexil(['offline', '--help'])
    expect(await run.exit).toBe(0)
    expect(run.output()).toMatch(/^Usage: vexil offline/)
    for (const option of ['--bootstrap-file', '--client-tokens', '--frontend-tokens', '--reload-interval'])
      expect(run.output()).toContain(option)
  })

  it('exits 1 naming a file it cannot read', async () => {
    const path = join(folder.path, 'missing.json')
    const run = vexil(['offline', '-b', path, '-c', TOKEN])
    expect(await run.exit).toBe(1)
    expect(run.output()).toContain(`Invalid configuration: BOOTSTRAP_FILE (${path}) could not be read`)
  })

  it("serves the file's flags to a listed token", async () => {
    const path = join(folder.path, 'flags.json')
    writeFileSync(path, JSON.stringify({ 'command.flag': { enabled: true } }))
    const port = await freePort()
    const run = vexil(['offline', '-b', path, '-c', TOKEN, '-p', String(port)])
    try {
      await waitFor(async () => /listening/.test(run.output()), 'vexil offline to listen', 15_000)
      const body = await (
        await fetch(`http://127.0.0.1:${port}/api/client/features`, { headers: { authorization: TOKEN } })
      ).json()
      expect(body.features.map((f: { name: string }) => f.name)).toEqual(['command.flag'])
    } finally {
      run.child.kill('SIGTERM')
      expect(await run.exit).toBe(0)
    }
  })

  it("takes Edge's global options before `offline` and refuses an option of `edge` after it", async () => {
    const path = join(folder.path, 'global.json')
    writeFileSync(path, JSON.stringify({ 'global.flag': { enabled: true } }))
    const wrong = vexil(['offline', '-b', path, '-c', TOKEN, '--upstream-url', 'http://127.0.0.1:1'])
    expect(await wrong.exit).toBe(2)
    expect(wrong.output()).toContain('Invalid command line: --upstream-url is not an option of `offline`')
    const port = await freePort()
    const run = vexil(['--port', String(port), '--interface', '127.0.0.1', 'offline', '-b', path, '-c', TOKEN])
    try {
      await waitFor(async () => /listening/.test(run.output()), 'vexil offline to listen', 15_000)
      const response = await fetch(`http://127.0.0.1:${port}/api/client/features`, {
        headers: { authorization: TOKEN },
      })
      expect(response.status).toBe(200)
    } finally {
      run.child.kill('SIGTERM')
      expect(await run.exit).toBe(0)
    }
  })
})
