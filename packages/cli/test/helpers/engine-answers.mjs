// Run by Node, Bun and Deno alike (runtimes-engine.test.ts): the built engine's answers to the
// client specification and to a workload, printed as lines of JSON for the test to compare.
// Plain JavaScript, so every runtime runs the same file as is. Math.random is a seeded generator
// here: a rollout or variant without a stickiness value draws from it (strategies/rollout.ts,
// variants.ts), and the same code drawing the same numbers must give the same answers.
// argv: engine module, specification folder, workload payload file, workload contexts file.
// stdout: line 1 `{ runtime, spec: [{ file, description, answer }] }`, then one line per context
// with evaluateAll's answer for it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

Math.random = mulberry32(23)
const [engineModule, specDir, payloadFile, contextsFile] = process.argv.slice(2)
const { createEngine } = await import(pathToFileURL(engineModule).href)
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))

const runtime = globalThis.Bun
  ? `bun ${globalThis.Bun.version}`
  : globalThis.Deno
    ? `deno ${globalThis.Deno.version.deno}`
    : `node ${process.version}`

const spec = []
for (const file of readJson(join(specDir, 'index.json'))) {
  const { state, tests = [], variantTests = [] } = readJson(join(specDir, file))
  const engine = createEngine()
  engine.load(state)
  for (const { description, context, toggleName } of tests) {
    spec.push({
      file,
      description,
      answer: {
        enabled: engine.isEnabled(toggleName, context),
        evaluated: engine.evaluateAll(context, { names: [toggleName] }),
      },
    })
  }
  for (const { description, context, toggleName } of variantTests) {
    spec.push({ file, description, answer: { variant: engine.getVariant(toggleName, context) } })
  }
}

const lines = [JSON.stringify({ runtime, spec })]
const engine = createEngine()
engine.load(readJson(payloadFile))
for (const context of readJson(contextsFile)) lines.push(JSON.stringify(engine.evaluateAll(context)))
process.stdout.write(`${lines.join('\n')}\n`)

function mulberry32(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
