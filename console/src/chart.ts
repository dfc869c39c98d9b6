// A line chart in SVG over the last hour: drawn once, then only its paths' `d` and the labels
// change, so a refresh does not flicker.
import { el, setText } from "./dom";
import { Series, WINDOW_MS } from "./series";

const SVG = "http://www.w3.org/2000/svg";
const W = 360;
const H = 120;
const PAD = { left: 34, right: 6, top: 8, bottom: 18 };
const COLOURS = ["#2563eb", "#d97706", "#059669", "#db2777", "#7c3aed", "#0891b2"];

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export class Chart {
  readonly element: HTMLElement;
  private readonly plot: SVGSVGElement;
  private readonly legend: HTMLElement;
  private readonly top: SVGTextElement;
  private readonly latest: HTMLElement;
  private readonly paths = new Map<string, SVGPathElement>();
  private readonly dots = new Map<string, SVGCircleElement>();

  /** `fixedMax`: the y axis' top (100 for percentages), else the data's. */
  constructor(
    readonly title: string,
    private readonly series: Series,
    private readonly unit: string,
    private readonly fixedMax?: number,
  ) {
    this.plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title, class: "plot" });
    this.plot.append(
      svg("line", { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom, class: "axis" }),
      svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, class: "axis" }),
    );
    this.top = svg("text", { x: PAD.left - 4, y: PAD.top + 4, "text-anchor": "end", class: "tick" });
    const zero = svg("text", { x: PAD.left - 4, y: H - PAD.bottom, "text-anchor": "end", class: "tick" });
    zero.textContent = "0";
    const from = svg("text", { x: PAD.left, y: H - 4, class: "tick" });
    from.textContent = "−60 min";
    const to = svg("text", { x: W - PAD.right, y: H - 4, "text-anchor": "end", class: "tick" });
    to.textContent = "now";
    this.plot.append(this.top, zero, from, to);
    this.legend = el("div", { class: "legend" });
    this.latest = el("span", { class: "latest" });
    this.element = el("figure", { class: "chart", "data-chart": title }, el("figcaption", {}, title, " ", this.latest), this.plot, this.legend);
  }

  /** Redraws every line of the series up to `now`. */
  draw(now: number): void {
    const names = this.series.names();
    let max = this.fixedMax ?? 0;
    if (this.fixedMax === undefined) {
      for (const name of names) for (const p of this.series.points(name)) max = Math.max(max, p.v);
      max = Math.max(1, Math.ceil(max * 1.1));
    }
    setText(this.top, String(max));
    const x = (t: number) => PAD.left + ((t - (now - WINDOW_MS)) / WINDOW_MS) * (W - PAD.left - PAD.right);
    const y = (v: number) => H - PAD.bottom - (v / max) * (H - PAD.top - PAD.bottom);
    const latest: string[] = [];
    names.forEach((name, i) => {
      let path = this.paths.get(name);
      const colour = COLOURS[i % COLOURS.length];
      if (!path) {
        path = svg("path", { class: "line", stroke: colour, "data-line": name });
        // The newest point as a dot, so that a line of one point shows too.
        const dot = svg("circle", { r: 2.5, fill: colour, class: "dot" });
        this.plot.append(path, dot);
        this.paths.set(name, path);
        this.dots.set(name, dot);
        // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
        const swatch = el("i");
        swatch.style.background = colour;
        this.legend.append(el("span", { class: "key" }, swatch, name));
      }
      const points = this.series.points(name);
      const d = points.map((p, j) => `${j === 0 ? "M" : "L"}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join("");
      if (path.getAttribute("d") !== d) path.setAttribute("d", d);
      path.dataset.points = String(points.length);
      const last = points[points.length - 1];
      const dot = this.dots.get(name)!;
      dot.setAttribute("cx", last ? x(last.t).toFixed(1) : "-10");
      dot.setAttribute("cy", last ? y(last.v).toFixed(1) : "-10");
      if (last) latest.push((names.length > 1 ? `${name} ` : "") + `${Math.round(last.v * 10) / 10}${this.unit}`);
    });
    setText(this.latest, latest.join(" · "));
  }
}
