import { el, showText } from './shadow';
import type { Translate } from './strings';
import { listenTrusted } from './trusted';

/** How long a Copy button says 'Copied' before it says 'Copy' again. */
export const COPIED_MS = 1500;

/**
 * The Copy button of an on-site panel. Its texts are drawn from an attribute in a closed root (see showText), so a
 * person cannot select them by hand: a person's click (never a page's) puts `text()` on the clipboard, and the button
 * says 'Copied' for a moment. Nothing is copied while there is no text.
 */
export function copyButton(t: Translate, text: () => string): HTMLButtonElement {
  const button = el('button', '', t('copy'));
  button.type = 'button';
  button.dataset.parley = 'copy';
  let timer: ReturnType<typeof setTimeout> | undefined;
  listenTrusted(button, 'click', () => {
    const value = text();
    if (!value) return;
    navigator.clipboard.writeText(value).then(
      () => {
        showText(button, t('copied'));
        clearTimeout(timer);
        timer = setTimeout(() => showText(button, t('copy')), COPIED_MS);
      },
      // The browser refused (the page lost the focus): the button keeps saying Copy.
      () => undefined,
    );
  });
  return button;
}
