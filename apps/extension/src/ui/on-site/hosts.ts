/**
 * The elements Parley puts into a page to hold its closed shadow roots. Kept tiny: the page content script imports it
 * on every page.
 *
 * Their tag is made up once per page (and per isolated world), so a page cannot find Parley with one
 * `querySelector('parley-…')`; which elements are ours is known from the elements themselves, kept in this isolated
 * world where page scripts cannot look. The content script and the lazily imported quick-access code share this world's
 * `globalThis`, hence the registry lives there.
 */
type HostsGlobal = { __parleyHosts?: { name: string; elements: WeakSet<Element> } };

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function word(random: Uint8Array, from: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += LETTERS[random[from + i]! % LETTERS.length];
  return out;
}

/** The reserved names this pattern could make (not valid custom element names: attachShadow refuses them). */
const RESERVED = new Set(['font-face', 'color-profile', 'missing-glyph']);

/** A valid custom element name (lowercase letters, one hyphen): two random words of 4 to 7 letters. */
export function randomHostName(): string {
  for (;;) {
    const random = crypto.getRandomValues(new Uint8Array(16));
    const name = `${word(random, 0, 4 + (random[14]! % 4))}-${word(random, 7, 4 + (random[15]! % 4))}`;
    if (!RESERVED.has(name)) return name;
  }
}

function registry() {
  const global = globalThis as HostsGlobal;
  global.__parleyHosts ??= { name: randomHostName(), elements: new WeakSet() };
  return global.__parleyHosts;
}

/** The tag of Parley's hosts on this page. */
export const hostName = (): string => registry().name;

/** Remembers an element as one of Parley's hosts (see `isParleyHost`). */
export function registerHost(element: Element): void {
  registry().elements.add(element);
}

/** Whether an event's target is one of Parley's hosts (events from inside a shadow root are retargeted to it). */
export function isParleyHost(target: EventTarget | null): boolean {
  return target instanceof Element && registry().elements.has(target);
}
