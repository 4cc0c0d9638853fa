// The built proxy (`packages/proxy/dist/cli.js`, as users run it) under Node, Bun and Deno side by
// side (issue 23): GET /proxy with the 200-flag workload, wrk at 32 connections, every request a
// new user (no response-cache hits) and the 1,000 contexts repeating (cache hits). Rounds
// alternate the runtimes (the order turns each round) so the machine's noise hits all three;
// each runtime's req/s over Node's in the same round, median of the rounds, is the figure.
// Before timing, every runtime must answer a sample of requests exactly as Node does.
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { DENO_PERMISSIONS, runtimeAvailable, runtimeBinary, runtimeMissing } from '@vexil/test-fixtures/runtimes.ts'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import type { BudgetRow } from './budget.js'
import { median } from './measure.js'
import {
  asNewUser,
  newUserWrkScript,
  proxyGet,
  runWrk,
  type WrkResult,
  wrkOrSkip,
  wrkScript,
} from './proxy-http.bench.js'

const DURATION_S = Number(process.env.BENCH_RUNTIMES_SECONDS ?? 2)
const ROUNDS = Number(process.env.BENCH_RUNTIMES_ROUNDS ?? 3)
const CLI = fileURLToPath(new URL('../packages/proxy/dist/cli.js', import.meta.url))
const UPSTREAM = fileURLToPath(new URL('./servers/upstream.mjs', import.meta.url))
/** The tokens servers/upstream.mjs validates. */
const CLIENT_TOKEN = '*:development.bench-client'
const CLIENT_KEY = 'bench-key'

type Runtime = 'node' | 'bun' | 'deno'
type Workload = 'new users' | 'repeating contexts'

/** `node cli.js`, `bun cli.js`, `deno run <permissions> cli.js`. */
function command(runtime: Runtime): [string, string[]] {
  if (runtime === 'node') return [process.execPath, [CLI]]
  const binary = runtimeBinary(runtime)!
  return runtime === 'deno' ? [binary, ['run', ...DENO_PERMISSIONS, CLI]] : [binary, [CLI]]
}

/** The proxy under `runtime` on `port`, ready once it has the upstream's flags. */
async function startProxy(runtime: Runtime, port: number, upstreamPort: number): Promise<ChildProcess> {
  const [binary, args] = command(runtime)
  const child = spawn(binary, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVICE_URL: `http://127.0.0.1:${upstreamPort}/api`,
      SERVICE_API_TOKEN: CLIENT_TOKEN,
      SERVICE_PROXY_CLIENT_KEYS: CLIENT_KEY,
      SERVICE_INSTANCE_ID: `bench-${runtime}`,
      SERVICE_FETCH_INTERVAL: '60000',
      SERVICE_METRICS_INTERVAL: '0',
      STORAGE_PROVIDER: 'memory',
      RESPONSE_CACHE_SIZE: '10000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 30_000
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/internal-backstage/ready`).then(
      (res) => res.status,
      () => 0,
    )
    if (status === 200) return child
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the proxy under ${runtime} did not start (exit code ${child.exitCode})`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function stopProxy(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}

/** The answers to `paths`, for checking that every runtime answers as Node does before timing it. */
async function sample(port: number, paths: string[]): Promise<string[]> {
  const answers: string[] = []
  for (const path of paths) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: CLIENT_KEY } })
    answers.push(`${response.status} ${await response.text()}`)
  }
  return answers
}

export async function runRuntimesBench(): Promise<BudgetRow[]> {
  if (!wrkOrSkip('the runtimes benchmark')) return []
  const others = (['bun', 'deno'] as const).filter((runtime) => {
    if (runtimeAvailable(runtime)) return true
    console.log(
      `${runtimeMissing(runtime)}: ${runtime} is left out of the runtimes benchmark (under CI=true this fails)`,
    )
    return false
  })
  if (others.length === 0) return []
  const runtimes: Runtime[] = ['node', ...others]
  const dir = mkdtempSync(join(tmpdir(), 'vexil-bench-runtimes-'))
  writeFileSync(join(dir, 'payload.json'), JSON.stringify(makeFeatures(200)))
  const upstream = fork(UPSTREAM, [join(dir, 'payload.json')], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  try {
    const contexts = makeContexts(1000)
    const scripts: Record<Workload, string> = {
      'new users': join(dir, 'new-users.lua'),
      'repeating contexts': join(dir, 'repeating.lua'),
    }
    writeFileSync(scripts['new users'], newUserWrkScript(contexts.map(asNewUser).map(proxyGet)))
    writeFileSync(scripts['repeating contexts'], wrkScript(contexts.map(proxyGet)))
    const upstreamPort = await new Promise<number>((resolve, reject) => {
      upstream.once('message', (message) => resolve((message as { port: number }).port))
      upstream.once('exit', (code) => reject(new Error(`upstream.mjs exited with code ${code}`)))
    })
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const checked = contexts.slice(0, 20).map((context) => proxyGet(context).path)
    console.log(
      `Runtimes bench: ${runtimes.join(', ')}; GET /proxy, 32 connections, ${DURATION_S}s per run, ${ROUNDS} rounds`,
    )

    const results: Record<Runtime, Record<Workload, WrkResult[]>> = {
      node: { 'new users': [], 'repeating contexts': [] },
      bun: { 'new users': [], 'repeating contexts': [] },
      deno: { 'new users': [], 'repeating contexts': [] },
    }
    const ratios: Record<Runtime, Record<Workload, number[]>> = {
      node: { 'new users': [], 'repeating contexts': [] },
      bun: { 'new users': [], 'repeating contexts': [] },
      deno: { 'new users': [], 'repeating contexts': [] },
    }
    let nodeAnswers: string[] | undefined
    for (let round = 0; round < ROUNDS; round++) {
      // Node, Bun, Deno; then Bun, Deno, Node; ...: no runtime always runs first or last.
      const order = runtimes.map((_, i) => runtimes[(i + round) % runtimes.length]!)
      for (const runtime of order) {
        const child = await startProxy(runtime, port, upstreamPort)
        try {
          const answers = await sample(port, checked)
          nodeAnswers ??= runtime === 'node' ? answers : undefined
          if (runtime !== 'node' && nodeAnswers && answers.join('\n') !== nodeAnswers.join('\n'))
            throw new Error(`the proxy under ${runtime} answers the benchmark's requests differently from Node`)
          runWrk(url, scripts['new users'], 1) // warm-up: JIT
          for (const workload of ['new users', 'repeating contexts'] as const)
            results[runtime][workload].push(runWrk(url, scripts[workload], DURATION_S))
        } finally {
          await stopProxy(child)
        }
      }
      for (const runtime of others)
        for (const workload of ['new users', 'repeating contexts'] as const)
          ratios[runtime][workload].push(results[runtime][workload][round]!.rps / results.node[workload][round]!.rps)
    }

    const rps = (runtime: Runtime, workload: Workload) => median(results[runtime][workload].map((r) => r.rps))
    const p99 = (runtime: Runtime, workload: Workload) => median(results[runtime][workload].map((r) => r.p99Ms))
    const ratio = (runtime: Runtime, workload: Workload) => median(ratios[runtime][workload])
    console.log(
      '\n| runtime | new users req/s | p99 | ratio to Node | repeating req/s | p99 | ratio to Node |\n|---|---:|---:|---:|---:|---:|---:|',
    )
    for (const runtime of runtimes) {
      const cells = (['new users', 'repeating contexts'] as const).map(
        (w) =>
          `${rps(runtime, w).toFixed(0)} | ${p99(runtime, w).toFixed(2)} ms | ${runtime === 'node' ? '1' : ratio(runtime, w).toFixed(2)}`,
      )
      console.log(`| ${runtime} | ${cells.join(' | ')} |`)
    }
    const rows: BudgetRow[] = []
    for (const runtime of runtimes) {
      rows.push({
        metric: `GET /proxy, new users, ${runtime}: req/s (reference)`,
        value: rps(runtime, 'new users'),
        unit: 'req/s',
        kind: 'min',
        limit: 0,
        absolute: true,
      })
    }
    for (const runtime of others) {
      // Measured level with Node within noise (issue 23); half of Node's would mean a real
      // regression on that runtime. Throughput ratios are noisy on CI's 2-core machines, where
      // wrk and the proxy share the cores: enforced on a developer machine, reported in CI.
      rows.push(
        {
          metric: `GET /proxy, new users: ${runtime} req/s over Node's (median of ${ROUNDS} rounds)`,
          value: ratio(runtime, 'new users'),
          unit: 'x',
          kind: 'min',
          limit: 0.5,
          absolute: false,
          noisyInCI: true,
        },
        {
          metric: `GET /proxy, repeating contexts: ${runtime} req/s over Node's (median of ${ROUNDS} rounds)`,
          value: ratio(runtime, 'repeating contexts'),
          unit: 'x',
          kind: 'min',
          limit: 0.5,
          absolute: false,
          noisyInCI: true,
        },
      )
    }
    const errors = runtimes.reduce(
      (n, runtime) =>
        n +
        Object.values(results[runtime])
          .flat()
          .reduce((m, r) => m + r.non2xx, 0),
      0,
    )
    rows.push({
      metric: 'GET /proxy under every runtime: non-2xx answers',
      value: errors,
      unit: '',
      kind: 'max',
      limit: 0,
      absolute: false,
    })
    return rows
  } finally {
    upstream.kill('SIGINT')
    rmSync(dir, { recursive: true, force: true })
  }
}
