import type { VariantInput } from '../schemas/variant.js'
import { featureEnvironments, setEnvironmentVariants } from '../store/features.js'
import { projectEnvironments } from '../store/projects.js'
import { type Change, recordEvent } from './change.js'
import { requireEnvironment, requireFeature, requireProjectEnvironment } from './lookups.js'
import { fixVariantWeights } from './variant-weights.js'

interface VariantsInput {
  project: string
  feature: string
  variants: VariantInput[]
  /** The environments to write; all of the project's when absent (the flag-level routes). */
  environments?: string[] | undefined
}

/**
 * Stores a flag's variants (stored per environment, as in Unleash 5+), weights shared out as
 * Unleash does, with one event per environment written. Returns the variants as stored.
 */
export async function setFlagVariants(change: Change, input: VariantsInput): Promise<VariantInput[]> {
  const { tx } = change
  const { project } = input
  const fixed = fixVariantWeights(input.variants, 'body')
  const feature = await requireFeature(tx, project, input.feature, { lock: true })
  const targets = input.environments ?? (await projectEnvironments(tx, project))
  const before = await featureEnvironments(tx, feature.name)
  for (const environment of targets) {
    await requireProjectEnvironment(tx, project, environment)
    await setEnvironmentVariants(tx, feature.name, environment, fixed)
    await recordEvent(change, {
      type: 'feature-environment-variants-updated',
      project,
      featureName: feature.name,
      environment,
      data: { variants: fixed },
      preData: { variants: before.find((row) => row.name === environment)?.variants ?? [] },
    })
  }
  return fixed
}

/** `setFlagVariants` for a listed set of environments (`variants-batch`): each must exist, checked first. */
export async function setFlagVariantsIn(
  change: Change,
  input: VariantsInput & { environments: string[] },
): Promise<VariantInput[]> {
  for (const environment of input.environments) await requireEnvironment(change.tx, environment)
  return setFlagVariants(change, input)
}
