/**
 * A tiny element builder. Text only ever goes in through `textContent` (never `innerHTML`), so a
 * memory's content cannot inject markup; the page's Content-Security-Policy also forbids HTML
 * sinks (`require-trusted-types-for 'script'`), so a slip would throw instead of running.
 *
 * @example
 * h("button", { type: "button", class: "link" }, "Edit");
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

/**
 * Stored or typed text inside the page's own sentence, quoted and in a `<bdi>`: its bidi controls
 * (U+202E…) reorder only itself, never the page's words around it (a memory saying
 * "\u202E.derotser eb tonnac tI" cannot turn "It cannot be restored." around).
 *
 * @example
 * status.replaceChildren("Nothing found for ", ...quoted(message), ".");
 */
export const quoted = (text: string): (string | Node)[] => ['"', h("bdi", {}, text), '"'];

/** The element with this id; a missing one is a bug in `index.html`. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`index.html has no #${id}`);
  return element as T;
}

const clearTimers = new WeakMap<HTMLElement, number>();

/** How long a notice (not an error) stays before it clears itself. */
export const NOTICE_MS = 5_000;

/**
 * Shows a message in a live region (screen readers announce it). A notice clears itself after
 * {@link NOTICE_MS}; an error stays until the next message.
 */
export function announce(region: HTMLElement, text: string, kind: "info" | "error" = "info"): void {
  region.textContent = text;
  region.dataset["kind"] = kind;
  const previous = clearTimers.get(region);
  if (previous !== undefined) clearTimeout(previous);
  if (kind === "info" && text !== "") {
    clearTimers.set(
      region,
      window.setTimeout(() => {
        if (region.textContent === text) region.textContent = "";
      }, NOTICE_MS),
    );
  }
}
