// `vexil health` and `vexil ready`, as Edge's: one GET of a running instance's
// /internal-backstage/health or /ready, exit 0 when it answers 200 (ready: with status READY),
// else 1 with one line saying why. Fast enough for an exec probe and the image's HEALTHCHECK.
import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { readCommandLine } from '@vexil/server-kit'

const TIMEOUT_MS = 5_000

const HELP = (command: string) => `Usage: vexil ${command} [--edge-url <url>] [--ca-certificate-file <file>]

Asks a running proxy (or Edge) whether it is ${command === 'health' ? 'up' : 'ready to serve flags'}: GET <url>/internal-backstage/${command}.
Exits 0 when it is, 1 otherwise with one line saying why.

Options:
  -e, --edge-url <url>               the instance (EDGE_URL; default http://localhost:3063)
  -c, --ca-certificate-file <file>   a CA to trust for an https URL (CA_CERTIFICATE_FILE)
  -h, --help                         Show this help.`

const PROBE_OPTIONS = {
  'edge-url': { type: 'string', short: 'e' },
  'ca-certificate-file': { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Runs `vexil health` or `vexil ready`; resolves with the exit code. */
export async function runProbe(
  command: 'health' | 'ready',
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const line = readCommandLine(`vexil ${command}`, argv, PROBE_OPTIONS)
  if ('refusal' in line) return fail(line.refusal, 2)
  const { values } = line
  if (values.help) {
    process.stdout.write(`${HELP(command)}\n`)
    return 0
  }
  const base = values['edge-url'] ?? (env.EDGE_URL || 'http://localhost:3063')
  const caFile = values['ca-certificate-file'] ?? (env.CA_CERTIFICATE_FILE || undefined)
  let url: URL
  try {
    url = new URL(base)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http')
  } catch {
    return fail(`Not ${command === 'health' ? 'healthy' : 'ready'}: --edge-url must be an http(s) URL, got "${base}"`)
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/internal-backstage/${command}`
  let ca: Buffer | undefined
  try {
    ca = caFile ? readFileSync(caFile) : undefined
  } catch (error) {
    return fail(
      `Not ${command === 'health' ? 'healthy' : 'ready'}: cannot read the CA certificate file ${caFile}: ${(error as Error).message}`,
    )
  }
  const answer = await get(url, ca)
  const problem = 'error' in answer ? answer.error : verdict(command, answer.status, answer.body)
  if (problem === undefined) return 0
  return fail(`Not ${command === 'health' ? 'healthy' : 'ready'}: ${url.href} ${problem}`)
}

// --- Internal helpers ---

/** Undefined when the answer says healthy (200) or ready (200 with Edge's `"status":"READY"`), else why not. */
function verdict(command: 'health' | 'ready', status: number, body: string): string | undefined {
  const summary = body.replace(/\s+/g, ' ').trim().slice(0, 200)
  if (status !== 200) return `answered ${status}${summary ? ` ${summary}` : ''}`
  if (command === 'health') return undefined
  try {
    const parsed = JSON.parse(body) as { status?: unknown }
    return parsed.status === 'READY'
      ? undefined
      : `answered 200 with status ${JSON.stringify(parsed.status)}, not "READY"`
  } catch {
    return `answered 200 with a body that is not JSON: ${summary}`
  }
}

function get(url: URL, ca: Buffer | undefined): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', ca, timeout: TIMEOUT_MS, headers: { accept: 'application/json' } },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          if (body.length < 4096) body += chunk
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        response.on('error', (error) => resolve({ error: `failed while answering: ${error.message}` }))
      },
    )
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)))
    request.on('error', (error) => resolve({ error: `could not be reached: ${error.message}` }))
    request.end()
  })
}

function fail(message: string, code = 1): number {
  process.stderr.write(`${message}\n`)
  return code
}
