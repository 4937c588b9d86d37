import type { Rect, Size } from './crop';

/** What the region picker answers: the rectangle in the viewport's CSS pixels and how to map it onto a capture. */
export type RegionPick = { rect: Rect; viewport: Size; devicePixelRatio: number };

/**
 * Injected into the tab (chrome.scripting, isolated world) when the person asks for a region, so nothing of it lives
 * in the page the rest of the time; it must not use anything from outside its own body. A full-viewport overlay in a
 * closed shadow root: drag a rectangle, release to pick it, Escape (or a click without a drag) cancels. The overlay
 * is removed and two frames are painted without it before answering, so the capture that follows does not show it.
 * As for all on-site UI (ui/on-site/trusted.ts, ui/on-site/hosts.ts, which this cannot import): only a person's own
 * events count, and the host is a bare element with a made-up tag, remembered in this isolated world only.
 */
export function pickRegionInPage(hint: string, minSize: number): Promise<RegionPick | null> {
  return new Promise((resolve) => {
    const world = globalThis as { __parleyRegionPicker?: Element };
    world.__parleyRegionPicker?.remove();
    const letters = (n: number) =>
      Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => String.fromCharCode(97 + (b % 26))).join('');
    const host = document.createElement(`${letters(5)}-${letters(6)}`);
    world.__parleyRegionPicker = host;
    // The host's look is set from inside (`:host`, important), where the page's style sheets cannot override it.
    const root = host.attachShadow({ mode: 'closed' });
    const style = document.createElement('style');
    style.textContent = `
      :host { all: initial !important; position: fixed !important; inset: 0 !important;
        z-index: 2147483647 !important; display: block !important; }
      .veil { position: fixed; inset: 0; cursor: crosshair; background: rgba(15, 23, 42, 0.35); user-select: none;
        touch-action: none; }
      .veil.dragging { background: transparent; }
      .box { position: fixed; display: none; border: 2px solid #3b82f6; box-sizing: border-box;
        box-shadow: 0 0 0 100vmax rgba(15, 23, 42, 0.35); pointer-events: none; }
      .hint { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); padding: 8px 14px; border-radius: 8px;
        background: #0f172a; color: #fff; font: 14px/1.4 system-ui, sans-serif; pointer-events: none;
        box-shadow: 0 4px 16px rgba(0, 0, 0, 0.3); }`;
    const veil = document.createElement('div');
    veil.className = 'veil';
    veil.dataset.parley = 'region';
    veil.setAttribute('role', 'application');
    veil.setAttribute('aria-label', hint);
    const box = document.createElement('div');
    box.className = 'box';
    const label = document.createElement('div');
    label.className = 'hint';
    label.textContent = hint;
    veil.append(box, label);
    root.append(style, veil);
    (document.body ?? document.documentElement).append(host);

    let start: { x: number; y: number } | null = null;
    let done = false;
    const current = (event: PointerEvent) => {
      const x = Math.max(0, Math.min(window.innerWidth, event.clientX));
      const y = Math.max(0, Math.min(window.innerHeight, event.clientY));
      return {
        x: Math.min(start!.x, x),
        y: Math.min(start!.y, y),
        width: Math.abs(x - start!.x),
        height: Math.abs(y - start!.y),
      };
    };
    const finish = (rect: Rect | null) => {
      if (done) return;
      done = true;
      window.removeEventListener('keydown', onKey, true);
      host.remove();
      if (world.__parleyRegionPicker === host) delete world.__parleyRegionPicker;
      if (!rect) {
        resolve(null);
        return;
      }
      const answer: RegionPick = {
        rect,
        viewport: { width: window.innerWidth, height: window.innerHeight },
        devicePixelRatio: window.devicePixelRatio || 1,
      };
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(answer)));
    };
    const onKey = (event: KeyboardEvent) => {
      if (!event.isTrusted || event.key !== 'Escape') return;
      event.preventDefault();
      event.stopImmediatePropagation();
      finish(null);
    };
    window.addEventListener('keydown', onKey, true);
    veil.addEventListener('pointerdown', (event) => {
      if (!event.isTrusted || event.button !== 0) return;
      event.preventDefault();
      start = { x: event.clientX, y: event.clientY };
      veil.setPointerCapture(event.pointerId);
      veil.classList.add('dragging');
      label.style.display = 'none';
      box.style.display = 'block';
      Object.assign(box.style, { left: `${start.x}px`, top: `${start.y}px`, width: '0px', height: '0px' });
    });
    veil.addEventListener('pointermove', (event) => {
      if (!event.isTrusted || !start) return;
      const rect = current(event);
      Object.assign(box.style, {
        left: `${rect.x}px`,
        top: `${rect.y}px`,
        width: `${rect.width}px`,
        height: `${rect.height}px`,
      });
    });
    veil.addEventListener('pointerup', (event) => {
      if (!event.isTrusted || !start) return;
      const rect = current(event);
      finish(rect.width >= minSize && rect.height >= minSize ? rect : null);
    });
    veil.addEventListener('contextmenu', (event) => {
      if (!event.isTrusted) return;
      event.preventDefault();
      finish(null);
    });
  });
}

/** Injected like pickRegionInPage: where an image with this address is on the page (the first one visible). */
export function findImageInPage(srcUrl: string): RegionPick | null {
  const images = Array.from(document.images).filter((img) => img.currentSrc === srcUrl || img.src === srcUrl);
  for (const img of images) {
    const r = img.getBoundingClientRect();
    const visible =
      r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
    if (!visible) continue;
    return {
      rect: { x: r.left, y: r.top, width: r.width, height: r.height },
      viewport: { width: window.innerWidth, height: window.innerHeight },
      devicePixelRatio: window.devicePixelRatio || 1,
    };
  }
  return null;
}
