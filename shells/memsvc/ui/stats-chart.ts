const SVG = "http://www.w3.org/2000/svg";
const ROW = 18;
const LABEL = 78;
const WIDTH = 260;

function svg(tag: string, attributes: Record<string, string | number>, text?: string): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * Draws counts as horizontal bars into an `<svg>`: one row per key, bar length relative to the
 * largest count, the count after the bar. SVG attributes, not inline styles, so the strict
 * Content-Security-Policy (`style-src 'self'`) holds.
 *
 * @example
 * drawBars(byId("chart-type"), { rule: 3, fact: 10 });
 */
export function drawBars(target: SVGSVGElement, counts: Record<string, number>): void {
  const entries = Object.entries(counts);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const barSpace = WIDTH - LABEL - 44;
  target.replaceChildren();
  target.setAttribute("viewBox", `0 0 ${WIDTH} ${entries.length * ROW}`);
  target.setAttribute(
    "aria-label",
    entries.map(([key, n]) => `${key} ${n}`).join(", ") || "no memories",
  );
  entries.forEach(([key, n], i) => {
    const y = i * ROW;
    const length = n === 0 ? 0 : Math.max(2, Math.round((n / max) * barSpace));
    target.append(
      svg("text", { x: 0, y: y + 13, class: "chart-label" }, key),
      svg("rect", {
        x: LABEL,
        y: y + 3,
        width: length,
        height: ROW - 6,
        rx: 2,
        class: "chart-bar",
      }),
      svg("text", { x: LABEL + length + 4, y: y + 13, class: "chart-count" }, String(n)),
    );
  });
}
