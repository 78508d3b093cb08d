// A tiny element builder. Text is always added as text nodes (without bidirectional
// controls); nothing is ever parsed as HTML.
import { displayText } from '../core/text';

export type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes; `false`/`undefined` leave the attribute out, `true` sets it empty. */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Partial<Record<keyof HTMLElementEventMap, (event: Event) => void>>;
  /** Identifies a focusable element across re-renders, so focus stays where it was. */
  focusKey?: string;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : displayText(String(value)));
  }
  for (const [event, handler] of Object.entries(props.on ?? {})) element.addEventListener(event, handler);
  if (props.focusKey) element.dataset.focus = props.focusKey;
  append(element, ...children);
  return element;
}

function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(displayText(child)) : child);
  }
}

/** Replaces a region's content; focus inside it moves to the new element with the same focus key. */
export function replaceContent(region: HTMLElement, ...children: Child[]): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && region.contains(active) ? active.dataset.focus : undefined;
  region.replaceChildren();
  append(region, ...children);
  if (key) {
    const again = region.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    again?.focus();
  }
}

/** Text only visible to screen readers. */
export function srOnly(text: string): HTMLSpanElement {
  return h('span', { class: 'sr-only' }, text);
}

/** A button showing only a symbol (‹, ›…): its label is its accessible name and its tooltip. */
export function iconButton(
  symbol: string,
  label: string,
  focusKey: string,
  disabled: boolean,
  click: () => void,
): HTMLButtonElement {
  return h(
    'button',
    {
      class: 'icon-button',
      focusKey,
      attrs: { type: 'button', 'aria-label': label, title: label, disabled },
      on: { click },
    },
    symbol,
  );
}

/** An SVG element (attributes as given; text only as text nodes). */
export function svg(
  tag: string,
  attrs: Record<string, string | number | undefined> = {},
  ...children: Child[]
): SVGElement {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) element.setAttribute(name, String(value));
  append(element, ...children);
  return element;
}
