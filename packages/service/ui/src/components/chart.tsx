import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api.ts'
import { type ChartSpec, pointCount } from './chart-spec.ts'
import { ErrorNote } from './error-note.tsx'

/**
 * One chart on a canvas, sized by its container (CSS gives it a height). `name` identifies it in
 * the DOM (`data-chart`), and `data-points` says how many values it drew.
 */
export function ChartView({ name, spec, label }: { name: string; spec: ChartSpec; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const [failed, setFailed] = useState<ApiError>()
  useEffect(() => {
    let remove: (() => void) | undefined
    let gone = false
    import('./draw-chart.ts').then(
      ({ drawChart }) => {
        if (!gone && canvas.current) remove = drawChart(canvas.current, spec)
      },
      () =>
        setFailed(
          new ApiError(
            0,
            'NetworkError',
            'The chart code could not be loaded from the service. Reload the page to try again.',
          ),
        ),
    )
    return () => {
      gone = true
      remove?.()
    }
  }, [spec])
  return (
    <div class="chart" data-chart={name} data-points={pointCount(spec)}>
      <ErrorNote error={failed} focus={false} />
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  )
}
