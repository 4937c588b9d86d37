import type { ContentScriptContext } from 'wxt/utils/content-script-context';

/**
 * Runs `scan` now and again after the page changes, at most once per `wait` ms (sites render their editors late and
 * re-render them often). Stops when the extension context goes away.
 */
export function watchPage(ctx: ContentScriptContext, scan: () => void, wait = 400): void {
  let pending = false;
  const run = () => {
    pending = false;
    scan();
  };
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    ctx.setTimeout(run, wait);
  });
  observer.observe(document.body ?? document.documentElement, { childList: true, subtree: true });
  ctx.onInvalidated(() => observer.disconnect());
  scan();
}
