/** Small DOM helpers shared by the pages' scripts. */

/** The element with this id, or an error naming it (a page and its script must agree). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** Pretty JSON for a <pre>. */
export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A JSON island the server rendered into the page. */
export function island<T>(id: string): T {
  return JSON.parse(byId(id).textContent ?? 'null') as T;
}
