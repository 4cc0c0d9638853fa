// The built engine under Bun and Deno (issue 23): the client specification's every case gives
// its expected answer, every answer equals Node's, and 1,000 generated contexts over the 200-flag
// workload give the same evaluateAll answers as on Node. One plain script
// (helpers/engine-answers.mjs) runs in each runtime and prints the answers; Node runs it too, so
// both sides are the same built code.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeFeatures } from '@vexil/test-fixtures/workload.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { BUILT, OTHER_RUNTIMES, requireBuilt, type Runtime, runScript, runtimeSuiteRuns } from './helpers/runtimes.js'

const SCRIPT = fileURLToPath(new URL('./helpers/engine-answers.mjs', import.meta.url))
const require = createRequire(import.meta.url)
const specDir = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications')
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'))

interface SpecCase {
  file: string
  description: string
  expected: boolean | { name: string; enabled: boolean; feature_enabled: boolean; payload?: unknown }
}
const cases: SpecCase[] = (readJson(join(specDir, 'index.json')) as string[]).flatMap((file) => {
  const spec = readJson(join(specDir, file)) as {
    tests?: Array<{ description: string; expectedResult: boolean }>
    variantTests?: Array<{ description: string; expectedResult: SpecCase['expected'] }>
  }
  return [...(spec.tests ?? []), ...(spec.variantTests ?? [])].map(({ description, expectedResult }) => ({
    file,
    description,
    expected: expectedResult,
  }))
})

/** What the script printed: the runtime it ran in, the answer to each case (in `cases` order), one evaluateAll line per context. */
interface Answers {
  runtime: string
  spec: Array<{
    file: string
    description: string
    answer: { enabled?: boolean; evaluated?: Array<{ enabled: boolean }>; variant?: Record<string, unknown> }
  }>
  workload: string[]
}

const SEED = 23
const USERS = 5000
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values)
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined })
/**
 * Contexts over the workload's fields (test-fixtures/src/workload.ts), with its values most of
 * the time (so IN lists, segments and variant overrides match) and odd ones the rest: any string,
 * Unicode for the case-insensitive string operators, numbers and versions out of range, bad dates
 * and addresses, no userId or sessionId at all (a `default` stickiness rollout then draws from
 * the script's seeded Math.random).
 */
const contextArb = fc.record({
  appName: pick(['web', 'checkout', '']),
  environment: pick(['production', 'development']),
  userId: maybe(
    fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: USERS - 1 }).map((n) => `user-${n}`) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme' }) },
    ),
  ),
  sessionId: maybe(fc.oneof(fc.nat().map(String), fc.string())),
  remoteAddress: maybe(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string())),
  currentTime: maybe(
    fc.oneof(
      fc
        .date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.string(),
    ),
  ),
  properties: fc.record(
    {
      tenant: fc.oneof(pick(['acme', 'globex', 'initech', 'umbrella', 'hooli', 'ACME']), fc.string()),
      appVersion: fc.oneof(
        fc.tuple(fc.nat(4), fc.nat(12), fc.nat(6)).map((v) => v.join('.')),
        pick(['2.4.0', '3.0.0-beta.1', '3.0.0-beta.2', '2.5.1+build', 'v2.4.0']),
        fc.string(),
      ),
      email: fc.oneof(
        fc
          .tuple(fc.nat(999), pick(['vexil.dev', 'VEXIL.DEV', 'example.com', 'mail.org']))
          .map(([n, host]) => `person${n}@${host}`),
        fc.string({ unit: 'grapheme' }),
      ),
      score: fc.oneof(
        fc.integer({ min: -10, max: 110 }).map(String),
        fc.double({ noNaN: true }).map(String),
        fc.string(),
      ),
      country: fc.oneof(pick(['DE', 'US', 'FR', 'se', 'IT']), fc.string()),
    },
    { requiredKeys: [] },
  ),
})

const work = tempDir('runtimes-engine')
let nodeAnswers: Promise<Answers> | undefined

/** Runs the script under `runtime` on the spec and the workload written in beforeAll. */
async function answersOf(runtime: Runtime): Promise<Answers> {
  const out = await runScript(runtime, SCRIPT, [
    BUILT.engine,
    specDir,
    join(work.path, 'payload.json'),
    join(work.path, 'contexts.json'),
  ])
  const [header, ...workload] = out.trimEnd().split('\n')
  return { ...(JSON.parse(header!) as Omit<Answers, 'workload'>), workload }
}

beforeAll(() => {
  requireBuilt(BUILT.engine)
  writeFileSync(join(work.path, 'payload.json'), JSON.stringify(makeFeatures(200)))
  writeFileSync(join(work.path, 'contexts.json'), JSON.stringify(fc.sample(contextArb, { seed: SEED, numRuns: 1000 })))
})
afterAll(() => work.remove())

it("the generated contexts number 1,000, most with a userId from the workload's users", () => {
  const contexts = readJson(join(work.path, 'contexts.json')) as Array<{ userId?: string }>
  expect(contexts).toHaveLength(1000)
  expect(contexts.filter((c) => /^user-\d+$/.test(c.userId ?? '')).length).toBeGreaterThan(300)
})

for (const runtime of OTHER_RUNTIMES) {
  describe.runIf(runtimeSuiteRuns(runtime, 'runtimes-engine'))(`the built engine under ${runtime}`, () => {
    let answers: Answers
    let node: Answers
    beforeAll(async () => {
      nodeAnswers ??= answersOf('node')
      ;[answers, node] = await Promise.all([answersOf(runtime), nodeAnswers])
    }, 120_000)

    it(`runs in ${runtime}, every case answered`, () => {
      expect(answers.runtime).toMatch(new RegExp(`^${runtime} `))
      expect(node.runtime).toMatch(/^node /)
      expect(answers.spec.map(({ file, description }) => ({ file, description }))).toEqual(
        cases.map(({ file, description }) => ({ file, description })),
      )
    })

    it.each(cases.map((c, index) => ({ ...c, index })))('$file: $description', ({ index, expected }) => {
      const { answer } = answers.spec[index]!
      if (typeof expected === 'boolean') {
        expect(answer.enabled).toBe(expected)
        expect(answer.evaluated![0]!.enabled).toBe(expected)
      } else {
        const { name, enabled, feature_enabled, payload } = answer.variant as typeof expected
        expect({ name, enabled, feature_enabled, payload }).toEqual({
          name: expected.name,
          enabled: expected.enabled,
          feature_enabled: expected.feature_enabled,
          payload: expected.payload,
        })
      }
    })

    it('every specification answer equals Node’s, field for field', () => {
      expect(answers.spec).toEqual(node.spec)
    })

    it('1,000 generated contexts x the 200-flag workload: evaluateAll answers exactly as on Node', () => {
      expect(answers.workload).toHaveLength(1000)
      expect(node.workload).toHaveLength(1000)
      const differing = answers.workload.findIndex((line, index) => line !== node.workload[index])
      if (differing !== -1) {
        const context = (readJson(join(work.path, 'contexts.json')) as unknown[])[differing]
        expect(
          JSON.parse(answers.workload[differing]!),
          `context ${differing} (seed ${SEED}): ${JSON.stringify(context)}`,
        ).toEqual(JSON.parse(node.workload[differing]!))
      }
      expect(differing).toBe(-1)
    })
  })
}
