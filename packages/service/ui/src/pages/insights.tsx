import { useMemo } from 'preact/hooks'
import { useApi } from '../api.ts'
import { Button, Card, Empty, Loading } from '../components/controls.tsx'
import { ChartView } from '../components/chart.tsx'
import { type ChartSpec, pointCount } from '../components/chart-spec.ts'
import { ErrorNote } from '../components/error-note.tsx'
import { useAction, useLoad, useTitle } from '../hooks.ts'
import { href, navigate, useLocation } from '../router.tsx'
import type { Insights } from '../types.ts'

/** GET /api/admin/insights/snapshot: what the trends are built from. */
interface SnapshotState {
  schedule: string
  lastTakenAt: string | null
  nextAt: string
}
const instant = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

const DAY_MS = 86_400_000
/** The service's default window (README, Insights): 12 weeks up to today, UTC days. */
const PRESETS = [
  { label: '4 weeks', days: 28 },
  { label: '12 weeks', days: 84 },
  { label: '6 months', days: 182 },
  { label: '1 year', days: 364 },
]
const DEFAULT_DAYS = 84

const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10)
const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })
const formatDay = (iso: string) => dayLabel.format(new Date(iso))
/** ISO week `2026-12` as `2026-W12`. */
const formatWeek = (week: string) => week.replace('-', '-W')

/** Rows grouped into one series per `seriesOf` (that has values), over the sorted `labelOf` values. */
function pivot<T>(
  rows: T[],
  labelOf: (row: T) => string,
  seriesOf: (row: T) => string,
  numberOf: (row: T) => number | null | undefined,
) {
  const labels = [...new Set(rows.map(labelOf))].sort()
  const names = [...new Set(rows.map(seriesOf))].sort()
  const series = names.map((label) => {
    const data = labels.map(() => null as number | null)
    for (const row of rows) {
      if (seriesOf(row) !== label) continue
      const value = numberOf(row)
      if (value !== undefined && value !== null) data[labels.indexOf(labelOf(row))] = value
    }
    return { label, data }
  })
  // A series with no value at all (a project no flag of which reached production) is left out.
  return { labels, series: series.filter((s) => s.data.some((value) => value !== null)) }
}

interface ChartDef {
  name: string
  title: string
  description: string
  spec: ChartSpec
  empty: string
}

function chartsOf(insights: Insights): ChartDef[] {
  const users = [...insights.userTrends].sort((a, b) => a.date.localeCompare(b.date))
  const flags = [...insights.flagTrends].sort((a, b) => a.date.localeCompare(b.date))
  const projects = insights.projectFlagTrends
  const health = pivot(
    projects,
    (r) => r.week,
    (r) => r.project,
    (r) => r.health,
  )
  const ttp = pivot(
    projects,
    (r) => r.week,
    (r) => r.project,
    (r) => r.timeToProduction,
  )
  const metrics = pivot(
    insights.metricsSummaryTrends,
    (r) => r.week,
    (r) => r.project,
    (r) => r.totalRequests,
  )
  const updates = pivot(
    insights.environmentTypeTrends,
    (r) => r.week,
    (r) => r.environmentType,
    (r) => r.totalUpdates,
  )
  return [
    {
      name: 'users',
      title: 'Users',
      description: 'Users in total, active (seen in the last 60 days) and inactive, per daily snapshot.',
      empty: 'No user snapshots in this range.',
      spec: {
        kind: 'line',
        labels: users.map((r) => formatDay(r.date)),
        series: [
          { label: 'Total', data: users.map((r) => r.total) },
          { label: 'Active', data: users.map((r) => r.active) },
          { label: 'Inactive', data: users.map((r) => r.inactive) },
        ],
      },
    },
    {
      name: 'flags',
      title: 'Flags',
      description: 'Flags in total, marked stale, and potentially stale (older than their type’s expected lifetime).',
      empty: 'No flag snapshots in this range.',
      spec: {
        kind: 'line',
        labels: flags.map((r) => formatDay(r.date)),
        series: [
          { label: 'Total', data: flags.map((r) => r.total) },
          { label: 'Stale', data: flags.map((r) => r.stale) },
          { label: 'Potentially stale', data: flags.map((r) => r.potentiallyStale) },
        ],
      },
    },
    {
      name: 'health',
      title: 'Project health',
      description: 'Share of each project’s flags that are neither stale nor potentially stale, per week (%).',
      empty: 'No project snapshots in this range.',
      spec: { kind: 'line', labels: health.labels.map(formatWeek), series: health.series, max: 100, unit: '%' },
    },
    {
      name: 'time-to-production',
      title: 'Time to production',
      description:
        'Average days from a flag’s creation to its first enablement in a production environment, per project and week.',
      empty: 'No flag reached a production environment in this range.',
      spec: { kind: 'line', labels: ttp.labels.map(formatWeek), series: ttp.series, unit: 'days' },
    },
    {
      name: 'metrics',
      title: 'Flag evaluations per project',
      description: 'Evaluations reported by SDKs (yes + no), per project and week.',
      empty: 'No SDK reported metrics in this range.',
      spec: { kind: 'bar', labels: metrics.labels.map(formatWeek), series: metrics.series, stacked: true },
    },
    {
      name: 'updates',
      title: 'Configuration updates per environment type',
      description: 'Changes to flags in environments (strategies, on/off, variants), per environment type and week.',
      empty: 'No configuration changes in this range.',
      spec: { kind: 'bar', labels: updates.labels.map(formatWeek), series: updates.series, stacked: true },
    },
  ]
}

/** The insights dashboard of GET /api/admin/insights: totals, then charts over a date range. */
export function InsightsPage() {
  useTitle('Insights')
  const api = useApi()
  const location = useLocation()
  const today = utcDay(Date.now())
  const to = location.query.get('to') ?? today
  const toTime = Date.parse(`${to}T00:00:00Z`)
  const from =
    location.query.get('from') ?? utcDay((Number.isNaN(toTime) ? Date.now() : toTime) - (DEFAULT_DAYS - 1) * DAY_MS)
  // The service checks the range (a real day, from <= to) and names the bad end; shown by the picker.
  const insights = useLoad(
    () => api.get<Insights>(`/api/admin/insights?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`),
    [from, to],
  )
  const charts = useMemo(() => (insights.data ? chartsOf(insights.data) : []), [insights.data])
  const setRange = (range: { from?: string; to?: string }) =>
    navigate(href('/insights', { from, to, ...range }), { replace: true })
  const preset = (days: number) => setRange({ to: today, from: utcDay(Date.now() - (days - 1) * DAY_MS) })

  return (
    <div class="page">
      <div class="page-header">
        <h1>Insights</h1>
      </div>
      <Card class="range" id="range">
        <form class="range-form" onSubmit={(e) => e.preventDefault()} aria-label="Date range">
          <div class="field inline">
            <label for="from">From</label>
            <input
              id="from"
              type="date"
              value={from}
              max={to}
              required
              onChange={(e) => e.currentTarget.value && setRange({ from: e.currentTarget.value })}
            />
          </div>
          <div class="field inline">
            <label for="to">To</label>
            <input
              id="to"
              type="date"
              value={to}
              min={from}
              required
              onChange={(e) => e.currentTarget.value && setRange({ to: e.currentTarget.value })}
            />
          </div>
          <div class="presets" role="group" aria-label="Presets">
            {PRESETS.map((p) => (
              <Button
                key={p.days}
                size="small"
                variant="ghost"
                onClick={() => preset(p.days)}
                aria-pressed={to === today && from === utcDay(Date.now() - (p.days - 1) * DAY_MS)}
              >
                {p.label}
              </Button>
            ))}
          </div>
          <span class="muted small">UTC days, both included</span>
        </form>
        <ErrorNote error={insights.error} />
      </Card>
      <SnapshotNote onTaken={insights.reload} />
      {insights.loading && !insights.data && !insights.error && <Loading what="insights" />}
      {insights.data && (
        <>
          <div class="totals" role="group" aria-label="Totals">
            <Total label="Users" value={insights.data.users.total} />
            <Total label="Active users" value={insights.data.users.active} hint="seen in the last 60 days" />
            <Total label="Inactive users" value={insights.data.users.inactive} />
            <Total label="Flags" value={insights.data.flags.total} hint="not archived" />
          </div>
          <div class="charts" aria-busy={insights.loading}>
            {charts.map((chart) => (
              <Card key={chart.name} title={chart.title} class="chart-card" id={`chart-${chart.name}`}>
                <p class="muted small">{chart.description}</p>
                {pointCount(chart.spec) === 0 ? (
                  <div class="chart chart-empty" data-chart={chart.name} data-points="0">
                    <Empty>{chart.empty}</Empty>
                  </div>
                ) : (
                  <ChartView name={chart.name} spec={chart.spec} label={`${chart.title}: ${chart.description}`} />
                )}
              </Card>
            ))}
          </div>
        </>
      )}
    </div>
  )
}

function Total({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <div class="total" data-total={label}>
      <span class="total-value">{value.toLocaleString()}</span>
      <span class="total-label">{label}</span>
      {hint && <span class="muted small">{hint}</span>}
    </div>
  )
}

/** What the charts are built from, when the next snapshot is, and taking one now (ADMIN). */
function SnapshotNote({ onTaken }: { onTaken: () => Promise<void> }) {
  const api = useApi()
  const state = useLoad(() => api.get<SnapshotState>('/api/admin/insights/snapshot'), [])
  const take = useAction()
  const takeNow = () =>
    take.run(async () => {
      await api.post('/api/admin/insights/snapshot')
      await Promise.all([state.reload(), onTaken()])
    })
  return (
    <Card class="snapshot-note" id="snapshot">
      <p class="small" data-snapshot={state.data?.lastTakenAt ?? ''}>
        The charts are built from snapshots taken {state.data?.schedule ?? 'daily at 23:55 UTC'} (the Flags chart's
        point for today is live).{' '}
        {state.data && (
          <>
            Last snapshot: {state.data.lastTakenAt ? instant.format(new Date(state.data.lastTakenAt)) : 'none yet'}.
            Next: {instant.format(new Date(state.data.nextAt))}.
          </>
        )}
      </p>
      <Button size="small" busy={take.busy} onClick={takeNow}>
        Take snapshot now
      </Button>
      <ErrorNote error={state.error ?? take.error} />
    </Card>
  )
}
