// 1,000 server SDKs streaming from one proxy (issue 18): the built proxy in a process of its
// own follows a streaming upstream (servers/streaming-upstream.mjs, another process) and serves
// /api/client/streaming to 1,000 connections opened by this process, each a real SSE reader.
//
// - Fan-out: the time from the upstream sending a change until every one of the 1,000 streams
//   has received it (arrival times are taken in this process's data handlers, so its own
//   queueing of 1,000 sockets is counted too), over BENCH_STREAMS_CHANGES changes.
// - /proxy throughput with the streams open against without, rounds alternating (wrk, every
//   request a new user, the 200-flag workload).
// - Soak: the streams stay open BENCH_STREAMS_SOAK_S seconds (300) with a change every 5 s; the
//   proxy's RSS is sampled every 5 s, and no change may be lost on any stream.
import { type ChildProcess, fork } from 'node:child_process'
import { request } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEventStreamParser } from '@vexil/sync'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import type { BudgetRow } from './budget.js'
import { median } from './measure.js'
import {
  asNewUser,
  newUserWrkScript,
  proxyGet,
  runWrk,
  serverStats,
  startServer,
  stopServer,
  type WrkResult,
  wrkOrSkip,
} from './proxy-http.bench.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1_000)
const CHANGES = Number(process.env.BENCH_STREAMS_CHANGES ?? 20)
const SOAK_S = Number(process.env.BENCH_STREAMS_SOAK_S ?? 300)
const ROUNDS = Number(process.env.BENCH_STREAMS_ROUNDS ?? 3)
const SOAK_CHANGE_EVERY_MS = 5_000
const CLIENT_TOKEN = '*:development.bench-client'

interface StreamClient {
  /** `unleash-updated` messages received, and when each arrived (performance.now()). */
  readonly arrivals: number[]
  readonly open: boolean
  close(): void
}

/** Opens one stream; resolves once its `unleash-connected` has arrived. */
function openClient(port: number): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const arrivals: number[] = []
    let open = true
    const client: StreamClient = {
      arrivals,
      get open() {
        return open
      },
      close: () => req.destroy(),
    }
    const parse = createEventStreamParser((message) => {
      if (message.event === 'unleash-connected') resolve(client)
      else if (message.event === 'unleash-updated') arrivals.push(performance.now())
    })
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/client/streaming',
        headers: { authorization: CLIENT_TOKEN },
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`/api/client/streaming answered ${res.statusCode}`))
        res.setEncoding('utf8')
        res.on('data', parse)
        res.on('close', () => (open = false))
      },
    )
    req.on('error', (error) => {
      open = false
      reject(error)
    })
    req.end()
  })
}

async function openClients(port: number, count: number): Promise<StreamClient[]> {
  const clients: StreamClient[] = []
  // 100 at a time: each connect sends a hydration of every flag.
  for (let i = 0; i < count; i += 100)
    clients.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, () => openClient(port)))))
  return clients
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Sends change `n` upstream; resolves with the ms until every client has it (Infinity past `timeoutMs`). */
async function fanOut(upstream: ChildProcess, clients: StreamClient[], n: number, timeoutMs = 10_000): Promise<number> {
  const before = clients.map((client) => client.arrivals.length)
  const sent = performance.now()
  upstream.send({ change: n })
  while (clients.some((client, i) => client.arrivals.length <= before[i]!)) {
    if (performance.now() - sent > timeoutMs) return Number.POSITIVE_INFINITY
    await sleep(1)
  }
  return Math.max(...clients.map((client, i) => client.arrivals[before[i]!]!)) - sent
}

export async function runProxyStreamsBench(): Promise<BudgetRow[]> {
  if (!wrkOrSkip('the streams benchmark')) return []
  const dir = mkdtempSync(join(tmpdir(), 'vexil-bench-streams-'))
  writeFileSync(join(dir, 'payload.json'), JSON.stringify(makeFeatures(200)))
  const upstream = fork(join(here, 'servers', 'streaming-upstream.mjs'), [join(dir, 'payload.json')], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  let proxy: ChildProcess | undefined
  let clients: StreamClient[] = []
  try {
    const script = join(dir, 'new-get.lua')
    writeFileSync(script, newUserWrkScript(makeContexts(1000).map(asNewUser).map(proxyGet)))
    const { port: upstreamPort } = await new Promise<{ port: number }>((resolve) =>
      upstream.once('message', (message) => resolve(message as { port: number })),
    )
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    proxy = await startServer('vexil-streaming.mjs', [String(port), `http://127.0.0.1:${upstreamPort}/api`])
    console.log(
      `Streams bench: ${STREAMS} SDK streams on one proxy; ${CHANGES} changes; /proxy (new users, wrk 32 connections) with and without them, ${ROUNDS} rounds; soak ${SOAK_S} s`,
    )

    // Throughput, rounds alternating: without streams, then with them.
    const without: WrkResult[] = []
    const withStreams: WrkResult[] = []
    runWrk(url, script, 1) // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      without.push(runWrk(url, script))
      clients = await openClients(port, STREAMS)
      withStreams.push(runWrk(url, script))
      if (round < ROUNDS - 1) {
        for (const client of clients) client.close()
        await sleep(200)
      }
    }
    const ratio = median(withStreams.map((r, round) => r.rps / without[round]!.rps))

    // Fan-out, with every stream open.
    let change = 1
    const fanOuts: number[] = []
    for (let i = 0; i < CHANGES; i++) {
      fanOuts.push(await fanOut(upstream, clients, change++))
      await sleep(100)
    }

    // Soak: a change every 5 s, the proxy's RSS every 5 s.
    const rss: number[] = []
    const soakEnd = performance.now() + SOAK_S * 1000
    const soakFanOuts: number[] = []
    while (performance.now() < soakEnd) {
      soakFanOuts.push(await fanOut(upstream, clients, change++))
      rss.push((await serverStats<{ memory: NodeJS.MemoryUsage }>(proxy)).memory.rss / 1024 / 1024)
      await sleep(Math.max(0, Math.min(SOAK_CHANGE_EVERY_MS, soakEnd - performance.now())))
    }
    const expected = change - 1
    const lost = clients.reduce((sum, client) => sum + Math.max(0, expected - client.arrivals.length), 0)
    const closed = clients.filter((client) => !client.open).length
    const { streams } = await serverStats<{ streams: number }>(proxy)
    // RSS: the first minute's median against the last minute's (a third of the soak each when shorter).
    const span = Math.max(1, Math.min(12, Math.floor(rss.length / 3)))
    const rssFirst = median(rss.slice(0, span))
    const rssLast = median(rss.slice(-span))

    const ms = (v: number) => `${v.toFixed(0)} ms`
    console.log(`\n| ${STREAMS} streams | value |\n|---|---:|`)
    console.log(
      `| fan-out of a change to all, median / max of ${CHANGES} | ${ms(median(fanOuts))} / ${ms(Math.max(...fanOuts))} |`,
    )
    console.log(
      `| fan-out during the soak, median / max of ${soakFanOuts.length} | ${ms(median(soakFanOuts))} / ${ms(Math.max(...soakFanOuts))} |`,
    )
    console.log(
      `| /proxy req/s without / with the streams (medians) | ${median(without.map((r) => r.rps)).toFixed(0)} / ${median(withStreams.map((r) => r.rps)).toFixed(0)} |`,
    )
    console.log(
      `| proxy RSS, first / last minute of the soak (${rss.length} samples over ${SOAK_S} s) | ${rssFirst.toFixed(1)} / ${rssLast.toFixed(1)} MB |`,
    )
    console.log(`| streams open at the end (proxy's count / clients') | ${streams} / ${STREAMS - closed} |`)
    return [
      {
        metric: `a change reaches all ${STREAMS} streams: max of ${CHANGES + soakFanOuts.length}`,
        value: Math.max(...fanOuts, ...soakFanOuts),
        unit: 'ms',
        kind: 'max',
        limit: 1_000,
        absolute: true,
      },
      {
        metric: `a change reaches all ${STREAMS} streams: median of ${CHANGES}`,
        value: median(fanOuts),
        unit: 'ms',
        kind: 'max',
        limit: 1_000,
        absolute: true,
      },
      {
        metric: `changes lost or streams closed, over ${expected} changes x ${STREAMS} streams`,
        value: lost + closed + (STREAMS - streams),
        unit: '',
        kind: 'max',
        limit: 0,
        absolute: false,
      },
      {
        metric: `proxy RSS, last minute of a ${SOAK_S} s soak over the first`,
        value: rssLast / rssFirst,
        unit: 'x',
        kind: 'max',
        limit: 1.1,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: `GET /proxy req/s, new users, with ${STREAMS} streams open over without (median of ${ROUNDS} rounds)`,
        value: ratio,
        unit: 'x',
        kind: 'min',
        limit: 0.9,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: 'GET /proxy with and without streams: non-2xx answers',
        value: [...without, ...withStreams].reduce((n, r) => n + r.non2xx, 0),
        unit: '',
        kind: 'max',
        limit: 0,
        absolute: false,
      },
    ]
  } finally {
    for (const client of clients) client.close()
    if (proxy) await stopServer(proxy)
    upstream.kill('SIGINT')
    rmSync(dir, { recursive: true, force: true })
  }
}
