/** `/docs`: Swagger UI (swagger-ui-dist, served by Sibyl) rendering /openapi.json, response schemas included. */
import { html, page } from '../html.js';
import { ASSETS_PATH } from '../assets.js';
import { ROUTES } from '../../cards/routes.js';

export function renderDocs(): string {
  return page({
    title: 'Sibyl API docs', path: '/docs', scripts: ['docs'],
    head: html`<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui/swagger-ui.css"><script src="${ASSETS_PATH}/swagger-ui/swagger-ui-bundle.js"></script>`,
  }, html`<h1>API docs</h1>
<p>The OpenAPI 3.1 document at <a href="${ROUTES.openapi}"><code>${ROUTES.openapi}</code></a>, projected from the registry: every paid operation with its request body, answer schema and price. A call without payment answers <code>402</code>; see <a href="/#how-to-buy">how to buy</a>.</p>
<div id="swagger-ui" data-spec="${ROUTES.openapi}"></div>`);
}
