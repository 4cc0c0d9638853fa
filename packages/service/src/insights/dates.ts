/**
 * Insights count in UTC calendar days, carried as `yyyy-MM-dd` text so no driver or session time
 * zone can shift them; weeks are ISO weeks (Monday to Sunday).
 */
const DAY_MS = 86_400_000
const DAY_FORM = /^\d{4}-\d{2}-\d{2}$/

/** The UTC day of an instant, `yyyy-MM-dd`. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10)
}

/** True for an existing calendar day written `yyyy-MM-dd` (so not `2026-02-30` or `2026-13-45`), from 1970 on. */
export function isCalendarDay(text: string): boolean {
  if (!DAY_FORM.test(text) || text < '1970-01-01') return false
  const time = Date.parse(`${text}T00:00:00Z`)
  return Number.isFinite(time) && utcDay(new Date(time)) === text
}

export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS))
}

/** The Monday of the ISO week containing `day`. */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay() // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7))
}

/** Spec 2.7: dates are date-times at the very end of the given UTC day. */
export function endOfDay(day: string): string {
  return `${day}T23:59:59.999Z`
}
