// Swagger UI over this service's own document. The page is served at {base}/docs, so the
// relative `openapi.json` is {base}/openapi.json, whatever the mount point and basePath.
// Nothing is loaded from elsewhere: no validator badge (it would send the document to
// validator.swagger.io), and no `?url=` or `?configUrl=` from the address bar, which would
// point the page, and the token typed into it, at another server.
window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  queryConfigEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
  deepLinking: true,
  displayRequestDuration: true,
  // The service's one operation; GET /openapi.json is the page's own source.
  supportedSubmitMethods: ['post'],
  // The token stays in the page's memory, never in localStorage.
  persistAuthorization: false,
});
