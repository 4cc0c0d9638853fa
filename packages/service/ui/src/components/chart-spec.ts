// What a chart shows, independent of the library that draws it (draw-chart.ts, loaded on demand).

/** Distinct, colour-blind-friendlier series colours (Okabe-Ito based). */
export const PALETTE = ['#4338ca', '#e69f00', '#009e73', '#d55e00', '#56b4e9', '#cc79a7', '#0072b2', '#8c6d1f']

export interface Series {
  label: string
  data: (number | null)[]
  color?: string
}

export interface ChartSpec {
  kind: 'line' | 'bar'
  labels: string[]
  series: Series[]
  /** Bars stacked per label. */
  stacked?: boolean
  /** Axis maximum (health is 0-100). */
  max?: number
  unit?: string
}

/** Points that will be drawn: the test and the empty state read it. */
export function pointCount(spec: ChartSpec): number {
  return spec.series.reduce((sum, s) => sum + s.data.filter((v) => v !== null).length, 0)
}
