// Chart.js, tree-shaken: only the line and bar charts, category and linear scales, legend and
// tooltip are registered (and so bundled).
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartDataset,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js'
import { useEffect, useRef } from 'preact/hooks'

Chart.register(LineController, BarController, LineElement, PointElement, BarElement, CategoryScale, LinearScale, Legend, Tooltip)
Chart.defaults.font.family = getComputedStyle(document.documentElement).getPropertyValue('--font').trim() || 'system-ui, sans-serif'
Chart.defaults.color = '#475569'

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

/**
 * One chart on a canvas, sized by its container (CSS gives it a height). `name` identifies it in
 * the DOM (`data-chart`), and `data-points` says how many values it drew.
 */
export function ChartView({ name, spec, label }: { name: string; spec: ChartSpec; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    if (!canvas.current) return undefined
    const chart = new Chart(canvas.current, toConfig(spec))
    return () => chart.destroy()
  }, [spec])
  return (
    <div class="chart" data-chart={name} data-points={pointCount(spec)}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  )
}

function toConfig(spec: ChartSpec): ChartConfiguration {
  const few = spec.labels.length <= 2
  const datasets = spec.series.map((s, i): ChartDataset<'line' | 'bar', (number | null)[]> => {
    const color = s.color ?? PALETTE[i % PALETTE.length] as string
    return spec.kind === 'line'
      ? { type: 'line', label: s.label, data: s.data, borderColor: color, backgroundColor: color, borderWidth: 2, pointRadius: few ? 5 : 2.5, pointHoverRadius: 6, cubicInterpolationMode: 'monotone', spanGaps: false, clip: 8 }
      : { type: 'bar', label: s.label, data: s.data, backgroundColor: color, borderColor: color, borderWidth: 0, borderRadius: 3, maxBarThickness: 48 }
  })
  return {
    type: spec.kind,
    data: { labels: spec.labels, datasets: datasets as ChartDataset[] },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12, usePointStyle: spec.kind === 'line' } },
        tooltip: {
          callbacks: spec.unit ? { label: (item) => `${item.dataset.label}: ${item.formattedValue} ${spec.unit}` } : {},
        },
      },
      scales: {
        x: { stacked: Boolean(spec.stacked), grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
        y: { stacked: Boolean(spec.stacked), beginAtZero: true, ...(spec.max !== undefined ? { max: spec.max } : {}), ticks: { precision: 0 }, grid: { color: '#e2e8f0' } },
      },
    },
  }
}
