import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { apiSignUp, type Lng, shot, tr, uniqueEmail } from '../../support.js';
import { apiPost, expect, postUpdateToken, test } from '../fixtures.js';

/**
 * The extension's own pages in Spanish and French: no English left, the tab's title in the language, and the
 * controls whole at the panel's real width. Screenshots in /tmp/e2e-shots for a person to look at.
 */

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/i18n/locales');

type Json = string | { [key: string]: Json };
const leaves = (value: Json): string[] =>
  typeof value === 'string' ? [value] : Object.values(value).flatMap((v) => leaves(v));
const strings = (lng: Lng, ns: string) =>
  leaves(JSON.parse(readFileSync(path.join(localesDir, lng, `${ns}.json`), 'utf8')) as Json);

/**
 * English texts of the extension and the chat that the other language says differently, cut at their placeholders
 * (the fixed parts are what a person would see untranslated).
 */
function englishOnly(lng: Lng): string[] {
  const found = new Set<string>();
  for (const ns of ['extension', 'chat']) {
    const other = new Set(strings(lng, ns));
    for (const text of strings('en', ns)) {
      if (other.has(text)) continue;
      for (const part of text.split(/\{\{[^}]+\}\}/)) {
        const piece = part.trim();
        // Short pieces ("Chat", "PDF", "Parley") are the same words in every language.
        if (piece.length >= 8 && !strings(lng, ns).some((t) => t.includes(piece))) found.add(piece);
      }
    }
  }
  return [...found];
}

/** Everything a person can see or hear on the page: its text, and the names, titles and placeholders of controls. */
const shownTexts = (page: Page) =>
  page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder], option'))) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(name);
        if (value) texts.push(value);
      }
      if (el instanceof HTMLOptionElement) texts.push(el.text);
    }
    return texts.join('\n');
  });

async function signedIn(page: Page, lng: Lng) {
  const user = await apiSignUp(uniqueEmail(`ext-${lng}`), undefined, 'Élodie');
  expect((await apiPost('/api/user/profile', user.token, { language: lng })).status).toBe(200);
  expect((await apiPost('/api/user/setting', user.token, { model: 'CUSTOM_OPENAI_COMPATIBLE' })).status).toBe(200);
  await page.goto('/login');
  await postUpdateToken(page, user.token);
}

for (const lng of ['es', 'fr'] as const) {
  test(`in ${lng}: the panel, its chat and the settings show no English`, async ({ page, openExtensionPage }) => {
    await signedIn(page, lng);
    const english = englishOnly(lng);

    const panel = await openExtensionPage('sidepanel.html');
    await panel.setViewportSize({ width: 360, height: 720 });
    await expect(panel.getByRole('button', { name: tr(lng, 'extension:session.logout') })).toBeVisible();
    await expect(panel).toHaveTitle(tr(lng, 'extension:pages.panel'));
    const box = panel.getByRole('textbox', { name: tr(lng, 'chat:composer.label'), exact: true });
    await box.fill('Hola');
    await box.press('Enter');
    await expect(panel.getByRole('button', { name: tr(lng, 'chat:composer.stop'), exact: true })).toHaveCount(0, {
      timeout: 20_000,
    });
    await shot(panel, `panel-${lng}-360`);
    // Nothing runs off the panel's edge at its narrowest.
    const cut = await panel.evaluate(() =>
      Array.from(document.querySelectorAll('button, a, select, input, textarea'))
        .filter((el) => el.checkVisibility() && el.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((el) => el.getAttribute('aria-label') || (el as HTMLElement).innerText),
    );
    expect(cut).toEqual([]);
    const panelText = await shownTexts(panel);
    expect(english.filter((text) => panelText.includes(text))).toEqual([]);

    await panel.getByRole('button', { name: tr(lng, 'chat:history.open') }).click();
    await expect(panel.getByRole('list', { name: tr(lng, 'chat:history.title') })).toBeVisible();
    await shot(panel, `panel-history-${lng}-360`);
    const historyText = await shownTexts(panel);
    expect(english.filter((text) => historyText.includes(text))).toEqual([]);

    const options = await openExtensionPage('options.html');
    await expect(options.getByRole('heading', { name: tr(lng, 'extension:options.title') })).toBeVisible();
    await expect(options).toHaveTitle(tr(lng, 'extension:options.title'));
    for (const width of [1280, 375]) {
      await options.setViewportSize({ width, height: 900 });
      await shot(options, `options-${lng}-${width}`, { fullPage: true });
    }
    const optionsText = await shownTexts(options);
    expect(english.filter((text) => optionsText.includes(text))).toEqual([]);
    // Every select shows its chosen option whole at 375 px.
    const clipped = await options.evaluate(() =>
      Array.from(document.querySelectorAll('select'))
        .filter((select) => {
          const probe = document.createElement('span');
          const style = getComputedStyle(select);
          probe.style.font = style.font;
          probe.style.position = 'absolute';
          probe.style.visibility = 'hidden';
          probe.style.whiteSpace = 'nowrap';
          probe.textContent = select.selectedOptions[0]?.text ?? '';
          document.body.append(probe);
          const needed = probe.getBoundingClientRect().width + 40; // the arrow and the padding
          probe.remove();
          return needed > select.getBoundingClientRect().width;
        })
        .map((select) => select.name),
    );
    expect(clipped).toEqual([]);
  });
}
