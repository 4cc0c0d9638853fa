// Chart.js, tree-shaken: only the line and bar charts, category and linear scales, legend and
// tooltip are registered (and so bundled). Imported on demand by chart.tsx: only the insights page
// needs it, so the other pages load without it.
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
import { type ChartSpec, PALETTE } from './chart-spec.ts'

Chart.register(
  LineController,
  BarController,
  LineElement,
  PointElement,
  BarElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
)
Chart.defaults.font.family =
  getComputedStyle(document.documentElement).getPropertyValue('--font').trim() || 'system-ui, sans-serif'
Chart.defaults.color = '#475569'

/** Draws `spec` on `canvas`; returns what removes it. */
export function drawChart(canvas: HTMLCanvasElement, spec: ChartSpec): () => void {
  const chart = new Chart(canvas, toConfig(spec))
  return () => chart.destroy()
}

function toConfig(spec: ChartSpec): ChartConfiguration {
  const few = spec.labels.length <= 2
  const datasets = spec.series.map((s, i): ChartDataset<'line' | 'bar', (number | null)[]> => {
    const color = s.color ?? (PALETTE[i % PALETTE.length] as string)
    return spec.kind === 'line'
      ? {
          type: 'line',
          label: s.label,
          data: s.data,
          borderColor: color,
          backgroundColor: color,
          borderWidth: 2,
          pointRadius: few ? 5 : 2.5,
          pointHoverRadius: 6,
          cubicInterpolationMode: 'monotone',
          spanGaps: false,
          clip: 8,
        }
      : {
          type: 'bar',
          label: s.label,
          data: s.data,
          backgroundColor: color,
          borderColor: color,
          borderWidth: 0,
          borderRadius: 3,
          maxBarThickness: 48,
        }
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
        y: {
          stacked: Boolean(spec.stacked),
          beginAtZero: true,
          ...(spec.max !== undefined ? { max: spec.max } : {}),
          ticks: { precision: 0 },
          grid: { color: '#e2e8f0' },
        },
      },
    },
  }
}
