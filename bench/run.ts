// `npm run bench`: runs every benchmark, prints the budget tables, exits non-zero when an
// enforced budget is missed. `npm run bench -- engine` runs one group.
import { type BudgetRow, inCI, report } from './budget.js'
import { assertBuilt } from './builds.js'
import { runEngineBench } from './engine.bench.js'
import { runInsightsBench } from './insights.bench.js'
import { runOpenFeatureBench } from './openfeature.bench.js'
import { runProxyHandlerBench } from './proxy-handler.bench.js'
import { runProxyHttpBench } from './proxy-http.bench.js'
import { runProxyLargeBench } from './proxy-large.bench.js'
import { runProxyStreamsBench } from './proxy-streams.bench.js'
import { runProxyWorkersBench } from './proxy-workers.bench.js'
import { runRuntimesBench } from './runtimes.bench.js'
import { runStreamingBench } from './streaming.bench.js'

const groups: Record<string, { title: string; run: () => Promise<BudgetRow[]> }> = {
  engine: { title: 'Engine (tinybench)', run: runEngineBench },
  insights: { title: 'Insights (tinybench, PGlite in memory)', run: runInsightsBench },
  handler: {
    title: 'Proxy handler in one process (CPU per /proxy and OFREP request, in-memory sockets)',
    run: runProxyHandlerBench,
  },
  proxy: { title: 'Proxy HTTP (wrk, 32 connections)', run: runProxyHttpBench },
  large: { title: 'Proxy with 10k flags (wrk, every request a new user)', run: runProxyLargeBench },
  workers: { title: 'Proxy with WORKERS=1 and WORKERS=2 (wrk, every request a new user)', run: runProxyWorkersBench },
  streaming: { title: 'Streaming: admin change to proxy and SDK', run: runStreamingBench },
  streams: { title: 'Proxy with 1,000 SDK streams (fan-out, soak, /proxy beside them)', run: runProxyStreamsBench },
  openfeature: { title: 'OpenFeature provider (tinybench)', run: runOpenFeatureBench },
  runtimes: { title: 'The proxy under Node, Bun and Deno (wrk, 32 connections, GET /proxy)', run: runRuntimesBench },
}

const selected = process.argv.slice(2).filter((arg) => arg in groups)
assertBuilt()
const failures: BudgetRow[] = []
console.log(
  `node ${process.version}, ${inCI ? 'CI=true: absolute budgets reported only' : 'absolute budgets enforced'}`,
)
for (const name of selected.length > 0 ? selected : Object.keys(groups)) {
  const group = groups[name]!
  failures.push(...report(group.title, await group.run()))
}
if (failures.length > 0) {
  console.error(`\n${failures.length} budget(s) missed: ${failures.map((row) => row.metric).join('; ')}`)
  process.exit(1)
}
console.log('\nAll budgets met.')
