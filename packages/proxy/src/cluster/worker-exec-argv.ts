// The Node flags a worker starts with: the primary's, plus a cap on V8's young generation unless
// the operator chose one. Under the allocation of answers V8 grows the young generation to 32 MB
// (two 16 MB semi-spaces) and the process keeps those pages resident; with 2 MB semi-spaces the
// RSS under new-user load measured 25-40 MB less (200 and 10k flags), at 0.79-1.0x the throughput
// (README, "Running at scale"; `npm run bench -- large`). V8 reads the size only when a process
// starts, so it goes on the worker's command line; the Docker image sets it in NODE_OPTIONS and
// `npm start` on its command line for single-process runs.

/** The young-generation cap Vexil starts its processes with (also in the Dockerfile and `npm start`). */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=2'

/** Whether the flags already size the young generation (`--max-semi-space-size`, `--max_semi_space_size`, ...). */
function sizesYoungGeneration(flags: readonly string[]): boolean {
  return flags.some((flag) => /^--(?:max|min)[-_]semi[-_]space[-_]size(?:=|$)/.test(flag))
}

/** `execArgv` for a worker of a primary started with `execArgv` and `NODE_OPTIONS`. */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const chosen = sizesYoungGeneration(execArgv) || sizesYoungGeneration((nodeOptions ?? '').split(/\s+/))
  return chosen ? [...execArgv] : [...execArgv, SEMI_SPACE_FLAG]
}
