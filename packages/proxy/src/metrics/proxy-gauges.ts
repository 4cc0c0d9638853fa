// What the proxy holds right now, for operators: tokens known by kind (and Edge's `token_status`),
// open streams (Edge's `connected_streaming_clients`), how long since each scope last synced,
// and the upstream calls by kind and outcome. Read when scraped, never counted per request.
// Each gauge's `aggregator` says how a WORKERS=N scrape combines the processes
// (runtime/cluster/cluster-metrics.ts): what every process knows alike takes the largest, what
// each holds its own share of is summed, ages take the freshest.
import { Counter, Gauge, type Registry } from 'prom-client'
import { UPSTREAM_CALL_KINDS, UPSTREAM_OUTCOMES, type UpstreamCalls } from './upstream-calls.js'

const TOKEN_KINDS = ['client', 'frontend'] as const

export interface ProxyGaugeReadings {
  /** The tokens the registry holds (admin tokens are not counted). */
  tokenTypes(): readonly string[]
  /** Secrets the registry found invalid and still remembers. */
  invalidTokens(): number
  /** Open `/api/client/streaming` connections in this process. */
  streams(): number
  /** Every scope the proxy syncs, as the upstream named it, and its last successful fetch (epoch ms, 0 for never). */
  scopeSyncs(): ReadonlyArray<{ environment: string; projects: readonly string[]; lastFetch: number }>
  /** This process's upstream calls; undefined where another process makes them (a cluster worker). */
  upstreamCalls: UpstreamCalls | undefined
}

export function registerProxyGauges(registry: Registry, readings: ProxyGaugeReadings): void {
  const registers = [registry]
  new Gauge({
    name: 'vexil_proxy_tokens',
    help: 'API tokens the proxy knows (validated upstream, or configured), by kind.',
    labelNames: ['kind'],
    registers,
    aggregator: 'max',
    collect() {
      const types = readings.tokenTypes()
      for (const kind of TOKEN_KINDS) this.set({ kind }, types.filter((type) => type === kind).length)
    },
  })
  new Gauge({
    name: 'token_status',
    help: 'Tokens by validation status (Edge: validated, invalid).',
    labelNames: ['status'],
    registers,
    aggregator: 'max',
    collect() {
      const types = readings.tokenTypes()
      this.set({ status: 'validated' }, types.filter((type) => type !== 'admin').length)
      this.set({ status: 'invalid' }, readings.invalidTokens())
    },
  })
  new Gauge({
    name: 'connected_streaming_clients',
    help: 'Number of connected streaming clients',
    registers,
    aggregator: 'sum',
    collect() {
      this.set(readings.streams())
    },
  })
  new Gauge({
    name: 'vexil_proxy_sync_age_seconds',
    help: 'Seconds since each scope last fetched from the upstream successfully (200 or 304), by environment and projects.',
    labelNames: ['environment', 'projects'],
    registers,
    aggregator: 'min',
    collect() {
      this.reset()
      const now = Date.now()
      for (const { environment, projects, lastFetch } of readings.scopeSyncs())
        if (lastFetch > 0) this.set({ environment, projects: projects.join(',') }, Math.max(0, now - lastFetch) / 1000)
    },
  })
  new Counter({
    name: 'vexil_proxy_upstream_requests_total',
    help: 'Calls to the upstream by kind (features, validation, metrics, streaming, register) and outcome.',
    labelNames: ['kind', 'outcome'],
    registers,
    collect() {
      this.reset()
      const calls = readings.upstreamCalls
      if (!calls) return
      for (const kind of UPSTREAM_CALL_KINDS)
        for (const outcome of UPSTREAM_OUTCOMES) {
          const count = calls.count(kind, outcome)
          if (count > 0) this.inc({ kind, outcome }, count)
        }
    },
  })
}
