import { compileApplicationHostname } from './application-hostname.js'
import { compileDefault } from './default.js'
import { compileFlexibleRollout } from './flexible-rollout.js'
import {
  compileGradualRolloutRandom,
  compileGradualRolloutSessionId,
  compileGradualRolloutUserId,
} from './gradual-rollout.js'
import { compileRemoteAddress } from './remote-address.js'
import type { StrategyCompiler } from './types.js'
import { compileUserWithId } from './user-with-id.js'

export const BUILT_IN_STRATEGIES: ReadonlyMap<string, StrategyCompiler> = new Map([
  ['default', compileDefault],
  ['userWithId', compileUserWithId],
  ['gradualRolloutUserId', compileGradualRolloutUserId],
  ['gradualRolloutSessionId', compileGradualRolloutSessionId],
  ['gradualRolloutRandom', compileGradualRolloutRandom],
  ['flexibleRollout', compileFlexibleRollout],
  ['remoteAddress', compileRemoteAddress],
  ['applicationHostname', compileApplicationHostname],
])
