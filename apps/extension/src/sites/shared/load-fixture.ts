/** Test helper: load a saved page fixture into the jsdom document and run its inline scripts, as a browser would. */
export function loadFixture(html: string): Document {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.title = parsed.title;
  for (const [target, source] of [
    [document.documentElement, parsed.documentElement],
    [document.body, parsed.body],
  ] as const) {
    for (const name of target.getAttributeNames()) target.removeAttribute(name);
    for (const attr of Array.from(source.attributes)) target.setAttribute(attr.name, attr.value);
  }
  document.head.replaceChildren(...Array.from(parsed.head.childNodes, (node) => document.importNode(node, true)));
  document.body.replaceChildren(...Array.from(parsed.body.childNodes, (node) => document.importNode(node, true)));
  // Parsed scripts are marked as already run; fresh copies run when inserted (jsdom runs inline scripts).
  for (const old of Array.from(document.querySelectorAll('script'))) {
    const script = document.createElement('script');
    script.textContent = old.textContent;
    old.replaceWith(script);
  }
  return document;
}

/** The fixture pages' imitation of their editor framework's model (see the inline script in each fixture). */
export interface EditorState {
  text: string;
  source: string;
  events: number;
}

/** The page's own window: vitest's globals are copies, while fixture scripts run in jsdom's window. */
export function pageWindow(): Record<string, any> {
  return (globalThis as { jsdom?: { window: Record<string, any> } }).jsdom?.window ?? (window as any);
}

export function editorState(key?: string): EditorState | undefined {
  const win = pageWindow();
  return key ? win.__editorStates?.[key] : win.__editorState;
}
