// The runtime-generated OpenAPI document and the interactive docs (spec 4.5, `enableOAS`).
export { createOpenApiDocument, type OpenApiDocumentOptions } from './document.js'
export { createDocsHandler, type DocsHandlerOptions } from './handler.js'
