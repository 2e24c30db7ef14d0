/**
 * The fixed paths Sibyl serves besides the registry's skills: the server mounts them from here and
 * the OpenAPI document, the pages and llms.txt name them from here, so no path is written twice.
 * (Paths owned by one module — the MCP endpoint, the A2A card and skills — are exported there.)
 */
export const ROUTES = {
  openapi: '/openapi.json',
  health: '/healthz',
  readiness: '/readyz',
  liveness: '/livez',
  metrics: '/metrics',
  marketplaceCatalog: '/api/marketplace/catalog',
  mcpTools: '/api/mcp/tools',
  signInNonce: '/api/auth/nonce',
  signIn: '/api/auth/siwe',
  credits: '/api/credits',
  creditsTopUp: '/api/credits/topup',
  forecastModels: '/api/svc/v1/models',
  forecastAccuracy: '/api/svc/v1/forecast/accuracy',
} as const;
