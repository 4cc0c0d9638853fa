// Instance insights: GET /api/admin/insights over a real listening server, on an instance with
// 10k flags, 100k hourly metric rows and 12 weeks of daily snapshots (insights-workload.ts), and
// the daily snapshot itself on the same data. Issue 7: the endpoint answers in under a second.
import { Bench } from 'tinybench'
import { takeInsightsSnapshot } from '@vexil/service'
import type { BudgetRow } from './budget.js'
import { medianMs } from './measure.js'
import { fetchInsights, startInsightsInstance, WORKLOAD } from './insights-workload.js'

const GET = 'GET /api/admin/insights (10k flags, 100k metric rows, 12 weeks of snapshots)'
const SNAPSHOT = 'daily snapshot (10k flags, 100k metric rows)'
const FIRST_SNAPSHOT = 'first snapshot of an instance with 12 weeks of metrics and events (backfills every week)'

export async function runInsightsBench(): Promise<BudgetRow[]> {
  const instance = await startInsightsInstance()
  let sink = 0
  try {
    const bench = new Bench({ time: 0, iterations: 10, warmupIterations: 2 })
    bench
      .add(GET, async () => {
        sink += (await fetchInsights(instance)).flags.total
      })
      // Today's snapshot again: the scheduler's daily work (it replaces today's rows).
      .add(SNAPSHOT, () => takeInsightsSnapshot(instance.db, WORKLOAD.now))
      // Last, as it forgets the snapshot history: with no previous day, every week is summarized.
      .add(FIRST_SNAPSHOT, () => takeInsightsSnapshot(instance.db, WORKLOAD.now), {
        beforeEach: async () => void (await instance.db.query('DELETE FROM user_trends')),
      })
    await bench.run()
    console.table(bench.table())
    if (sink === 42) console.log('') // keep the results alive
    return [
      { metric: GET, value: medianMs(bench, GET), unit: 'ms', kind: 'max', limit: 1000, absolute: true },
      { metric: SNAPSHOT, value: medianMs(bench, SNAPSHOT), unit: 'ms', kind: 'max', limit: 1000, absolute: true },
      {
        metric: FIRST_SNAPSHOT,
        value: medianMs(bench, FIRST_SNAPSHOT),
        unit: 'ms',
        kind: 'max',
        limit: 2000,
        absolute: true,
      },
    ]
  } finally {
    await instance.close()
  }
}
