// @vexil/openfeature: an OpenFeature server provider running @vexil/engine in the app's process,
// in step with any Unleash-compatible client API (a Vexil proxy or service, Unleash Edge, Unleash).

// Provider
export { VexilProvider } from './provider.js'
export type { FetchFunction, VexilProviderOptions } from './options.js'

// Context mapping (what the provider does to every evaluation context)
export { toUnleashContext } from '@vexil/sync'
