// WORKERS=1 and WORKERS=2 side by side (issue 17, "every core"): the built `vexil proxy` with one
// process, then with two workers behind one port, under the every-request-a-new-user GET /proxy
// workload of proxy-http.bench.ts (200 flags, wrk at 32 connections). Rounds alternate the two so
// the machine's noise hits both; medians are reported. Report-only: on a 2-core machine wrk takes
// one core, so two workers share the other with the primary and wrk, and may not scale at all;
// the figures say what a second worker buys on the machine at hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import type { BudgetRow } from './budget.js'
import { median } from './measure.js'
import {
  asNewUser,
  newUserWrkScript,
  proxyGet,
  runWrk,
  startServer,
  stopServer,
  type WrkResult,
  wrkOrSkip,
} from './proxy-http.bench.js'

const DURATION_S = Number(process.env.BENCH_HTTP_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_WORKERS_ROUNDS ?? 3)
const WORKER_COUNTS = [1, 2] as const

export async function runProxyWorkersBench(): Promise<BudgetRow[]> {
  if (!wrkOrSkip('the workers benchmark')) return []
  const dir = mkdtempSync(join(tmpdir(), 'vexil-bench-workers-'))
  try {
    const payloadFile = join(dir, 'payload.json')
    writeFileSync(payloadFile, JSON.stringify(makeFeatures(200)))
    // Every request a new user: a userId, sessionId and email never seen before (no response-cache hits).
    const requests = makeContexts(1000).map(asNewUser).map(proxyGet)
    const script = join(dir, 'new-get.lua')
    writeFileSync(script, newUserWrkScript(requests))
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    console.log(
      `Workers bench: GET /proxy, every request a new user, 32 connections, ${DURATION_S}s per run, ${ROUNDS} rounds`,
    )

    const results: Record<number, WrkResult[]> = { 1: [], 2: [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (const workers of WORKER_COUNTS) {
        const server = await startServer('vexil-workers.mjs', [String(port), payloadFile, String(workers)])
        try {
          runWrk(url, script, 1) // warm-up: JIT in every worker
          results[workers]!.push(runWrk(url, script))
        } finally {
          await stopServer(server)
        }
      }
    }
    const rps = (workers: number) => median(results[workers]!.map((r) => r.rps))
    const p99 = (workers: number) => median(results[workers]!.map((r) => r.p99Ms))
    const ratio = median(results[2]!.map((r, round) => r.rps / results[1]![round]!.rps))
    console.log(
      `\n| WORKERS | req/s | p99 |\n|---|---:|---:|\n| 1 | ${rps(1).toFixed(0)} | ${p99(1).toFixed(2)} ms |\n| 2 | ${rps(2).toFixed(0)} | ${p99(2).toFixed(2)} ms |`,
    )
    const errors = WORKER_COUNTS.reduce((n, workers) => n + results[workers]!.reduce((m, r) => m + r.non2xx, 0), 0)
    // Report-only (limits 0 and Infinity): what scaling there is depends on the cores wrk leaves free.
    return [
      {
        metric: 'GET /proxy, new users, WORKERS=1: req/s (reference)',
        value: rps(1),
        unit: 'req/s',
        kind: 'min',
        limit: 0,
        absolute: true,
      },
      {
        metric: 'GET /proxy, new users, WORKERS=1: p99 latency (reference)',
        value: p99(1),
        unit: 'ms',
        kind: 'max',
        limit: Number.POSITIVE_INFINITY,
        absolute: true,
      },
      {
        metric: 'GET /proxy, new users, WORKERS=2: req/s (reference)',
        value: rps(2),
        unit: 'req/s',
        kind: 'min',
        limit: 0,
        absolute: true,
      },
      {
        metric: 'GET /proxy, new users, WORKERS=2: p99 latency (reference)',
        value: p99(2),
        unit: 'ms',
        kind: 'max',
        limit: Number.POSITIVE_INFINITY,
        absolute: true,
      },
      {
        metric: `WORKERS=2 req/s over WORKERS=1 (median of ${ROUNDS} rounds, reference)`,
        value: ratio,
        unit: 'x',
        kind: 'min',
        limit: 0,
        absolute: true,
      },
      {
        metric: 'GET /proxy, WORKERS=1 and 2: non-2xx answers',
        value: errors,
        unit: '',
        kind: 'max',
        limit: 0,
        absolute: false,
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
