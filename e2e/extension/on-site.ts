import type { BrowserContext, CDPSession, Page } from '@playwright/test';

/**
 * Parley's on-site UI lives in closed shadow roots on hosts with a tag made up per page, so neither the page's scripts
 * nor Playwright's locators (which pierce open roots only) can see into it. The tests look the way DevTools does (the
 * DevTools protocol's DOM domain shows closed roots; no page script can use it) and act the way a person does: the
 * mouse at the element's place on the screen, and the keyboard. Nothing is opened in the product for them.
 */
export type OnSiteKind = 'reply' | 'summary' | 'search' | 'quick' | 'region' | 'engage' | 'draftPost';

/** What is inside each kind of UI (markers inside the closed root, invisible to the page). */
const MARKS: Record<OnSiteKind, string> = {
  reply: '[data-parley=reply]',
  summary: '[data-parley=summarize]',
  search: '[data-parley=search-card]',
  quick: '[data-parley=quick]',
  region: '[data-parley=region]',
  engage: '[data-parley=engage-list]',
  draftPost: '[data-parley=draft-post]',
};

type DomNode = {
  nodeId: number;
  children?: DomNode[];
  shadowRoots?: DomNode[];
  shadowRootType?: 'open' | 'closed' | 'user-agent';
};

const GROUP = 'parley-on-site';
const sessions = new WeakMap<Page, Promise<CDPSession>>();

function devtools(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

/** Remote handles (DevTools object ids) of the closed shadow roots in the page's top document, in document order. */
async function closedRoots(page: Page): Promise<string[]> {
  const session = await devtools(page);
  // The handles of the previous look are let go: every look starts from the document as it is now.
  await session.send('Runtime.releaseObjectGroup', { objectGroup: GROUP });
  const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
  const found: number[] = [];
  const walk = (node: DomNode) => {
    for (const shadow of node.shadowRoots ?? []) {
      if (shadow.shadowRootType === 'closed') found.push(shadow.nodeId);
      walk(shadow);
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(root);
  const ids: string[] = [];
  for (const nodeId of found) {
    const { object } = await session.send('DOM.resolveNode', { nodeId, objectGroup: GROUP });
    if (object.objectId) ids.push(object.objectId);
  }
  return ids;
}

/**
 * The text a node shows. Parley draws its texts as generated content (`::before { content: attr(data-text) }`, see
 * showText in apps/extension/src/ui/on-site/shadow.ts), so this reads what is drawn: each element's `::before`
 * content (a CSS string, unescaped here) followed by its children's text. Runs in the page.
 */
function shown(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node as Text).data;
  if (!(node instanceof Element) || node.localName === 'style') return '';
  const content = getComputedStyle(node, '::before').content;
  const before = content.startsWith('"')
    ? content
        .slice(1, -1)
        .replace(/\\([0-9a-fA-F]{1,6}) ?|\\([\s\S])/g, (_, hex?: string, char?: string) =>
          hex ? String.fromCodePoint(parseInt(hex, 16)) : char!,
        )
    : '';
  return before + Array.from(node.childNodes, shown).join('');
}

/**
 * Runs `fn` with `this` bound to a closed shadow root (in the page, through DevTools), returning its JSON value; `fn`
 * can call `shown(node)`.
 */
async function onRoot<T>(page: Page, objectId: string, fn: string, ...args: unknown[]): Promise<T> {
  const session = await devtools(page);
  const { result, exceptionDetails } = await session.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: `function (...args) { const shown = ${shown.toString()}; return (${fn}).apply(this, args); }`,
    arguments: args.map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
  });
  if (exceptionDetails) throw new Error(`in the shadow root: ${exceptionDetails.exception?.description}`);
  return result.value as T;
}

export type ButtonState = { name: string; visible: boolean; enabled: boolean };

/** Parley's UI of one kind on a page: the `nth` one (document order), optionally only those inside `within`. */
export class OnSite {
  constructor(
    private readonly page: Page,
    private readonly kind: OnSiteKind,
    private readonly options: { within?: string; nth?: number } = {},
  ) {}

  /** The nth one of its kind and more. */
  nth(index: number): OnSite {
    return new OnSite(this.page, this.kind, { ...this.options, nth: index });
  }

  private async roots(): Promise<string[]> {
    const mine: string[] = [];
    for (const id of await closedRoots(this.page)) {
      const matches = await onRoot<boolean>(
        this.page,
        id,
        'function (mark, within) { return !!this.querySelector(mark) && (!within || !!this.host.closest(within)); }',
        MARKS[this.kind],
        this.options.within ?? null,
      );
      if (matches) mine.push(id);
    }
    return mine;
  }

  private async run<T>(fn: string, ...args: unknown[]): Promise<T | null> {
    const root = (await this.roots())[this.options.nth ?? 0];
    return root ? onRoot<T>(this.page, root, fn, ...args) : null;
  }

  /** How many of this kind the page holds. */
  async count(): Promise<number> {
    return (await this.roots()).length;
  }

  /** The text of the first element matching `selector` in it (null when absent). */
  text(selector: string): Promise<string | null> {
    return this.run('function (s) { const e = this.querySelector(s); return e ? shown(e) : null; }', selector);
  }

  /** Whether the first element matching `selector` is shown (null when absent). */
  visible(selector: string): Promise<boolean | null> {
    return this.run(
      'function (s) { const e = this.querySelector(s); return e ? e.checkVisibility() : null; }',
      selector,
    );
  }

  /** The class list of the first element matching `selector`. */
  classes(selector: string): Promise<string[] | null> {
    return this.run(
      'function (s) { const e = this.querySelector(s); return e ? Array.from(e.classList) : null; }',
      selector,
    );
  }

  /** Where on the screen the first element matching `selector` is (its centre), null when absent. */
  center(selector: string): Promise<{ x: number; y: number } | null> {
    return this.run(
      'function (s) { const e = this.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }',
      selector,
    );
  }

  /** Where on the screen the first element matching `selector` is, with the window's size (null when absent). */
  box(selector: string): Promise<{ top: number; bottom: number; viewport: number } | null> {
    return this.run(
      'function (s) { const e = this.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, viewport: innerHeight }; }',
      selector,
    );
  }

  /** Its buttons, by their text, as shown. */
  async buttons(): Promise<ButtonState[]> {
    return (
      (await this.run<ButtonState[]>(
        'function () { return Array.from(this.querySelectorAll("button"), (b) => ({ name: shown(b).trim(), visible: b.checkVisibility(), enabled: !b.disabled })); }',
      )) ?? []
    );
  }

  /** The names of the buttons shown. */
  async buttonNames(): Promise<string[]> {
    return (await this.buttons()).filter((b) => b.visible).map((b) => b.name);
  }

  /** Its links: text and address. */
  async links(): Promise<Array<{ name: string; href: string }>> {
    return (
      (await this.run<Array<{ name: string; href: string }>>(
        'function () { return Array.from(this.querySelectorAll("a"), (a) => ({ name: shown(a).trim(), href: a.href })); }',
      )) ?? []
    );
  }

  /** The focused element inside it: its tag and accessible label (aria-label or text). */
  focused(): Promise<{ tag: string; label: string } | null> {
    return this.run(
      'function () { const e = this.activeElement; return e ? { tag: e.localName, label: e.getAttribute("aria-label") || shown(e).trim() } : null; }',
    );
  }

  /** Where on the screen the person would click the shown, enabled button named `name` (scrolled into view). */
  private target(name: string, scope?: string): Promise<{ x: number; y: number } | null> {
    return this.run(
      `function (name, scope) {
        const within = scope ? this.querySelector(scope) : this;
        const b = within && Array.from(within.querySelectorAll('button')).find((e) => shown(e).trim() === name);
        if (!b || b.disabled || !b.checkVisibility()) return null;
        const r0 = b.getBoundingClientRect();
        if (r0.top < 0 || r0.bottom > innerHeight || r0.left < 0 || r0.right > innerWidth) b.scrollIntoView({ block: 'center' });
        const r = b.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const hit = this.elementFromPoint(x, y);
        return hit && (hit === b || b.contains(hit)) ? { x, y } : null;
      }`,
      name,
      scope ?? null,
    );
  }

  /**
   * A person's click (real mouse input) on the button named `name`, once it is shown, enabled and on top; `scope`:
   * only a button inside the first element matching it.
   */
  async click(name: string, timeout = 10_000, scope?: string): Promise<void> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const at = await this.target(name, scope);
      if (at) {
        await this.page.mouse.click(at.x, at.y);
        return;
      }
      if (Date.now() > deadline) {
        throw new Error(`no "${name}" button to click in ${this.kind}: ${JSON.stringify(await this.buttons())}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Parley's UI of this kind on the page (see OnSite). */
export const onSite = (page: Page, kind: OnSiteKind, options: { within?: string } = {}) =>
  new OnSite(page, kind, options);

/**
 * What a person would paste: the clipboard, read in the page. The context must hold clipboard-read (see
 * `allowClipboard`); the on-site UI writes it from its own (isolated) world on a person's click on Copy.
 */
export async function clipboardText(page: Page): Promise<string> {
  await page.bringToFront();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Lets the pages of this context read the clipboard (and write it: headless Chromium asks for both). */
export const allowClipboard = (context: BrowserContext) =>
  context.grantPermissions(['clipboard-read', 'clipboard-write']);

/** The names of the buttons shown in every closed root of the page (whatever its kind). */
export async function everyButtonName(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const id of await closedRoots(page)) {
    names.push(
      ...(await onRoot<string[]>(
        page,
        id,
        'function () { return Array.from(this.querySelectorAll("button")).filter((b) => b.checkVisibility()).map((b) => shown(b).trim()); }',
      )),
    );
  }
  return names;
}
