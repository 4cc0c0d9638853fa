import type { StrategyBody } from '../schemas/strategy.js'
import type { VariantInput } from '../schemas/variant.js'
import type { UserInput } from '../store/users.js'

interface DemoFlag {
  name: string
  description: string
  type?: string
  strategy: Omit<StrategyBody, 'variants' | 'segments' | 'constraints'> &
    Partial<Pick<StrategyBody, 'variants' | 'constraints'>> & { useSegment?: boolean }
  variants?: VariantInput[]
  parent?: string
}

export const DEMO_PROJECT = 'demo'
/** A person on the demo instance, seen at the seed: a fresh instance's insights count one (active) user, not zero. */
export const DEMO_USER: UserInput = { name: 'Dana Demo', email: 'dana.demo@example.com', rootRole: 'Admin' }
export const DEMO_SEGMENT = {
  name: 'demo-pro-plans',
  description: 'Users on a paid plan',
  constraints: [
    { contextName: 'plan', operator: 'IN', values: ['pro', 'enterprise'], inverted: false, caseInsensitive: false },
  ],
}

/** One flag per built-in strategy kind, plus a dependency and feature variants with payloads. */
export const DEMO_FLAGS: DemoFlag[] = [
  {
    name: 'welcome-banner',
    description: 'Shown to everyone (default strategy)',
    strategy: { name: 'default', parameters: {} },
  },
  {
    name: 'beta-dashboard',
    description: 'Only for listed users (userWithId)',
    strategy: { name: 'userWithId', parameters: { userIds: 'alice,bob,carol' } },
  },
  {
    name: 'gradual-user',
    description: 'Half of the users (gradualRolloutUserId)',
    strategy: { name: 'gradualRolloutUserId', parameters: { percentage: '50', groupId: 'gradual-user' } },
  },
  {
    name: 'gradual-session',
    description: 'Half of the sessions (gradualRolloutSessionId)',
    strategy: { name: 'gradualRolloutSessionId', parameters: { percentage: '50', groupId: 'gradual-session' } },
  },
  {
    name: 'gradual-random',
    description: 'A random 30% of requests (gradualRolloutRandom)',
    strategy: { name: 'gradualRolloutRandom', parameters: { percentage: '30' } },
  },
  {
    name: 'new-checkout',
    description: 'flexibleRollout with a constraint, a segment and strategy variants',
    type: 'experiment',
    strategy: {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default', groupId: 'new-checkout' },
      constraints: [
        { contextName: 'appName', operator: 'NOT_IN', values: ['legacy-app'], inverted: false, caseInsensitive: false },
      ],
      useSegment: true,
      variants: [
        {
          name: 'one-page',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{"steps":1}' },
        },
        {
          name: 'two-page',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{"steps":2}' },
        },
      ],
    },
  },
  {
    name: 'office-network',
    description: 'Requests from these addresses (remoteAddress)',
    strategy: { name: 'remoteAddress', parameters: { IPs: '127.0.0.1,::1,10.0.0.0/8' } },
  },
  {
    name: 'local-host-only',
    description: 'Only on this host name (applicationHostname)',
    strategy: { name: 'applicationHostname', parameters: { hostNames: 'localhost' } },
  },
  {
    name: 'checkout-upsell',
    description: 'Depends on new-checkout being enabled',
    strategy: { name: 'default', parameters: {} },
    parent: 'new-checkout',
  },
  {
    name: 'theme',
    description: 'Feature variants with payloads',
    type: 'experiment',
    strategy: { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'theme' } },
    variants: [
      {
        name: 'dark',
        weight: 500,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'json', value: '{"background":"#111","text":"#eee"}' },
      },
      {
        name: 'light',
        weight: 500,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'string', value: 'light' },
      },
    ],
  },
]
