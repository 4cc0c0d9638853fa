// How every `vexil` command reads its command line. node:util's parseArgs is read loosely and
// each argument checked here: in strict mode it throws messages that change between Node's
// versions, and takes a value for a switch (`--help=x`) or none for an option (`--port=`).
import { parseArgs } from 'node:util'

export interface CommandLineOption {
  type: 'string' | 'boolean'
  short?: string
}

/** The options given, by name, or why the command line is refused (one line, naming the argument). */
export type CommandLine<Options extends Record<string, CommandLineOption>> =
  | { values: { [Name in keyof Options]?: Options[Name]['type'] extends 'string' ? string : boolean } }
  | { refusal: string }

/**
 * Reads `argv` for `command` (as the user types it: "vexil service"). Refused: an argument, an
 * option the command does not have, an option without its value (the next option is none), a
 * switch with one, and a `port` option that is not a port number.
 */
export function readCommandLine<Options extends Record<string, CommandLineOption>>(
  command: string,
  argv: readonly string[],
  options: Options,
): CommandLine<Options> {
  const { values, tokens } = parseArgs({ args: [...argv], options, strict: false, tokens: true })
  for (const token of tokens) {
    const reason = refusalOf(command, token, options)
    if (reason) return { refusal: `Invalid command line: ${reason} (${command} --help lists the options)` }
    if (token.kind === 'option' && token.name === 'port' && !isPort(token.value!))
      return { refusal: `Invalid command line: --port must be a port number (0 to 65535), got "${token.value}"` }
  }
  return { values: values as Extract<CommandLine<Options>, { values: unknown }>['values'] }
}

/** Whether `text` is a port number as a user writes one: 0 to 65535 in decimal digits. */
export const isPort = (text: string): boolean => /^\d{1,5}$/.test(text) && Number(text) <= 65_535

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number]

function refusalOf(command: string, token: Token, options: Record<string, CommandLineOption>): string | undefined {
  if (token.kind === 'positional') return `\`${command}\` takes no arguments, got "${token.value}"`
  if (token.kind !== 'option') return undefined
  if (!Object.hasOwn(options, token.name)) return `${token.rawName} is not an option of \`${command}\``
  const { type } = options[token.name]!
  if (type === 'string' && (token.value === undefined || token.value === '')) return `${token.rawName} needs a value`
  // `--data-dir --demo`: the next option, not a value (a value that starts with "-" is written
  // `--data-dir=-x`).
  if (type === 'string' && !token.inlineValue && token.value!.startsWith('-'))
    return `${token.rawName} needs a value, got the option "${token.value}"`
  if (type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`
  return undefined
}
