// The Node flags a worker starts with: the primary's, plus Vexil's two V8 memory flags, each
// unless the operator chose that setting. V8 reads both only when a process starts, so they go on
// the worker's command line; the Docker image and `npm start` set them for single-process runs.
//
// - The young generation capped: under the allocation of answers V8 grows its semi-spaces to
//   their maximum and the process keeps those pages resident; with small semi-spaces the RSS
//   under new-user load is lower, at about the same throughput.
// - The old generation's growing factor fixed at 1.3, the factor V8 itself uses when it saves
//   memory (its dynamic one grows much larger): a major collection comes when the old generation
//   has grown 30 % past what was live after the last one. Node flattens an answer to write it:
//   with 10k flags a large string among V8's large objects, which only a major collection frees
//   once it outlived a minor one (in flight). With 10k flags the RSS after new-user load is lower,
//   at the same CPU per request (with 200 flags it makes no difference). Node refuses it in
//   NODE_OPTIONS.
// docs/operations.md, "Memory"; `npm run bench -- large` measures both flags.

/** The young-generation cap Vexil starts its processes with (also in the Dockerfile and `npm start`). */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=2'

/** The old generation's growing factor Vexil starts its processes with (also in the Dockerfile and `npm start`). */
export const HEAP_GROWING_FLAG = '--heap-growing-percent=30'

/** Each flag Vexil adds, with the pattern of the flags by which an operator chose that setting. */
const MEMORY_FLAGS: ReadonlyArray<readonly [flag: string, chosen: RegExp]> = [
  [SEMI_SPACE_FLAG, /^--(?:max|min)[-_]semi[-_]space[-_]size(?:=|$)/],
  [HEAP_GROWING_FLAG, /^--heap[-_]growing[-_]percent(?:=|$)/],
]

/** `execArgv` for a worker of a primary started with `execArgv` and `NODE_OPTIONS`. */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)]
  const added = MEMORY_FLAGS.filter(([, chosen]) => !given.some((flag) => chosen.test(flag))).map(([flag]) => flag)
  return [...execArgv, ...added]
}
