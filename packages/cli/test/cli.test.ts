// `vexil <command>` as a process: the help, dispatch to the proxy's and the service's CLIs, and
// their exit codes.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCommand } from './helpers/run-command.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

const vexil = (args: string[], env: Record<string, string> = {}) => runCommand(CLI, args, env)

describe('vexil', () => {
  it('--help lists the commands', async () => {
    const run = await vexil(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: vexil <command>/)
    for (const command of ['start', 'proxy', 'service']) expect(run.stdout).toContain(`  ${command} `)
  })

  it('an unknown command exits 1 with the help', async () => {
    const run = await vexil(['nope'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^Unknown command "nope"\.\n\nUsage: vexil <command>/)
  })

  it('vexil proxy: --help lists the configuration; a malformed variable exits 1 with one line', async () => {
    const help = await vexil(['proxy', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('SERVICE_URL, UNLEASH_URL')
    const bad = await vexil(['proxy'], {
      SERVICE_URL: 'http://127.0.0.1:1/api',
      SERVICE_API_TOKEN: 't',
      SERVICE_PROXY_CLIENT_KEYS: 'k',
      SERVICE_FETCH_INTERVAL: 'often',
    })
    expect(bad.code).toBe(1)
    expect(bad.stderr.trim().split('\n')).toEqual([
      'Invalid configuration: SERVICE_FETCH_INTERVAL must be a whole number, got "often"',
    ])
  })

  it('vexil start with SERVICE_URL runs only the proxy (its configuration errors included)', async () => {
    const run = await vexil(['start'], { SERVICE_URL: 'http://127.0.0.1:1/api' })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toMatch(/^Invalid configuration: SERVICE_API_TOKEN is required/)
  })

  it('vexil service: --help documents its options; a bad flag exits 2', async () => {
    const help = await vexil(['service', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: vexil service')
    expect((await vexil(['service', '--bogus'])).code).toBe(2)
  })
})
