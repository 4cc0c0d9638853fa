// Budgets: each benchmark figure is checked against a limit and printed as a table. Ratios
// (measured side by side in one run) are always enforced, except the HTTP throughput shares;
// those and absolute times are enforced on a developer machine but only reported under CI=true,
// whose shared 2-core machines are noisy.

export interface BudgetRow {
  metric: string
  value: number
  unit: string
  /** `max`: value must be <= limit; `min`: value must be >= limit. */
  kind: 'max' | 'min'
  limit: number
  /** Ratios are enforced everywhere; absolute figures only outside CI. */
  absolute: boolean
  /**
   * A ratio too noisy for CI's shared 2-core machines, where the load generator and the server
   * share the cores: enforced by `npm run bench` outside CI, reported under CI=true.
   */
  noisyInCI?: boolean
  /**
   * A ratio that is an open issue's target, not met yet (the issue named): enforced by
   * `npm run bench` outside CI, so a developer sees it missed; reported under CI=true, where
   * the budget it replaces (a row of its own) is still enforced.
   */
  target?: string
}

export const inCI = process.env.CI === 'true'

export function passes(row: BudgetRow): boolean {
  return row.kind === 'max' ? row.value <= row.limit : row.value >= row.limit
}

export function enforced(row: BudgetRow): boolean {
  return !(row.absolute || row.noisyInCI || row.target !== undefined) || !inCI
}

const format = (value: number) =>
  value >= 100
    ? value.toFixed(0)
    : value >= 10
      ? value.toFixed(1)
      : value > 0 && value < 0.1
        ? value.toPrecision(2)
        : value.toFixed(2)

/** Prints the rows as a Markdown table (pasteable into the README); returns the failed enforced rows. */
export function report(title: string, rows: BudgetRow[]): BudgetRow[] {
  console.log(`\n### ${title}\n`)
  console.log('| metric | result | budget | status |')
  console.log('|---|---:|---:|---|')
  for (const row of rows) {
    const status = passes(row)
      ? 'ok'
      : enforced(row)
        ? 'FAIL'
        : row.target
          ? `missed (target of ${row.target}; reported only under CI)`
          : 'over (reported only under CI)'
    console.log(
      `| ${row.metric} | ${format(row.value)} ${row.unit} | ${row.kind === 'max' ? '<=' : '>='} ${row.limit} ${row.unit} | ${status} |`,
    )
  }
  return rows.filter((row) => !passes(row) && enforced(row))
}
