import { expect, test, type Page } from '@playwright/test';
import { type Lng, shot, tr } from '../support';
import { askAndWait, basicCredits, lastAnswer, openChat, switchLanguage } from './chat-helpers';

/** A language's name as the interface shows it ('fr' in Spanish: 'francés'). */
const nameIn = (code: string, lng: Lng) => new Intl.DisplayNames([lng], { type: 'language' }).of(code)!;
const nameRe = (name: string) => new RegExp(`^\\s*${name}\\s*$`, 'i');

/** Opens the answer's Translate menu and picks a language; returns the request the app sent. */
async function translateLast(page: Page, lng: Lng, code: string) {
  const answer = lastAnswer(page);
  const trigger = answer.getByRole('button', { name: tr(lng, 'chat:message.translate'), exact: true });
  await trigger.click();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('menu', { name: tr(lng, 'chat:message.translateTo') });
  await expect(menu).toBeVisible();
  // The whole menu shows: the scrolling conversation around the button does not cut it off.
  await expect(menu.getByText(tr(lng, 'chat:message.translateTo'))).toBeInViewport({ ratio: 1 });
  await expect(menu.getByRole('menuitem').first()).toBeInViewport({ ratio: 1 });
  const item = menu.getByRole('menuitem', { name: nameRe(nameIn(code, lng)) });
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/ai/translate'));
  await item.click();
  await expect(menu).toHaveCount(0);
  return (await sent).postDataJSON() as { text: string; target: string };
}

const translation = (page: Page, lng: Lng, code: string) =>
  lastAnswer(page).getByRole('region', {
    name: tr(lng, 'chat:message.translation', { language: nameIn(code, lng) }),
  });

test.describe('translate an answer', () => {
  test('into Spanish: the translation shows under the answer, the original stays, one credit is spent', async ({
    page,
  }) => {
    const token = await openChat(page, 'translate-en');
    await askAndWait(page, 'Where is the **station**?');
    const answer = lastAnswer(page);
    const before = await basicCredits(token);

    const profileRefresh = page.waitForRequest((r) => r.url().endsWith('/api/user/profile') && r.method() === 'GET');
    const body = await translateLast(page, 'en', 'es');
    // The model that wrote the answer translates it (the default one in the settings is not served here).
    expect(body).toEqual({
      text: 'You asked: Where is the **station**?',
      target: 'Spanish',
      model: 'CUSTOM_OPENAI_COMPATIBLE',
    });
    const region = translation(page, 'en', 'es');
    await expect(region).toContainText('(Spanish) You asked: Where is the station?');
    await expect(region.locator('strong')).toHaveText('station');
    await expect(region.locator('[lang="es"]')).toBeVisible();
    // The original answer is still there, above its translation.
    await expect(answer.locator('strong')).toHaveText(['station', 'station']);
    expect((await answer.innerText()).match(/You asked: Where is the station\?/g)).toHaveLength(2);
    expect((await basicCredits(token)).basicUse).toBe(before.basicUse + 1);
    await profileRefresh;
    await shot(page, `translate-en`);

    // Another language replaces the translation; hiding it leaves the original alone.
    await translateLast(page, 'en', 'de');
    await expect(translation(page, 'en', 'de')).toContainText('(German) You asked: Where is the station?');
    await expect(translation(page, 'en', 'es')).toHaveCount(0);
    await translation(page, 'en', 'de')
      .getByRole('button', { name: tr('en', 'chat:message.closeTranslation') })
      .click();
    await expect(answer.getByRole('region')).toHaveCount(0);
    await expect(answer).toContainText('You asked: Where is the station?');
  });

  test('the menu works from the keyboard and Escape closes it', async ({ page }) => {
    await openChat(page, 'translate-keys');
    await askAndWait(page, 'Keyboard please');
    const trigger = lastAnswer(page).getByRole('button', { name: tr('en', 'chat:message.translate'), exact: true });
    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: tr('en', 'chat:message.translateTo') });
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(trigger).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    const lastItem = menu.getByRole('menuitem').last();
    await expect(lastItem).toBeFocused();
    const name = (await lastItem.innerText()).trim();
    await page.keyboard.press('Enter');
    await expect(lastAnswer(page).getByRole('region')).toContainText(/\(\w+\) You asked: Keyboard please/);
    await expect(lastAnswer(page).getByRole('region')).toHaveAccessibleName(new RegExp(name, 'i'));
  });

  for (const [lng, code] of [
    ['es', 'fr'],
    ['fr', 'es'],
  ] as const) {
    test(`in ${lng}: the controls and language names are in ${lng}`, async ({ page }) => {
      await openChat(page, `translate-${lng}`);
      await switchLanguage(page, lng);
      await askAndWait(page, 'Good morning', lng);

      const answer = lastAnswer(page);
      await answer.getByRole('button', { name: tr(lng, 'chat:message.translate'), exact: true }).click();
      const menu = page.getByRole('menu', { name: tr(lng, 'chat:message.translateTo') });
      await expect(menu).toContainText(tr(lng, 'chat:message.translateTo'));
      await expect(menu.getByRole('menuitem', { name: nameRe(nameIn('de', lng)) })).toBeVisible();
      await shot(page, `translate-menu-${lng}`);
      await page.keyboard.press('Escape');

      const body = await translateLast(page, lng, code);
      // The server is told the language in English, whatever the interface language.
      expect(body.target).toBe(code === 'fr' ? 'French' : 'Spanish');
      const region = translation(page, lng, code);
      await expect(region).toContainText(`(${body.target}) You asked: Good morning`);
      await expect(answer).toContainText('You asked: Good morning');
      await shot(page, `translate-${lng}`);
      await region.getByRole('button', { name: tr(lng, 'chat:message.closeTranslation') }).click();
      await expect(region).toHaveCount(0);
    });
  }
});
