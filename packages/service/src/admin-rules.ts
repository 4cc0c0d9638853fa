// The rules the admin UI shares with the API, so a form and the handler that validates it cannot
// disagree. Exported as `@vexil/service/admin-rules`: plain values and one pure function, nothing
// that pulls a server module into the browser bundle.
export { FILTER_OPERATORS } from './schemas/filter-operators.js'
export { flattenPayload } from './actions/flatten-payload.js'
export {
  SIGNAL_ENDPOINT_NAME_MAX_LENGTH,
  SIGNAL_ENDPOINT_NAME_PATTERN,
  SIGNAL_ENDPOINT_NAME_RULE,
} from './signals/endpoint-name.js'
export { URL_SAFE_NAME_MAX_LENGTH, URL_SAFE_NAME_PATTERN, URL_SAFE_NAME_RULE } from './url-safe-name.js'
export { shareVariantWeights, VARIANT_WEIGHT_TOTAL } from './variant-shares.js'
