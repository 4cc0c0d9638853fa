import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runServiceCli } from '../src/cli.js'
import { ConfigError, parseServiceConfig } from '../src/config.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const ADMIN_TOKEN = '*:*.cli-test-secret-0123456789abcdef0123'

describe('configuration', () => {
  it('defaults: port 4242, PGlite in ./.vexil/data', () => {
    const config = parseServiceConfig({})
    expect(config).toMatchObject({ port: 4242, databaseUrl: undefined, initAdminTokens: [], initClientTokens: [] })
    expect(config.dataDir).toBe(`${process.cwd()}/.vexil/data`)
  })

  it('reads PORT, DATABASE_URL, DATA_DIR and the INIT_* tokens', () => {
    const [a1, a2, c1] = ['a1', 'a2', 'c1'].map((seed) => seed.repeat(16))
    const config = parseServiceConfig({
      PORT: '5000',
      DATABASE_URL: 'postgres://x/y',
      DATA_DIR: '/tmp/d',
      INIT_ADMIN_API_TOKENS: `*:*.${a1}, *:*.${a2}`,
      INIT_CLIENT_API_TOKENS: `default:development.${c1}`,
    })
    expect(config).toMatchObject({ port: 5000, databaseUrl: 'postgres://x/y', dataDir: '/tmp/d' })
    expect(config.initAdminTokens.map((t) => t.secret)).toEqual([a1, a2])
    expect(config.initClientTokens).toEqual([{ project: 'default', environment: 'development', secret: c1 }])
  })

  it('names every bad variable in one error', () => {
    try {
      parseServiceConfig({
        PORT: 'abc',
        LOG_LEVEL: 'loud',
        INIT_CLIENT_API_TOKENS: 'no-form',
        INIT_ADMIN_API_TOKENS: 'default:development.x',
      })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      const message = (error as Error).message
      for (const name of ['PORT', 'LOG_LEVEL', 'INIT_CLIENT_API_TOKENS', 'INIT_ADMIN_API_TOKENS'])
        expect(message).toContain(name)
    }
  })
})

describe('runServiceCli', () => {
  it('--help documents the options', async () => {
    const lines: string[] = []
    expect(await runServiceCli(['--help'], { log: (line: string) => lines.push(line), error: () => {} })).toBe(0)
    for (const option of ['--port', '--database-url', '--data-dir', 'DATABASE_URL', 'INIT_ADMIN_API_TOKENS'])
      expect(lines.join('\n')).toContain(option)
  })

  it('refuses unknown flags and bad ports with exit code 2', async () => {
    const quiet = { log: () => {}, error: () => {} }
    expect(await runServiceCli(['--bogus'], quiet)).toBe(2)
    expect(await runServiceCli(['--port', 'x'], quiet)).toBe(2)
  })

  it('runs as a process, and SIGINT stops it cleanly with its data flushed', async () => {
    const data = tempDir('cli')
    const run = async (signal: NodeJS.Signals) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', CLI, '--port', '0', '--host', '127.0.0.1', '--data-dir', data.path],
        {
          env: { ...process.env, INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
      while (!/listening on (\S+) /.test(output)) {
        if (child.exitCode !== null) throw new Error(output)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const url = (/listening on (\S+) /.exec(output) as RegExpExecArray)[1] as string
      // Listening on loopback only: the line does not claim other interfaces.
      expect(output).not.toMatch(/every other interface/)
      const exited = once(child, 'exit')
      return {
        url,
        stop: async () => {
          child.kill(signal)
          const [code] = await exited
          return { code, output }
        },
      }
    }
    try {
      const first = await run('SIGINT')
      const made = await fetch(`${first.url}/api/admin/projects`, {
        method: 'POST',
        headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'kept', name: 'Kept' }),
      })
      expect(made.status).toBe(201)
      const stopped = await first.stop()
      expect(stopped.code, stopped.output).toBe(0)
      expect(stopped.output).toContain('SIGINT received')
      expect(stopped.output).toContain(`Admin UI: ${first.url}/ `)

      const second = await run('SIGTERM')
      const projects = await (
        await fetch(`${second.url}/api/admin/projects`, { headers: { authorization: ADMIN_TOKEN } })
      ).json()
      expect(projects.projects.map((p: { id: string }) => p.id)).toContain('kept')
      expect((await second.stop()).code).toBe(0)
    } finally {
      data.remove()
    }
  }, 60_000)
})
