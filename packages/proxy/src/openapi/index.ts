// The runtime-generated OpenAPI document and the interactive docs (spec 4.5, `enableOAS`).
export { createOpenApiDocument } from './document.js'
export { createDocsHandler } from './handler.js'
