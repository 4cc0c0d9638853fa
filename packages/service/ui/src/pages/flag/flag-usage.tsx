import { seg, useApi } from '../../api.ts'
import { Card, Empty } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useLoad } from '../../hooks.ts'

/** GET /api/admin/client-metrics/usage: SDK evaluations from the hourly metrics. */
interface UsageCounts {
  yes: number
  no: number
  variants: Record<string, number>
}
interface FlagUsage {
  featureName: string
  lastHour: UsageCounts
  lastDay: UsageCounts
}
interface UsageReport {
  hourSince: string
  daySince: string
  features: FlagUsage[]
}

const EMPTY: UsageCounts = { yes: 0, no: 0, variants: {} }
const hourLabel = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })

/** Every reported flag's usage, by name (the flag list's column). */
export function useFlagUsage(featureName?: string) {
  const api = useApi()
  const query = featureName ? `?featureName=${seg(featureName)}` : ''
  const report = useLoad(() => api.get<UsageReport>(`/api/admin/client-metrics/usage${query}`), [query])
  const byName = new Map((report.data?.features ?? []).map((usage) => [usage.featureName, usage]))
  return { report, byName }
}

/** A flag's evaluations over the last day, with yes/no, as one short line. */
export function UsageSummary({ usage }: { usage: FlagUsage | undefined }) {
  const day = usage?.lastDay ?? EMPTY
  const total = day.yes + day.no
  if (total === 0) return <span class="muted small">none</span>
  return (
    <span class="usage-summary" data-usage-total={total}>
      {total.toLocaleString()} <span class="muted small">({day.yes.toLocaleString()} yes)</span>
    </span>
  )
}

/** The flag page's usage card: yes, no and variant counts over the last hour and the last day. */
export function FlagUsageCard({ name }: { name: string }) {
  const { report, byName } = useFlagUsage(name)
  const usage = byName.get(name)
  const data = report.data
  return (
    <Card title="Usage" id="usage" class="flag-usage">
      <ErrorNote error={report.error} />
      {data &&
        (usage ? (
          <table class="usage-table">
            <thead>
              <tr>
                <th scope="col">Since</th>
                <th scope="col">Yes</th>
                <th scope="col">No</th>
                <th scope="col">Variants</th>
              </tr>
            </thead>
            <tbody>
              <UsageRow label={`${hourLabel.format(new Date(data.hourSince))} (last hour)`} counts={usage.lastHour} />
              <UsageRow
                label={`${hourLabel.format(new Date(data.daySince))} yesterday (last day)`}
                counts={usage.lastDay}
              />
            </tbody>
          </table>
        ) : (
          <Empty>No SDK reported evaluations of this flag in the last day.</Empty>
        ))}
      <p class="muted small">
        Evaluations SDKs report (directly or through a Vexil proxy), counted per hour; the counts include the current
        hour, and SDKs report every minute or so.
      </p>
    </Card>
  )
}

function UsageRow({ label, counts }: { label: string; counts: UsageCounts }) {
  const variants = Object.entries(counts.variants)
  return (
    <tr data-usage-yes={counts.yes} data-usage-no={counts.no}>
      <th scope="row">{label}</th>
      <td>{counts.yes.toLocaleString()}</td>
      <td>{counts.no.toLocaleString()}</td>
      <td>{variants.length === 0 ? '–' : variants.map(([name, n]) => `${name}: ${n.toLocaleString()}`).join(', ')}</td>
    </tr>
  )
}
