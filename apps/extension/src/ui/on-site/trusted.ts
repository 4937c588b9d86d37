/**
 * A page's scripts can fire any event at anything they can reach (`el.click()`, `dispatchEvent(new KeyboardEvent(…))`,
 * a `mouseup` on the document after selecting text themselves); only events that come from a person's own mouse or
 * keyboard are `isTrusted`. Every listener of what content scripts put on a page goes through here, so a page can
 * neither drive Parley's on-site UI nor spend the person's credits (a unit test holds the content scripts to it).
 *
 * Listen only to events a person causes (click, keydown, mouseup…): some events are trusted even when a page script
 * caused them (`selectionchange`, `focus`, `input` after `execCommand`, `submit` after a script's `click()` on a submit
 * button), so on-site UI never acts on those.
 */
export function onTrusted<E extends Event>(handler: (event: E) => void): (event: E) => void {
  return (event) => {
    if (event.isTrusted) handler(event);
  };
}

type EventOf<K extends string> = K extends keyof WindowEventMap
  ? WindowEventMap[K]
  : K extends keyof HTMLElementEventMap
    ? HTMLElementEventMap[K]
    : Event;

/** `target.addEventListener(type, onTrusted(handler), options)`; returns the function that removes it. */
export function listenTrusted<K extends string>(
  target: EventTarget,
  type: K,
  handler: (event: EventOf<K>) => void,
  options?: boolean | AddEventListenerOptions,
): () => void {
  const listener = onTrusted(handler as (event: Event) => void);
  target.addEventListener(type, listener, options);
  return () => target.removeEventListener(type, listener, options);
}
