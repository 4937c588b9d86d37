import type { Page } from '@playwright/test';
import { shot, tr } from '../../support.js';
import { editorState, expect, onSite, signIn, test, URLS } from '../sites.js';

/** Rewrite on the selection, then Insert (a person's clicks); returns the rewritten text as shown. */
async function rewriteAndInsert(site: Page) {
  const quick = onSite(site, 'quick');
  await quick.click(tr('en', 'extension:onSite.rewrite'));
  await expect.poll(() => quick.text('[data-parley=quick-result]')).toContain('You asked:');
  const text = (await quick.text('[data-parley=quick-result]')) ?? '';
  await quick.click(tr('en', 'extension:onSite.insert'));
  await expect.poll(() => quick.count()).toBe(0);
  return text;
}

test('mini menu: Insert replaces the selection in a rich editor, and the editor sees the input', async ({
  context,
  page,
  storage,
}) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.gmail);
  // Gmail's reply box (contenteditable); the fixture keeps a draft model updated from input events only.
  const editor = site.locator('.editable[g_editable]').first();
  await editor.click();
  await site.keyboard.press('Control+Home');
  await site.keyboard.type('we leave early tomorrow');
  await expect.poll(async () => (await editorState(site))?.text).toContain('we leave early tomorrow');
  const before = (await editorState(site))!.events;
  await site.keyboard.press('Shift+Home');
  const text = await rewriteAndInsert(site);
  const firstLine = text.split('\n')[0]!.trim().slice(0, 40);
  // The selection (the typed line) was replaced where it stood, at the start of the editor.
  await expect(editor).toHaveText(new RegExp(`^${firstLine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  const after = await editorState(site);
  expect(after!.events).toBeGreaterThan(before);
  expect(after!.text.startsWith(firstLine)).toBe(true);
  await shot(site, 'extension-mini-menu-rich-editor');
});

test('mini menu: Insert into a textarea fires an input event the page hears', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.article);
  await site.evaluate(() => {
    const notes = document.querySelector('textarea')!;
    const seen: string[] = [];
    (window as unknown as { __inputs: string[] }).__inputs = seen;
    notes.addEventListener('input', (event) => seen.push(`${(event as InputEvent).inputType}:${notes.value}`));
  });
  const notes = site.locator('#notes');
  await notes.fill('we leave early tomorrow');
  await notes.press('Shift+Home');
  const text = await rewriteAndInsert(site);
  await expect(notes).toHaveValue(text);
  const inputs = await site.evaluate(() => (window as unknown as { __inputs: string[] }).__inputs);
  expect(inputs.at(-1)).toBe(`insertText:${text}`);
});
