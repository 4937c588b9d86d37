import { tr } from '../../support.js';
import { editorState, expect, onSite, signIn, test, URLS } from '../sites.js';

const REPLY = tr('en', 'extension:onSite.replyButton');
const INSERT = tr('en', 'extension:onSite.insert');

test('on Gmail, the suggested reply of a long thread opens in view, with the focus on Insert', async ({
  context,
  page,
  storage,
}) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.gmail);
  const reply = onSite(site, 'reply');
  await expect.poll(() => reply.buttonNames()).toContain(REPLY);

  // A long thread laid out as Gmail does: the conversation scrolls in an inner pane and the reply box is at its end.
  // The person has scrolled down just far enough to see "Reply with Parley" at the bottom of the screen.
  await site.evaluate(() => {
    document.body.style.overflow = 'hidden';
    const pane = document.querySelector<HTMLElement>('.nH.bkK')!;
    pane.style.height = '100vh';
    pane.style.overflowY = 'auto';
    const list = document.querySelector('[role="list"]')!;
    for (let i = 1; i <= 6; i++) {
      const earlier = document.createElement('div');
      earlier.style.height = '320px';
      earlier.textContent = `An earlier message of the thread (${i}).`;
      list.prepend(earlier);
    }
  });
  const button = await reply.box('[data-parley=reply]');
  expect(button).not.toBeNull();
  await site.evaluate(
    (dy) => document.querySelector<HTMLElement>('.nH.bkK')!.scrollBy(0, dy),
    button!.bottom - (button!.viewport - 12),
  );
  const before = await reply.box('[data-parley=reply]');
  expect(before!.bottom).toBeLessThanOrEqual(before!.viewport);
  expect(before!.bottom).toBeGreaterThan(before!.viewport - 60);

  await reply.click(REPLY);
  await expect.poll(() => reply.text('[data-parley=suggestion]')).toContain('You asked:');

  // The whole suggestion, its buttons included, is on the screen without the person scrolling.
  await expect
    .poll(async () => {
      const panel = await reply.box('[data-parley=reply-panel]');
      return panel !== null && panel.top >= 0 && panel.bottom <= panel.viewport;
    })
    .toBe(true);
  await expect.poll(() => reply.focused()).toEqual({ tag: 'button', label: INSERT });
  await site.screenshot({ path: test.info().outputPath('gmail-reply-in-view.png') });

  // Enter on the focused Insert puts the suggestion in Gmail's editor.
  const suggestion = (await reply.text('[data-parley=suggestion]')) ?? '';
  await site.keyboard.press('Enter');
  await expect
    .poll(async () => (await editorState(site))?.text ?? '')
    .toContain(suggestion.split('\n')[0]!.trim().slice(0, 30));
});
