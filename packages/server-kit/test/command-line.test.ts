// readCommandLine: what every `vexil` command accepts and refuses on its command line.
import { describe, expect, it } from 'vitest'
import { readCommandLine } from '../src/index.js'

const OPTIONS = {
  port: { type: 'string' },
  'data-dir': { type: 'string', short: 'd' },
  demo: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

const read = (...argv: string[]) => readCommandLine('vexil thing', argv, OPTIONS)
const refusal = (reason: string) => ({
  refusal: `Invalid command line: ${reason} (vexil thing --help lists the options)`,
})

describe('readCommandLine', () => {
  it('takes the options in their long and short forms, with = or a separate value', () => {
    expect(read()).toEqual({ values: {} })
    expect(read('--port', '80', '--data-dir=/tmp/x', '--demo', '-h')).toEqual({
      values: { port: '80', 'data-dir': '/tmp/x', demo: true, help: true },
    })
    expect(read('-d', 'here', '--port=0')).toEqual({ values: { 'data-dir': 'here', port: '0' } })
    expect(read('--port', '65535')).toEqual({ values: { port: '65535' } })
  })

  it.each([
    [['--bogus'], '--bogus is not an option of `vexil thing`'],
    [['-x'], '-x is not an option of `vexil thing`'],
    [['--constructor'], '--constructor is not an option of `vexil thing`'],
    [['--__proto__=1'], '--__proto__ is not an option of `vexil thing`'],
    [['extra'], '`vexil thing` takes no arguments, got "extra"'],
    [['--', '--port'], '`vexil thing` takes no arguments, got "--port"'],
    [['--port'], '--port needs a value'],
    [['--port='], '--port needs a value'],
    [['--data-dir', ''], '--data-dir needs a value'],
    [['--demo=yes'], '--demo takes no value'],
    [['--help='], '--help takes no value'],
    [['--data-dir', '--demo'], '--data-dir needs a value, got the option "--demo"'],
    [['-d', '-h'], '-d needs a value, got the option "-h"'],
    [['--port', '--help'], '--port needs a value, got the option "--help"'],
  ])('refuses %j in one line naming it', (argv, reason) => {
    expect(read(...argv)).toEqual(refusal(reason))
  })

  it.each(['abc', '-1', '65536', '1e3', '0x50', ' 80', '999999'])('refuses --port %j', (port) => {
    expect(read(`--port=${port}`)).toEqual({
      refusal: `Invalid command line: --port must be a port number (0 to 65535), got "${port}"`,
    })
  })

  it('takes a value that starts with "-" written with "=", and checks every --port given', () => {
    expect(read('--data-dir=-x')).toEqual({ values: { 'data-dir': '-x' } })
    expect(read('--port=x', '--port=1')).toEqual({
      refusal: 'Invalid command line: --port must be a port number (0 to 65535), got "x"',
    })
  })

  it('checks a port only for a command that has --port', () => {
    expect(readCommandLine('vexil x', ['--port', 'abc'], { help: { type: 'boolean' } })).toEqual({
      refusal: 'Invalid command line: --port is not an option of `vexil x` (vexil x --help lists the options)',
    })
  })
})
