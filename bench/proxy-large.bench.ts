// The proxy with 10,000 flags (a ~400 KB /proxy/all-sized answer set): one request at a time,
// every request a new user (what one GET costs when it is evaluated), and the server's resident
// memory after a stretch of new-user traffic at 32 connections (issue 17). The server is the
// built package in its own process, as in proxy-http.bench.ts.
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import { type BudgetRow, inCI } from './budget.js'
import { newUserWrkScript, runWrk, startServer, stopServer, wrkAvailable } from './proxy-http.bench.js'

const FLAGS = 10_000
const LOAD_SECONDS = Number(process.env.BENCH_LARGE_LOAD_SECONDS ?? 20)

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
  return kb / 1024
}

export async function runProxyLargeBench(): Promise<BudgetRow[]> {
  if (!wrkAvailable()) {
    if (inCI) throw new Error('wrk is required for the HTTP benchmark under CI=true (apt-get install wrk; see .ci/run)')
    console.log('wrk not found: skipping the 10k-flag benchmark (apt-get install wrk)')
    return []
  }
  const dir = mkdtempSync(join(tmpdir(), 'vexil-bench-large-'))
  try {
    const payloadFile = join(dir, 'payload.json')
    writeFileSync(payloadFile, JSON.stringify(makeFeatures(FLAGS)))
    const requests = makeContexts(1000).map((c) => {
      const query = new URLSearchParams({ appName: c.appName!, userId: 'user-__N__', sessionId: '__N__' })
      for (const [key, value] of Object.entries(c.properties ?? {})) query.append(`properties[${key}]`, String(value))
      return { method: 'GET' as const, path: `/proxy?${query}` }
    })
    const script = join(dir, 'new-get.lua')
    writeFileSync(script, newUserWrkScript(requests))
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const started = Date.now()
    const server = await startServer('vexil.mjs', [String(port), payloadFile, '10000'])
    const startMs = Date.now() - started
    try {
      runWrk(url, script, 1, 1) // warm-up
      const single = runWrk(url, script, 3, 1)
      const load = runWrk(url, script, LOAD_SECONDS, 32)
      const rss = rssMb(server.pid!)
      console.log(`10k flags: one connection ${single.rps.toFixed(0)} req/s, p50 ${single.p50Ms} ms, p99 ${single.p99Ms} ms; 32 connections ${load.rps.toFixed(0)} req/s; RSS ${rss.toFixed(0)} MB after ${LOAD_SECONDS} s; server ready in ${startMs} ms`)
      return [
        { metric: 'GET /proxy, 10k flags, one connection, every request a new user: p50 latency', value: single.p50Ms, unit: 'ms', kind: 'max', limit: 5, absolute: true },
        { metric: 'GET /proxy, 10k flags, one connection: p99 latency (reference)', value: single.p99Ms, unit: 'ms', kind: 'max', limit: 1_000, absolute: true },
        { metric: `proxy RSS after ${LOAD_SECONDS} s of new-user GETs at 32 connections, 10k flags`, value: Math.round(rss), unit: 'MB', kind: 'max', limit: 100, absolute: true },
        { metric: 'GET /proxy, 10k flags: non-2xx answers', value: single.non2xx + load.non2xx, unit: '', kind: 'max', limit: 0, absolute: false },
      ]
    } finally {
      await stopServer(server)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
