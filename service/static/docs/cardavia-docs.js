// Swagger UI over the service's own /openapi.yaml, every asset served under /docs.
"use strict";
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.yaml",
    dom_id: "#swagger-ui",
    layout: "StandaloneLayout",
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    deepLinking: true,
    // Swagger UI would otherwise send the document to an outside validator for a badge.
    validatorUrl: null,
    // Every operation's examples are there to try: open each one ready to send.
    tryItOutEnabled: true,
    displayOperationId: true,
  });
});
