// `vexil <command>` as a process: the help, dispatch to the proxy's and the service's CLIs, and
// their exit codes.
import { readFileSync } from 'node:fs'
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

  it('--version prints the version, for vexil and vexil proxy', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    const run = await vexil(['--version'])
    expect([run.code, run.stdout]).toEqual([0, `vexil ${version}\n`])
    const proxy = await vexil(['proxy', '--version'])
    expect([proxy.code, proxy.stdout]).toEqual([0, `vexil-proxy ${version}\n`])
  })

  it('vexil proxy: an unknown option, an argument or a bad --port exits 2 with one line', async () => {
    for (const [args, line] of [
      [
        ['--bogus'],
        'Invalid command line: --bogus is not an option of `vexil proxy` (vexil proxy --help lists the options)',
      ],
      [['-x'], 'Invalid command line: -x is not an option of `vexil proxy` (vexil proxy --help lists the options)'],
      [
        ['extra'],
        'Invalid command line: `vexil proxy` takes no arguments, got "extra" (vexil proxy --help lists the options)',
      ],
      [['--port'], 'Invalid command line: --port needs a value (vexil proxy --help lists the options)'],
      [['--help=x'], 'Invalid command line: --help takes no value (vexil proxy --help lists the options)'],
      [['--version='], 'Invalid command line: --version takes no value (vexil proxy --help lists the options)'],
      [
        ['--constructor'],
        'Invalid command line: --constructor is not an option of `vexil proxy` (vexil proxy --help lists the options)',
      ],
      [['--port', 'abc'], 'Invalid command line: --port must be a port number (0 to 65535), got "abc"'],
      [['--port', '70000'], 'Invalid command line: --port must be a port number (0 to 65535), got "70000"'],
    ] as const) {
      const run = await vexil(['proxy', ...args], { SERVICE_URL: 'http://127.0.0.1:1/api' })
      expect([run.code, run.stderr.trim().split('\n')]).toEqual([2, [line]])
    }
  })

  it('vexil start, service, health and ready refuse a command line in one line, exit 2', async () => {
    const hint = (command: string) => `(vexil ${command} --help lists the options)`
    for (const [args, line] of [
      [
        ['start', '--port', '5000'],
        `Invalid command line: --port is not an option of \`vexil start\` ${hint('start')}`,
      ],
      [['start', 'now'], `Invalid command line: \`vexil start\` takes no arguments, got "now" ${hint('start')}`],
      [
        ['service', '--bogus'],
        `Invalid command line: --bogus is not an option of \`vexil service\` ${hint('service')}`,
      ],
      [['service', '--port='], `Invalid command line: --port needs a value ${hint('service')}`],
      [['service', '--demo=no'], `Invalid command line: --demo takes no value ${hint('service')}`],
      [['service', '--port=-1'], 'Invalid command line: --port must be a port number (0 to 65535), got "-1"'],
      [
        ['service', '--data-dir', '--demo'],
        `Invalid command line: --data-dir needs a value, got the option "--demo" ${hint('service')}`,
      ],
      [['health', '--bogus'], `Invalid command line: --bogus is not an option of \`vexil health\` ${hint('health')}`],
      [['ready', '--edge-url'], `Invalid command line: --edge-url needs a value ${hint('ready')}`],
    ] as const) {
      const run = await vexil([...args])
      expect([args, run.code, run.stdout, run.stderr.trim().split('\n')]).toEqual([args, 2, '', [line]])
    }
  })

  it('vexil start --help prints its usage without starting anything; vexil service --version its version', async () => {
    const help = await vexil(['start', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: vexil start\n/)
    for (const name of ['SERVICE_URL', 'SERVICE_PORT', 'PORT', 'HOST', 'DATA_DIR']) expect(help.stdout).toContain(name)
    const { version } = JSON.parse(readFileSync(new URL('../../service/package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    const service = await vexil(['service', '--version'])
    expect([service.code, service.stdout]).toEqual([0, `vexil-service ${version}\n`])
  })

  it('vexil start refuses a SERVICE_PORT that is not a port, before starting anything', async () => {
    const run = await vexil(['start'], { SERVICE_PORT: 'http' })
    expect([run.code, run.stderr.trim().split('\n')]).toEqual([
      1,
      ['Invalid configuration: SERVICE_PORT must be a port number (0 to 65535), got "http"'],
    ])
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
