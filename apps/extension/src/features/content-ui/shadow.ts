import { createShadowRootUi, type ShadowRootContentScriptUi } from 'wxt/utils/content-script-ui/shadow-root';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { Placement } from '../sites/shared/types';

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
`;

const APPEND = { before: 'before', after: 'after', append: 'last', prepend: 'first' } as const;

/** A Parley UI mounted next to `anchor` in its own shadow root; `build` fills it with plain DOM (page text stays text). */
export async function mountShadowUi(
  ctx: ContentScriptContext,
  name: string,
  anchor: Element,
  placement: Placement,
  build: (container: HTMLElement) => void,
): Promise<ShadowRootContentScriptUi<void>> {
  const ui = await createShadowRootUi(ctx, {
    name,
    position: 'inline',
    anchor,
    append: APPEND[placement],
    css: CSS,
    // Keyboard events typed into the panel do not reach the site's shortcuts.
    isolateEvents: true,
    onMount: (container) => build(container),
  });
  ui.mount();
  return ui;
}

/** `document.createElement` with a class and text (never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function errorMessage(error: unknown, fallback: string): string {
  const named = error as { name?: string; code?: string; message?: string } | null;
  if (named?.name === 'ExtensionMessageError' && named.code !== 'NO_RECEIVER' && named.message) return named.message;
  return fallback;
}
