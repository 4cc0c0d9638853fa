const ABSOLUTE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
]

export function formatDateTime(iso: string): string {
  return ABSOLUTE.format(new Date(iso))
}

export function relativeTime(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return RELATIVE.format(Math.round(amount), unit)
    amount /= size
  }
  return ''
}

/** A time stamp: local date and time, with "3 minutes ago" beside it. */
export function Time({ iso, relative = true }: { iso: string; relative?: boolean }) {
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
      {relative && <span class="muted"> · {relativeTime(iso)}</span>}
    </time>
  )
}
