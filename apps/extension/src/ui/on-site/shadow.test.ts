// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { contentScriptFiles, src } from '../../test/content-script-files';
import { onTestPage, settle } from '../../test/test-page';
import { hostName, isParleyHost } from './hosts';
import { el, mountShadowUi } from './shadow';

// WXT's test double of wxt/browser comes through 'wxt/testing', which loads esbuild, which jsdom's TextEncoder breaks.
vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

describe('on-site UI', () => {
  it('mounts in a closed shadow root, on a bare host with this page’s tag, with no text node to find', async () => {
    document.body.innerHTML = '<p id="anchor">Hello</p>';
    const page = onTestPage();
    const ui = await mountShadowUi(page.ctx, document.querySelector('#anchor')!, 'after', (container) => {
      container.append(el('p', 'text', 'An answer from the API'), el('button', '', 'Insert'));
    });
    await settle();
    const host = document.querySelector('#anchor')!.nextElementSibling!;
    expect(host).toBe(ui.shadowHost);
    expect(host.localName).toBe(hostName());
    expect(isParleyHost(host)).toBe(true);
    expect(host.shadowRoot).toBeNull();
    expect(host.getAttributeNames()).toEqual([]);
    const root = page.roots.at(-1)!;
    expect(root.mode).toBe('closed');
    // Drawn from an attribute inside the closed root (generated content), not written as text.
    expect(root.querySelector<HTMLElement>('.text')!.dataset.text).toBe('An answer from the API');
    expect(root.textContent).not.toContain('An answer from the API');
    expect(root.textContent).not.toContain('Insert');
    ui.remove();
  });

  it('content scripts write no text into their UI, only through showText (and style sheets)', () => {
    const ui = contentScriptFiles().filter((file) =>
      /from '(\.\/|(\.\.\/)+ui\/on-site\/)shadow'/.test(readFileSync(file, 'utf8')),
    );
    expect(ui.map((file) => path.relative(src, file))).toEqual(
      expect.arrayContaining([
        'features/instant-reply/instant-reply.ts',
        'features/summaries/summaries.ts',
        'features/search-ai/search-ai.ts',
        'features/quick-access/quick-access.ts',
      ]),
    );
    const writes =
      /\.(textContent|innerText|innerHTML|outerHTML|nodeValue|data)\s*=[^=]|insertAdjacentText|createTextNode/;
    const offenders = [...ui, path.join(src, 'ui/on-site/shadow.ts')].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${path.relative(src, file)}:${i + 1}` }))
        .filter(({ line }) => writes.test(line) && !line.includes('node.textContent = css'))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
