/** Small DOM helpers shared by the site readers. */

export function all<E extends Element = HTMLElement>(root: ParentNode | null | undefined, selector: string): E[] {
  return root ? Array.from(root.querySelectorAll<E>(selector)) : [];
}

export function first<E extends Element = HTMLElement>(
  root: ParentNode | null | undefined,
  selector: string,
): E | null {
  return root ? root.querySelector<E>(selector) : null;
}

/** `node` itself when it is a document, else its owner document. */
export function documentOf(node: ParentNode): Document {
  return node.nodeType === 9 ? (node as Document) : ((node as Node).ownerDocument as Document);
}

/** True when `a` comes before `b` in document order. */
export function precedes(a: Node, b: Node): boolean {
  return (a.compareDocumentPosition(b) & 4) !== 0; // Node.DOCUMENT_POSITION_FOLLOWING
}

/** The nearest ancestor (or self) of `el` that contains an element matching `selector`. */
export function closestContaining(el: Element, selector: string, stop?: Element | null): Element | null {
  for (let node: Element | null = el; node && node !== stop; node = node.parentElement) {
    if (node.querySelector(selector)) return node;
  }
  return null;
}

/** De-duplicate while keeping order (nested matches of the same editor, repeated selectors). */
export function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** A contenteditable element that accepts typing (not contenteditable="false" islands). */
export function isEditable(el: Element): boolean {
  const value = el.getAttribute('contenteditable');
  return el.tagName === 'TEXTAREA' || (value !== null && value !== 'false');
}

/** The first match of the first selector that matches anything: selectors in order of preference. */
export function firstOf<E extends Element = HTMLElement>(
  root: ParentNode | null | undefined,
  selectors: readonly string[],
): E | null {
  for (const selector of selectors) {
    const found = first<E>(root, selector);
    if (found) return found;
  }
  return null;
}

/** The child of `parent` that is or holds `node` (null when `node` is null or not inside). */
export function childHolding(parent: Node, node: Node | null): ChildNode | null {
  let current = node;
  while (current && current.parentNode !== parent) current = current.parentNode;
  return current as ChildNode | null;
}

/** The first e-mail address in `text`, lower case (null when there is none). */
export function addressIn(text: string | null | undefined): string | null {
  const found = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(text ?? '');
  return found ? found[0].toLowerCase() : null;
}
