import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { Placement } from '../../sites/shared/types';
import { hostName, registerHost } from './hosts';
import { listenTrusted } from './trusted';

/** Styles of everything Parley shows on a site; they live inside the shadow root only. */
export const CSS = `
.parley { position: relative; display: inline-block; font: 13px/1.4 system-ui, sans-serif; color: #1f2328; vertical-align: middle; }
.parley button { font: inherit; cursor: pointer; border-radius: 6px; border: 1px solid #c9ced6; background: #fff; color: #1f2328; padding: 3px 9px; margin: 2px; }
.parley button:hover { background: #f1f4f8; }
.parley button.primary { background: #3b5bdb; border-color: #3b5bdb; color: #fff; }
.parley button.primary:hover { background: #2f4ac0; }
.parley button:disabled { opacity: .6; cursor: default; }
.parley .panel { position: absolute; z-index: 2147483647; top: 100%; left: 0; width: 340px; max-width: 90vw; background: #fff; border: 1px solid #c9ced6; border-radius: 8px; box-shadow: 0 6px 24px rgba(0,0,0,.16); padding: 10px; }
.parley .panel[hidden] { display: none; }
.parley .title { font-weight: 600; margin: 0 0 6px; }
.parley .text { white-space: pre-wrap; margin: 0 0 8px; max-height: 260px; overflow: auto; }
.parley .error { color: #b42318; }
.parley .actions { display: flex; flex-wrap: wrap; justify-content: flex-end; }
.parley .list { display: flex; flex-direction: column; align-items: stretch; max-height: 260px; overflow: auto; margin: 0 0 8px; }
.parley .list button.item { text-align: left; white-space: normal; }
.parley .section { font-size: 12px; font-weight: 600; color: #57606a; margin: 8px 2px 2px; }
[data-text]::before { content: attr(data-text); }
`;

/** Where the host goes, relative to the anchor. */
const PLACE: Record<Placement, (anchor: Element, host: Element) => void> = {
  before: (anchor, host) => anchor.before(host),
  after: (anchor, host) => anchor.after(host),
  append: (anchor, host) => anchor.append(host),
  prepend: (anchor, host) => anchor.prepend(host),
};

/** The host takes nothing from the page's styles (WXT's reset, kept). */
const HOST_RESET = ':host { all: initial !important; }';

/** The page's on-site styles, parsed once and shared by every root Parley mounts on it (null: not supported). */
let shared: CSSStyleSheet | null | undefined;

function sharedSheet(): CSSStyleSheet | null {
  if (shared === undefined) {
    try {
      shared = new CSSStyleSheet();
      shared.replaceSync(HOST_RESET + CSS);
    } catch {
      shared = null;
    }
  }
  return shared;
}

/** A person's keys typed into a panel do not reach the site's own keyboard shortcuts. */
const ISOLATED_EVENTS = ['keydown', 'keyup', 'keypress'] as const;

export type ShadowUi = { shadowHost: HTMLElement; remove(): void };

/**
 * A Parley UI mounted next to `anchor` in its own shadow root; `build` fills it with plain DOM, its texts shown with
 * `el` / `showText` (never HTML, never a text node).
 *
 * The root is closed: `host.shadowRoot` is null for the page, so page scripts can neither read what Parley shows (the
 * answers) nor reach its buttons; the host is a bare element with this page's made-up tag (see hosts.ts), no id, no
 * attribute. Its listeners still go through `onTrusted`, so nothing a page fires at the host does anything either.
 *
 * Built here rather than with WXT's createShadowRootUi, which every site script would otherwise carry (its auto-mount
 * watcher, CSS splitting and element-name checks) and which gives each root its own copy of the styles to parse: the
 * styles are one constructed sheet per page, adopted by every root (a <style> where constructed sheets are missing).
 */
export async function mountShadowUi(
  ctx: ContentScriptContext,
  anchor: Element,
  placement: Placement,
  build: (container: HTMLElement) => void,
): Promise<ShadowUi> {
  const host = document.createElement(hostName());
  const root = host.attachShadow({ mode: 'closed' });
  const sheet = sharedSheet();
  if (sheet) root.adoptedStyleSheets = [sheet];
  else root.append(styleSheet(HOST_RESET + CSS));
  // <html><body> as WXT built it, so the UI keeps its box on every site (the body's margin included).
  const page = document.createElement('html');
  const container = document.createElement('body');
  page.append(container);
  for (const type of ISOLATED_EVENTS) listenTrusted(container, type, (event) => event.stopPropagation());
  root.append(page);
  registerHost(host);
  PLACE[placement](anchor, host);
  build(container);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    host.remove();
    container.replaceChildren();
  };
  ctx.onInvalidated(remove);
  return { shadowHost: host, remove };
}

/** `document.createElement` with a class and text, shown with `showText` (never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) showText(node, text);
  return node;
}

/**
 * Shows `text` in an element of a closed shadow root without making it a text node of the DOM. A closed root keeps a
 * page's scripts out of the DOM but not out of its text: Chromium's `window.find('…')` searches closed shadow roots
 * and leaves the selection on what it found, which the page can then extend and read (`getSelection().modify('extend',
 * 'forward', 'documentboundary')`, `toString()`), so an answer written as text could be read back whole. Generated
 * content (`[data-text]::before { content: attr(data-text) }`, in CSS above) is drawn and read out by screen readers,
 * but neither found nor selected; the attribute is inside the closed root, where the page cannot look. Copy and Insert
 * give the person the text.
 */
export function showText(node: HTMLElement, text: string): void {
  node.dataset.text = text;
}

/** A style sheet for a shadow root. */
export function styleSheet(css: string): HTMLStyleElement {
  const node = document.createElement('style');
  node.textContent = css;
  return node;
}

export function errorMessage(error: unknown, fallback: string): string {
  const named = error as { name?: string; code?: string; message?: string } | null;
  if (named?.name === 'ExtensionMessageError' && named.code !== 'NO_RECEIVER' && named.message) return named.message;
  return fallback;
}
