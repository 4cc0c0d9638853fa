// Measuring on a shared, noisy machine: medians rather than means, and tasks compared side by
// side in rounds rather than each run once in turn.
import { Bench, type BenchOptions, type Fn, type FnOptions } from 'tinybench'

/** The median of the values (the upper middle one of an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * The median latency of a task in ms. The median, not the mean: on a shared machine a few
 * iterations that lose the CPU to a neighbour drag the mean, not the typical figure.
 */
export function medianMs(bench: Bench, name: string): number {
  const result = bench.getTask(name)?.result
  if (result?.state !== 'completed') throw new Error(`benchmark task "${name}" did not complete`)
  return result.latency.p50
}

export interface RoundTask {
  fn: Fn
  options?: FnOptions
}

/**
 * Runs every task once per round, in an order that rotates from round to round, and returns each
 * round's median ms per task. A slow moment of the machine then lands in one round's figures for
 * every task, not in one task's alone: take a ratio per round, then the median of the rounds (one
 * run of each task in turn once let such a moment decide a ratio, issue 17). The last round's
 * tinybench table is printed.
 */
export async function runRounds(
  tasks: Record<string, RoundTask>,
  rounds: number,
  options: Pick<BenchOptions, 'time' | 'iterations'>,
): Promise<Array<Record<string, number>>> {
  const names = Object.keys(tasks)
  const results: Array<Record<string, number>> = []
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ ...options, warmupTime: round === 0 ? 500 : 100, warmupIterations: round === 0 ? 3 : 1 })
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!
      bench.add(name, tasks[name]!.fn, tasks[name]!.options)
    }
    await bench.run()
    if (round === rounds - 1) console.table(bench.table())
    results.push(Object.fromEntries(names.map((name) => [name, medianMs(bench, name)])))
  }
  return results
}

/** Values as a list for a log line: `0.84, 0.91, ...`. */
export const listed = (values: number[], digits = 2): string => values.map((value) => value.toFixed(digits)).join(', ')
