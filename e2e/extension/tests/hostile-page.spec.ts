import type { Page, Worker } from '@playwright/test';
import { apiGet, tr } from '../../support.js';
import { EXTENSION_ID } from '../fixtures.js';
import { expect, onSite, signIn, test, URLS } from '../sites.js';

/**
 * A signed-in extension on pages whose own scripts try to use Parley: select text and fire mouseup, fire the
 * quick-access shortcut, reach into Parley's UI and click its buttons (as a page script can: `el.click()`,
 * `dispatchEvent`), and read what it shows. None of it may reach the API, and the page may read nothing; the same
 * things done by a person (Playwright's mouse and keyboard are real input) work.
 */

const ANSWER = 'You asked:';

/** What the person's account shows: credits and use (the API's count, not the extension's). */
async function account(token: string) {
  const { data } = await apiGet<{ credits: Record<string, number>; monthlyUse: number }>('/api/user/profile', token);
  return { credits: data.credits, monthlyUse: data.monthlyUse };
}

/** Records the /api/ai/* requests the extension's background makes from now on (it makes every API call). */
async function watchAiCalls(worker: Worker): Promise<() => Promise<string[]>> {
  await worker.evaluate(() => {
    const g = globalThis as unknown as { __aiCalls?: string[]; fetch: typeof fetch };
    g.__aiCalls = [];
    const original = g.fetch.bind(globalThis);
    g.fetch = (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (url.pathname.startsWith('/api/ai/')) g.__aiCalls!.push(url.pathname);
      return original(input, init);
    };
  });
  return () => worker.evaluate(() => (globalThis as unknown as { __aiCalls: string[] }).__aiCalls);
}

/**
 * The page's own spy, in its main world from the first line: every message posted to its window and every element
 * added to its DOM. `__hostile` holds what it saw and the attacks below.
 */
function installSpy(page: Page) {
  return page.addInitScript(() => {
    const seen = { messages: [] as string[], added: [] as Element[] };
    addEventListener('message', (event) => seen.messages.push(JSON.stringify(event.data)));
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) if (node instanceof Element) seen.added.push(node);
      }
    }).observe(document, { childList: true, subtree: true });
    (window as unknown as { __seen: typeof seen }).__seen = seen;
  });
}

/** Elements added after the page loaded that hold a shadow root (attachShadow throws on them): Parley's, to a page. */
const SUSPECTS = `(() => {
  return window.__seen.added.filter((el) => {
    if (!el.isConnected || !el.localName.includes('-')) return false;
    try {
      document.createElement('div').attachShadow.call(el, { mode: 'open' });
      return false;
    } catch {
      return true;
    }
  });
})()`;

/** Everything a page script can try on the elements it suspects; returns what it could reach. */
async function attack(page: Page) {
  return page.evaluate(async (suspects) => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const hosts = (0, eval)(suspects) as HTMLElement[];
    let openRoots = 0;
    let clicked = 0;
    let hit = 0;
    let read = '';
    for (const host of hosts) {
      // The reported attack: into the open root, type a question, click what asks the AI, read the answer back.
      const root = host.shadowRoot;
      if (root) {
        openRoots++;
        for (const input of Array.from(root.querySelectorAll('input'))) input.value = 'What is this page about?';
        for (const form of Array.from(root.querySelectorAll('form'))) form.requestSubmit();
        for (const button of Array.from(root.querySelectorAll('button'))) {
          if (!/rewrite|reply|summar|ask|explain|translat/i.test(button.textContent ?? '')) continue;
          button.click();
          clicked++;
        }
      }
      // With no root to reach: click the host itself, and wherever on the screen the host is what is hit (its
      // buttons are there), with hand-made events.
      host.click();
      for (let y = 4; y < innerHeight; y += 12) {
        for (let x = 4; x < innerWidth; x += 16) {
          if (document.elementFromPoint(x, y) !== host) continue;
          for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
            host.dispatchEvent(
              new MouseEvent(type, { bubbles: true, composed: true, clientX: x, clientY: y, view: window }),
            );
          }
          hit++;
        }
      }
      host.focus();
      for (const key of ['Enter', ' ', 'Tab', 'Enter']) {
        host.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
      }
    }
    await wait(1500);
    for (const host of hosts) {
      for (const text of Array.from(host.shadowRoot?.querySelectorAll('p') ?? [])) read += text.textContent;
    }
    return { hosts: hosts.length, openRoots, clicked, read, hit: hit > 0 };
  }, SUSPECTS);
}

/**
 * Every way a page can read text out of the document; returns how it got at the answer or at Parley's labels, if it
 * did. `window.find` searches closed shadow roots in Chromium and leaves the selection on what it found, which the page
 * can extend and read: Parley's texts are drawn as generated content, which it does not find.
 */
async function pageReads(page: Page, labels: string[], under?: { x: number; y: number }) {
  return page.evaluate(
    ({ answer, labels, point }) => {
      const found: string[] = [];
      const look = (how: string, text: string | null | undefined) => {
        if (text?.includes(answer)) found.push(how);
      };
      look('textContent', document.documentElement.textContent);
      look('innerText', document.body.innerText);
      look('outerHTML', document.documentElement.outerHTML);
      look('getHTML', document.body.getHTML({ serializableShadowRoots: true }));
      for (const el of Array.from(document.querySelectorAll('*'))) {
        for (const attr of Array.from(el.attributes)) look(`attribute ${attr.name}`, attr.value);
      }
      if (point) {
        const range = document.caretRangeFromPoint(point.x, point.y);
        look('caretRangeFromPoint', range?.startContainer.textContent);
      }
      const selection = getSelection()!;
      selection.selectAllChildren(document.body);
      look('selection', selection.toString());
      const own = document.body.innerText;
      for (const probe of [answer, ...labels].filter((text) => !own.includes(text))) {
        selection.removeAllRanges();
        if (!(window as unknown as { find(s: string): boolean }).find(probe)) continue;
        found.push(`window.find ${probe}`);
        selection.modify('extend', 'forward', 'documentboundary');
        look(`window.find ${probe} + selection`, selection.toString());
      }
      selection.removeAllRanges();
      return found;
    },
    { answer: ANSWER, labels, point: under ?? null },
  );
}

/** What the page can see of the elements Parley added: their tags and attributes. */
const pageView = (page: Page) =>
  page.evaluate(
    (suspects) =>
      ((0, eval)(suspects) as HTMLElement[]).map((host) => ({
        tag: host.localName,
        attributes: host.getAttributeNames(),
        shadowRoot: host.shadowRoot === null ? null : 'open',
      })),
    SUSPECTS,
  );

test('a page’s own events neither open the mini menu or quick access nor spend credits; a person’s input does', async ({
  context,
  page,
  storage,
  worker,
}) => {
  const user = await signIn(page, storage);
  const before = await account(user.token);
  const aiCalls = await watchAiCalls(worker);
  const site = await context.newPage();
  await installSpy(site);
  await site.goto(URLS.article);
  await site.waitForTimeout(500);

  // What the page got, and what it cost the person.
  const outcome = async () => ({
    page: await attack(site),
    aiCalls: await aiCalls(),
    account: await account(user.token),
  });
  const nothing = { page: { hosts: 0, openRoots: 0, clicked: 0, read: '', hit: false }, aiCalls: [], account: before };

  // The page selects text and fires mouseup and shift+keyup (as on the report: credits 30 → 28)…
  await site.evaluate(() => {
    const para = document.querySelector('#para')!;
    getSelection()!.selectAllChildren(para);
    para.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, composed: true, view: window }));
    document.dispatchEvent(new KeyboardEvent('keyup', { key: 'Shift', shiftKey: true, bubbles: true }));
  });
  await site.waitForTimeout(1000);
  expect(await outcome()).toEqual(nothing);
  // … and the quick-access shortcut.
  await site.evaluate(() => {
    for (const target of [document.body, document]) {
      target.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true, bubbles: true }),
      );
    }
  });
  await site.waitForTimeout(1000);
  expect(await outcome()).toEqual(nothing);
  expect(await onSite(site, 'quick').count()).toBe(0);

  // A person selects the paragraph with the mouse (a click first clears the page's selection, or the drag would
  // move the selected text): the mini menu opens.
  await site.mouse.click(600, 400);
  const para = (await site.locator('#para').boundingBox())!;
  await site.mouse.move(para.x + 2, para.y + 4);
  await site.mouse.down();
  await site.mouse.move(para.x + para.width - 2, para.y + para.height - 4, { steps: 5 });
  await site.mouse.up();
  const quick = onSite(site, 'quick');
  await expect.poll(() => quick.buttonNames()).toContain(tr('en', 'extension:onSite.rewrite'));

  // The page sees a bare element and cannot get in; its clicks do nothing.
  expect(await pageView(site)).toEqual([
    { tag: expect.stringMatching(/^[a-z]+-[a-z]+$/), attributes: [], shadowRoot: null },
  ]);
  expect((await pageView(site))[0]!.tag).not.toContain('parley');
  // (`hit`: the page found where on the screen the menu is, and fired its clicks there.)
  expect(await outcome()).toEqual({ ...nothing, page: { ...nothing.page, hosts: 1, hit: true } });

  // The person clicks Rewrite: one call, and the answer is shown inside Parley's UI only.
  await quick.click(tr('en', 'extension:onSite.rewrite'));
  await expect.poll(() => quick.text('[data-parley=quick-result]')).toContain(ANSWER);
  expect(await aiCalls()).toEqual(['/api/ai/edit-message']);
  const labels = ['rewrite', 'copy', 'close', 'explain'].map((key) => tr('en', `extension:onSite.${key}`));
  expect(await pageReads(site, labels, (await quick.center('[data-parley=quick-result]'))!)).toEqual([]);
  await site.keyboard.press('Escape');
  await expect.poll(() => quick.count()).toBe(0);

  // The person's shortcut opens the box; what they ask is answered.
  await site.keyboard.press('Control+Shift+K');
  await expect.poll(() => quick.focused()).toEqual({ tag: 'input', label: tr('en', 'extension:onSite.quickAccess') });
  await site.keyboard.type('When do the boats leave?');
  await site.keyboard.press('Enter');
  await expect.poll(() => quick.text('[data-parley=quick-result]')).toContain(ANSWER);
  expect(await quick.text('[data-parley=quick-result]')).toContain('When do the boats leave?');
  expect(await aiCalls()).toEqual(['/api/ai/edit-message', '/api/ai/edit-message']);
  expect(await pageReads(site, [tr('en', 'extension:onSite.ask')])).toEqual([]);

  // Two answers a person asked for, no more.
  await expect.poll(async () => (await account(user.token)).monthlyUse).toBe(before.monthlyUse + 2);
  // Parley said nothing to the page (no window message naming the extension), and its files cannot be probed at a
  // fixed address (web-accessible resources have a per-session one).
  expect(await site.evaluate(() => (window as unknown as { __seen: { messages: string[] } }).__seen.messages)).toEqual(
    [],
  );
  const probes = await site.evaluate(async (id) => {
    const results: string[] = [];
    for (const file of ['quick-access.js', 'page-reader.js', 'manifest.json']) {
      try {
        await fetch(`chrome-extension://${id}/${file}`);
        results.push(`${file}: read`);
      } catch {
        results.push(`${file}: refused`);
      }
    }
    return results;
  }, EXTENSION_ID);
  expect(probes).toEqual(['quick-access.js: refused', 'page-reader.js: refused', 'manifest.json: refused']);
});

test('a page cannot click “Reply with Parley” or Summarize, nor read their answers; a person can', async ({
  context,
  page,
  storage,
  worker,
}) => {
  const user = await signIn(page, storage);
  const before = await account(user.token);
  const aiCalls = await watchAiCalls(worker);
  const site = await context.newPage();
  await installSpy(site);
  await site.goto(URLS.gmail);
  // The page sees Parley's elements appear (a reply button per editor, the Summarize button). Its clicks on them and
  // on the screen where their buttons are: nothing asked, nothing read.
  await expect.poll(async () => (await pageView(site)).length).toBeGreaterThanOrEqual(3);
  const view = await pageView(site);
  expect({ page: await attack(site), aiCalls: await aiCalls(), account: await account(user.token) }).toEqual({
    page: { hosts: view.length, openRoots: 0, clicked: 0, read: '', hit: true },
    aiCalls: [],
    account: before,
  });
  // What it sees of them: bare elements with a made-up tag, their roots closed.
  for (const host of view) expect(host).toEqual({ tag: view[0]!.tag, attributes: [], shadowRoot: null });
  expect(view[0]!.tag).not.toContain('parley');
  const reply = onSite(site, 'reply');
  const summary = onSite(site, 'summary');
  expect(await reply.buttonNames()).toEqual([
    tr('en', 'extension:onSite.replyButton'),
    tr('en', 'extension:onSite.templates'),
  ]);
  expect(await summary.buttonNames()).toEqual([tr('en', 'extension:onSite.summarize')]);

  // The person's clicks: a suggestion and a summary, shown inside Parley's UI only.
  await reply.click(tr('en', 'extension:onSite.replyButton'));
  await expect.poll(() => reply.text('[data-parley=suggestion]')).toContain(ANSWER);
  await summary.click(tr('en', 'extension:onSite.summarize'));
  await expect.poll(() => summary.text('[data-parley=summary]')).toContain(ANSWER);
  expect((await aiCalls()).sort()).toEqual(['/api/ai/mail-message', '/api/ai/summary']);
  const labels = ['replyButton', 'summarize', 'insert', 'regenerate', 'summaryTitle'];
  expect(
    await pageReads(
      site,
      labels.map((key) => tr('en', `extension:onSite.${key}`)),
    ),
  ).toEqual([]);
  // The page's own scripts still cannot insert the suggestion: its clicks on Insert do nothing.
  const editorBefore = await site.evaluate(
    () => (window as unknown as { __editorState?: { text: string } }).__editorState?.text ?? '',
  );
  await attack(site);
  expect(
    await site.evaluate(() => (window as unknown as { __editorState?: { text: string } }).__editorState?.text ?? ''),
  ).toBe(editorBefore);
  expect((await aiCalls()).length).toBe(2);
});
