// docs/configuration.md cannot drift from the code: every environment variable and command-line
// flag the packages read is in the reference, and the reference names nothing the code does not
// read. Variables are collected from the source text of every package's `src` tree (so modules
// can move between folders) in the shapes the configuration code uses; a new shape of read needs
// a pattern here, and the unit cases below show each one.
//
// Nothing is excluded. The variables the code reads from the system rather than as settings
// (HOSTNAME, USER, LOGNAME, NODE_OPTIONS) are in the reference's "Read from the system" table;
// the test- and benchmark-only ones (CI, BENCH_*) are read outside packages/*/src.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const REFERENCE = 'docs/configuration.md'

interface SourceFile {
  path: string
  text: string
}

const NAME = '[A-Z][A-Z0-9_]+'
const READS: readonly RegExp[] = [
  // process.env.NAME, env.NAME, env?.NAME, and the copy a Worker makes of its bindings (variables.NAME)
  new RegExp(`\\b(?:env|variables)\\??\\.(${NAME})\\b`, 'g'),
  // env['NAME']
  new RegExp(`\\b(?:env|variables)\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`, 'g'),
  // a parser given the environment and a name: integer(env, 'NAME', ...)
  new RegExp(`\\(\\s*env\\s*,\\s*['"](${NAME})['"]`, 'g'),
  // a settings table: { key: 'endpointsLimit', variable: 'NAME', fallback: 5 }
  new RegExp(`\\bvariable:\\s*['"](${NAME})['"]`, 'g'),
]
// A table of names where the first one set wins, serviceUrl: ['SERVICE_URL', 'UNLEASH_URL'], in a
// file that reads an environment (elsewhere such lists are HTTP methods or reason codes)
const NAME_LIST = new RegExp(`\\b\\w+:\\s*\\[\\s*((?:['"]${NAME}['"]\\s*,?\\s*)+)\\]`, 'g')
// command-line options, in files that read them (node:util's parseArgs, or server-kit's
// readCommandLine): port: { type: 'string' }, 'data-dir': { type: 'string' }
const FLAG = /['"]?([a-z][a-z-]*)['"]?\s*:\s*\{\s*type:\s*'(?:string|boolean)'/g

/** Source without its comment lines, which name variables without reading them. */
function code(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n')
}

function addTo(found: Map<string, Set<string>>, name: string, path: string): void {
  const paths = found.get(name) ?? new Set<string>()
  paths.add(path)
  found.set(name, paths)
}

/** Every environment variable the files read, with the files that read it. */
function variablesRead(files: readonly SourceFile[]): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const file of files) {
    const text = code(file.text)
    for (const pattern of READS) for (const match of text.matchAll(pattern)) addTo(found, match[1]!, file.path)
    if (!/\benv\b/.test(text)) continue
    for (const match of text.matchAll(NAME_LIST)) {
      for (const name of match[1]!.matchAll(new RegExp(`['"](${NAME})['"]`, 'g'))) addTo(found, name[1]!, file.path)
    }
  }
  return found
}

/**
 * Every `--flag` the files' parseArgs and readCommandLine calls accept, and the options of `vexil offline`, which
 * reads them from Edge's table (proxy/src/config/edge-options.ts: entries placed `offline`). The
 * table's other options are Edge's, listed in the reference's Edge section by variable.
 */
function flagsRead(files: readonly SourceFile[]): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const file of files) {
    const text = code(file.text)
    for (const match of text.matchAll(OFFLINE_OPTION)) addTo(found, match[1]!, file.path)
    if (!/\b(parseArgs|readCommandLine)\(/.test(text)) continue
    for (const match of text.matchAll(FLAG)) addTo(found, `--${match[1]}`, file.path)
  }
  return found
}

const OFFLINE_OPTION = /\{\s*flag: '(--[a-z-]+)',[^{}]*?place: 'offline'/g

/**
 * What the reference lists: the names in backquotes in the first two cells of its table rows
 * (the variable and its aliases, or a flag and its variable). Prose may mention other names.
 */
function referenceEntries(markdown: string): { variables: Set<string>; flags: Set<string> } {
  const variables = new Set<string>()
  const flags = new Set<string>()
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|') || /^\|[\s|:-]+\|$/.test(line)) continue
    const cells = line.split('|').slice(1, 3).join(' ')
    for (const [, token] of cells.matchAll(/`([^`]+)`/g)) {
      if (new RegExp(`^${NAME}$`).test(token!)) variables.add(token!)
      else if (/^--[a-z][a-z-]*$/.test(token!)) flags.add(token!)
    }
  }
  return { variables, flags }
}

/** One line per name the code reads and the reference lacks, and per name the reference lists that no code reads. */
function driftProblems(read: Map<string, Set<string>>, listed: Set<string>, kind: string): string[] {
  const problems: string[] = []
  for (const [name, paths] of [...read].sort(([a], [b]) => a.localeCompare(b))) {
    if (!listed.has(name))
      problems.push(`${kind} ${name} is read by ${[...paths].sort().join(', ')} but ${REFERENCE} lacks it`)
  }
  for (const name of [...listed].sort()) {
    if (!read.has(name)) problems.push(`${kind} ${name} is in ${REFERENCE} but no code reads it`)
  }
  return problems
}

function sourceFiles(): SourceFile[] {
  const files: SourceFile[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.[cm]?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        files.push({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') })
    }
  }
  for (const pkg of readdirSync(join(ROOT, 'packages'), { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue
    const src = join(ROOT, 'packages', pkg.name, 'src')
    try {
      walk(src)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return files
}

describe('the drift check', () => {
  const files: SourceFile[] = [
    {
      path: 'packages/x/src/config.ts',
      text: [
        '// env.IN_A_COMMENT is not a read',
        'const port = process.env.PORT ?? env?.HOST',
        "const limit = integer(env, 'LIMIT', 5) + Number(env['MAX_SIZE'])",
        "const SETTINGS = [{ key: 'rate', variable: 'RATE_PER_SECOND', fallback: 1 }]",
        "const ENV = { serviceUrl: ['SERVICE_URL', 'UNLEASH_URL'], port: ['PORT'] } as const",
        "const methods = 'GET, POST'",
        "parseArgs({ options: { port: { type: 'string' }, 'data-dir': { type: 'string' } } })",
      ].join('\n'),
    },
    {
      path: 'packages/x/src/cli.ts',
      text: "const OPTIONS = { demo: { type: 'boolean' } } as const\nreadCommandLine('x', argv, OPTIONS)",
    },
  ]

  it('collects every shape of read the configuration code uses', () => {
    expect([...variablesRead(files).keys()].sort()).toEqual([
      'HOST',
      'LIMIT',
      'MAX_SIZE',
      'PORT',
      'RATE_PER_SECOND',
      'SERVICE_URL',
      'UNLEASH_URL',
    ])
    expect([...flagsRead(files).keys()].sort()).toEqual(['--data-dir', '--demo', '--port'])
  })

  it('takes lists of names only from files that read an environment', () => {
    const routes = { path: 'packages/x/src/routes.ts', text: "const route = { methods: ['GET', 'HEAD'] }" }
    expect(variablesRead([routes]).size).toBe(0)
  })

  it('reads the reference from the first two cells of its tables only', () => {
    const markdown = [
      '| variable | aliases | default |',
      '|---|---|---:|',
      '| `PORT` | `PROXY_PORT` | `3000` (not `DEFAULT_NAME`) |',
      '',
      'Prose names `ELSEWHERE`.',
      '| `--port` | `PORT` | `3000` |',
    ].join('\n')
    expect(referenceEntries(markdown)).toEqual({
      variables: new Set(['PORT', 'PROXY_PORT']),
      flags: new Set(['--port']),
    })
  })

  it('fails naming what the reference lacks and what no code reads', () => {
    const read = new Map([
      ['PORT', new Set(['packages/x/src/config.ts'])],
      ['NEW_KNOB', new Set(['packages/x/src/config.ts', 'packages/y/src/a.ts'])],
    ])
    expect(driftProblems(read, new Set(['PORT', 'GONE']), 'variable')).toEqual([
      `variable NEW_KNOB is read by packages/x/src/config.ts, packages/y/src/a.ts but ${REFERENCE} lacks it`,
      `variable GONE is in ${REFERENCE} but no code reads it`,
    ])
    expect(driftProblems(read, new Set(['PORT', 'NEW_KNOB']), 'variable')).toEqual([])
  })
})

describe(REFERENCE, () => {
  const files = sourceFiles()
  const reference = referenceEntries(readFileSync(join(ROOT, REFERENCE), 'utf8'))

  it('reads the configuration code of the proxy, the service and the CLI', () => {
    const paths = files.map((file) => file.path)
    for (const pkg of ['proxy', 'service', 'cli'])
      expect(paths.some((path) => path.startsWith(`packages/${pkg}/src/`))).toBe(true)
    expect(variablesRead(files).size).toBeGreaterThan(60)
  })

  it('lists every environment variable the code reads, and none it does not', () => {
    expect(driftProblems(variablesRead(files), reference.variables, 'variable')).toEqual([])
  })

  it('lists every command-line flag the code reads, and none it does not', () => {
    expect(driftProblems(flagsRead(files), reference.flags, 'flag')).toEqual([])
  })
})
