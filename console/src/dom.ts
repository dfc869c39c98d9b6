// Small DOM helpers: views build their elements once and then only change what changed, so a
// refresh every 2 s never redraws (and never flickers, or loses focus or a selection).

type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

/** An element with attributes (on* are listeners) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      node.className = String(value);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** Sets a node's text only when it differs. */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Sets an attribute only when it differs (null removes it). */
export function setAttr(node: Element, name: string, value: string | null): void {
  if (value === null) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== value) {
    node.setAttribute(name, value);
  }
}

/**
 * Keeps `parent`'s children in step with `items`: one child per key, made by `create` the first
 * time, changed in place by `update` after; children of keys gone are removed; order follows items.
 */
export function reconcile<T, N extends HTMLElement>(
  parent: HTMLElement,
  items: readonly T[],
  key: (item: T) => string,
  create: (item: T) => N,
  update: (node: N, item: T) => void,
): void {
  const existing = new Map<string, N>();
  for (const child of Array.from(parent.children) as N[]) {
    const k = child.dataset.key;
    if (k !== undefined) existing.set(k, child);
  }
  let cursor: Element | null = parent.firstElementChild;
  for (const item of items) {
    const k = key(item);
    let node = existing.get(k);
    if (node) {
      existing.delete(k);
    } else {
      node = create(item);
      node.dataset.key = k;
    }
    update(node, item);
    if (node !== cursor) {
      parent.insertBefore(node, cursor);
    } else {
      cursor = cursor.nextElementSibling;
    }
  }
  for (const gone of existing.values()) gone.remove();
}

/** "12 s", "3 min", "2 h": how long ago a time was. */
export function age(from: Date | undefined, now: number): string {
  if (!from) return "–";
  const seconds = Math.max(0, Math.round((now - from.getTime()) / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** HH:MM:SS in the browser's time zone. */
export function clock(time: Date): string {
  return time.toLocaleTimeString([], { hour12: false });
}
