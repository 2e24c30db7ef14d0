/** The docs page: Swagger UI (its bundle is loaded by the page before this module) on the page's OpenAPI document. */
interface SwaggerWindow {
  SwaggerUIBundle?: (options: Record<string, unknown>) => unknown;
}

const target = document.getElementById('swagger-ui');
const bundle = (window as unknown as SwaggerWindow).SwaggerUIBundle;
if (target && bundle) {
  bundle({
    url: target.dataset.spec,
    domNode: target,
    deepLinking: true,
    // Operations listed, their response schemas one click away; models shown expanded one level.
    docExpansion: 'list',
    defaultModelsExpandDepth: 1,
    defaultModelExpandDepth: 2,
  });
} else if (target) {
  target.textContent = 'Swagger UI did not load; the document is at /openapi.json.';
}
