import type { ContentScriptContext } from 'wxt/utils/content-script-context';

/**
 * Runs `scan` now and again after the page changes, at most once per `wait` ms (sites render their editors late and
 * re-render them often). Stops when the returned function is called or the extension context goes away.
 */
export function watchPage(ctx: ContentScriptContext, scan: () => void, wait = 400): () => void {
  let pending = false;
  let stopped = false;
  const run = () => {
    pending = false;
    if (!stopped) scan();
  };
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    ctx.setTimeout(run, wait);
  });
  observer.observe(document.body ?? document.documentElement, { childList: true, subtree: true });
  const stop = () => {
    stopped = true;
    observer.disconnect();
  };
  ctx.onInvalidated(stop);
  scan();
  return stop;
}
