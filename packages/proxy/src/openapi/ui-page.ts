// Our own Swagger UI page and initializer, instead of swagger-ui-dist's index.html, which loads the
// petstore document. Every URL is relative to the page ({base}/docs/openapi/), so the UI works
// under any base path (#133) and behind a proxy that strips a prefix. No inline script, so the
// page can send a strict Content-Security-Policy.

/** Asset URLs carry the swagger-ui-dist version, so they can be cached as immutable. */
export function renderUiPage(version: string): string {
  const v = encodeURIComponent(version)
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Vexil Proxy API</title>
    <link rel="stylesheet" href="./swagger-ui.css?v=${v}">
    <link rel="stylesheet" href="./index.css?v=${v}">
    <link rel="icon" type="image/png" href="./favicon-32x32.png?v=${v}" sizes="32x32">
    <link rel="icon" type="image/png" href="./favicon-16x16.png?v=${v}" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="./swagger-ui-bundle.js?v=${v}"></script>
    <script src="./vexil-initializer.js"></script>
  </body>
</html>
`
}

export const INITIALIZER_NAME = 'vexil-initializer.js'

// Absolute before handing it over: Swagger UI resolves the (relative) server URL against the
// document's URL. validatorUrl null: the default badge would call validator.swagger.io.
export const INITIALIZER_JS = `// Vexil: Swagger UI for this proxy's own OpenAPI document, {base}/docs/openapi.json.
window.ui = SwaggerUIBundle({
  url: new URL('../openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
})
`

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // The page and initializer are ours and change with Vexil, not with swagger-ui-dist.
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
}
