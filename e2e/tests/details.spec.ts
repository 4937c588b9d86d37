import { expect, test, type Page } from '@playwright/test';
import {
  apiSetLanguage,
  apiSignUp,
  type Lng,
  noSkeletons,
  openInApp,
  openSignedIn,
  requestsOf,
  shot,
  tr,
  uniqueEmail,
} from '../support';
import { apiChat, apiRename, noSidewaysScroll, setAppearance } from './conversation-helpers';

/** The details a person notices: renaming and deleting chats (touch included), the header, sizes, focus, toasts. */

const history = (page: Page, lng: Lng = 'en') => page.getByRole('navigation', { name: tr(lng, 'chat:history.title') });

test.describe('conversations in the history', () => {
  test('rename one: Enter saves (kept after a reload), Escape leaves it as it was', async ({ page }) => {
    const { token } = await apiSignUp(uniqueEmail('rename'));
    await apiChat(token, 'Plan a trip');
    await openSignedIn(page, token, '/chat');
    const row = history(page).getByRole('listitem').filter({ hasText: 'Test chat title' });
    await row.hover();
    await row.getByRole('button', { name: tr('en', 'chat:history.rename', { title: 'Test chat title' }) }).click();
    const field = history(page).getByRole('textbox', {
      name: tr('en', 'chat:history.renameLabel', { title: 'Test chat title' }),
    });
    await expect(field).toBeFocused();
    await expect(field).toHaveValue('Test chat title');
    await shot(page, 'rename-editing-1280');
    await field.fill('  Trip to Lisbon  ');
    await field.press('Enter');
    const renamed = history(page).getByRole('link', { name: /Trip to Lisbon/ });
    await expect(renamed).toBeVisible();
    await expect(
      history(page).getByRole('button', { name: tr('en', 'chat:history.rename', { title: 'Trip to Lisbon' }) }),
    ).toBeFocused();
    await page.reload();
    await expect(renamed).toBeVisible();

    // Escape: no change, and the history drawer (on small screens) stays open.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: tr('en', 'chat:history.open') }).click();
    const drawerRow = page.getByRole('listitem').filter({ hasText: 'Trip to Lisbon' }).last();
    await drawerRow.getByRole('button', { name: tr('en', 'chat:history.rename', { title: 'Trip to Lisbon' }) }).click();
    const drawerField = page.getByRole('textbox', {
      name: tr('en', 'chat:history.renameLabel', { title: 'Trip to Lisbon' }),
    });
    await drawerField.fill('Something else');
    await shot(page, 'rename-editing-375');
    await drawerField.press('Escape');
    await expect(page.getByRole('link', { name: /Trip to Lisbon/ }).last()).toBeVisible();
    await expect(page.getByRole('button', { name: tr('en', 'chat:history.close') })).toBeVisible();
  });

  test('on a touch screen, Rename and Delete are there without hovering; the dialog title is clean', async ({
    browser,
  }) => {
    // A tablet: wide enough for the history to stand beside the chat, no mouse to hover with.
    const context = await browser.newContext({
      viewport: { width: 1100, height: 800 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    const { token } = await apiSignUp(uniqueEmail('touch'));
    const id = await apiChat(token, 'First');
    await apiRename(token, id, 'Old notes');
    await apiChat(token, 'Second');
    await apiSetLanguage(token, 'fr');
    await openSignedIn(page, token, '/chat');
    const row = history(page, 'fr').getByRole('listitem').filter({ hasText: 'Old notes' });
    const del = row.getByRole('button', { name: tr('fr', 'chat:history.delete', { title: 'Old notes' }) });
    const rename = row.getByRole('button', { name: tr('fr', 'chat:history.rename', { title: 'Old notes' }) });
    for (const button of [del, rename]) {
      await expect(button).toBeVisible();
      expect(await button.evaluate((el) => getComputedStyle(el.parentElement!).opacity)).toBe('1');
      // Big enough for a finger.
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(32);
    }
    await shot(page, 'history-touch-fr');
    await del.tap();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toBeVisible();
    const title = (await dialog.getByRole('heading').textContent())!;
    expect(title).toBe(tr('fr', 'chat:history.deleteTitle'));
    expect(title).toBe(title.trim());
    // French punctuation keeps to its words: a narrow no-break space, never a plain one that could break the line.
    expect(title).not.toMatch(/ [?!:;]/);
    await expect(dialog).toHaveAccessibleName(title);
    await shot(page, 'delete-dialog-touch-fr');
    await dialog.getByRole('button', { name: tr('fr', 'chat:history.deleteShort') }).tap();
    await expect(row).toHaveCount(0);
    await expect(history(page, 'fr').getByRole('listitem')).toHaveCount(1);
    await context.close();
  });
});

test.describe('header and language picker', () => {
  test('each language is named in its own language, signed in and on the sign-in page', async ({ page }) => {
    const { token } = await apiSignUp(uniqueEmail('lang-names'));
    for (const lng of ['en', 'es', 'fr'] as Lng[]) {
      await apiSetLanguage(token, lng);
      await openSignedIn(page, token, '/home');
      const picker = page.getByRole('banner').getByLabel(tr(lng, 'shell:language'));
      await expect(picker).toHaveValue(lng);
      await expect(picker.locator('option')).toHaveText(['English', 'Español', 'Français']);
      expect(await picker.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('lang')))).toEqual([
        'en',
        'es',
        'fr',
      ]);
    }
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto('/login');
    await expect(page.locator('#auth-language option')).toHaveText(['English', 'Español', 'Français']);
  });

  for (const lng of ['en', 'es', 'fr'] as Lng[]) {
    test(`at 375 px the header shows the brand and a labelled Sign out (${lng}), also at the 18 px font size`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
      const page = await context.newPage();
      const { token } = await apiSignUp(uniqueEmail(`header-${lng}`));
      await apiSetLanguage(token, lng);
      for (const fontSize of [13, 18]) {
        await openSignedIn(page, token, '/not-found');
        await setAppearance(page, { fontSize });
        await page.goto('/home');
        const banner = page.getByRole('banner');
        const signOut = banner.getByRole('link', { name: tr(lng, 'shell:signOut') });
        await expect(signOut).toBeVisible();
        // The words are on screen, not only read out.
        expect((await signOut.innerText()).trim()).toBe(tr(lng, 'shell:signOut'));
        await expect(banner.getByTestId('header-brand')).toBeVisible();
        await expect(banner.getByTestId('header-brand')).toHaveAccessibleName('Parley');
        // The language picker is reachable and everything fits inside the header.
        await expect(banner.getByLabel(tr(lng, 'shell:language'))).toBeAttached();
        const width = await banner.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(width.scroll).toBeLessThanOrEqual(width.client);
        for (const el of [signOut, banner.getByTestId('header-brand')]) {
          const box = (await el.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(375);
        }
        await shot(page, `header-375-${lng}-${fontSize}px`);
      }
      await context.close();
    });
  }

  test('the sign-out toast leaves the language picker and the header free', async ({ browser }) => {
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      const { token } = await apiSignUp(uniqueEmail(`toast-${width}`));
      await openSignedIn(page, token, '/home');
      await page
        .getByRole('banner')
        .getByRole('link', { name: tr('en', 'shell:signOut') })
        .click();
      await expect(page).toHaveURL(/\/login$/);
      const toast = page.getByRole('alert').filter({ hasText: tr('en', 'api:messages.loggedOut') });
      await expect(toast).toBeVisible();
      const picker = page.locator('#auth-language');
      // Once the toast has slid in.
      await page.waitForTimeout(800);
      const a = (await toast.boundingBox())!;
      const b = (await picker.boundingBox())!;
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap).toBe(false);
      // The picker can still be used while the toast is up.
      await picker.selectOption('es');
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await shot(page, `signout-toast-${width}`);
      await context.close();
    }
  });
});

/** Headings whose text is cut: taller or wider content than their box where the box hides it, or off the screen. */
function clippedHeadings(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('h1, h2, h3, [role="heading"]'))) {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || el.closest('[aria-hidden="true"], .sr-only')) continue;
      const style = getComputedStyle(el);
      const hides = style.overflow !== 'visible' || style.textOverflow === 'ellipsis';
      const cut =
        (hides && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) ||
        box.left < -1 ||
        box.right > document.documentElement.clientWidth + 1;
      // Also a box around it that hides or scrolls away what overflows: a heading outside its view on arrival (a
      // scroller opened at its bottom hides the heading above).
      let parent = el.parentElement;
      let cutByParent = false;
      while (parent && parent !== document.body) {
        const ps = getComputedStyle(parent);
        if (ps.overflowX !== 'visible' || ps.overflowY !== 'visible') {
          const pb = parent.getBoundingClientRect();
          if (box.top < pb.top - 1 || (ps.overflowY === 'hidden' && box.bottom > pb.bottom + 1)) cutByParent = true;
          if (box.left < pb.left - 1 || box.right > pb.right + 1) cutByParent = true;
          break;
        }
        parent = parent.parentElement;
      }
      if (cut || cutByParent) out.push(`${el.tagName} "${el.textContent?.trim()}"`);
    }
    return out;
  });
}

/** What pokes out on the right (to say what scrolls sideways). */
const widest = (page: Page) =>
  page.evaluate(() => {
    const edge = document.documentElement.clientWidth;
    const out = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.getBoundingClientRect().right > edge + 1)
      .slice(-3)
      .map(
        (el) =>
          `<${el.tagName.toLowerCase()} class="${el.className}"> ${Math.round(el.getBoundingClientRect().right)} px`,
      );
    return `scrolls sideways: ${out.join('; ')}`;
  });

/** Inputs whose placeholder is wider than the room the field gives it. */
function cutPlaceholders(page: Page) {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d')!;
    const out: string[] = [];
    for (const el of Array.from(
      document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]'),
    )) {
      const box = el.getBoundingClientRect();
      if (!box.width || !el.placeholder || el.value) continue;
      // The placeholder's font, the field's own padding.
      const text = getComputedStyle(el, '::placeholder');
      const field = getComputedStyle(el);
      ctx.font = `${text.fontStyle} ${text.fontWeight} ${text.fontSize} ${text.fontFamily}`;
      const room = el.clientWidth - parseFloat(field.paddingLeft) - parseFloat(field.paddingRight);
      // A textarea wraps its placeholder over its rows.
      const lineHeight = parseFloat(field.lineHeight) || parseFloat(field.fontSize) * 1.2;
      const rows =
        el instanceof HTMLTextAreaElement
          ? Math.max(
              1,
              Math.floor(
                (el.clientHeight - parseFloat(field.paddingTop) - parseFloat(field.paddingBottom)) / lineHeight,
              ),
            )
          : 1;
      if (ctx.measureText(el.placeholder).width > room * rows + 1)
        out.push(`"${el.placeholder}" (${Math.round(room)} px)`);
    }
    return out;
  });
}

/** Opens `path` inside the app, then waits until it is shown whole: its requests done, no skeleton left. */
async function showInApp(page: Page, requests: ReturnType<typeof requestsOf>, path: string) {
  await openInApp(page, path);
  await requests.settled();
  await noSkeletons(page);
}

// Walked inside the app (openInApp): two pages next to each other have different titles, so the two onboarding
// steps are apart.
const SIGNED_IN_PAGES = [
  '/home',
  '/on-boarding/1',
  '/chat',
  '/profile',
  '/setting',
  '/setting/general',
  '/setting/instant-reply',
  '/setting/other',
  '/setting/api-keys',
  '/setting/plan',
  '/subscription',
  '/install',
  '/on-boarding/2',
];
const SIGNED_OUT_PAGES = [
  '/login',
  '/signup',
  '/forgot-password',
  '/earlybird/signup',
  '/appsumo/signup',
  '/not-found',
];

test.describe('sizes', () => {
  for (const lng of ['en', 'es', 'fr'] as Lng[]) {
    test(`at the 18 px font size no heading is cut, at 1280 and 375 px (${lng})`, async ({ browser }) => {
      test.setTimeout(180_000);
      const { token } = await apiSignUp(uniqueEmail(`font-18-${lng}`));
      await apiChat(token, 'Hello');
      await apiSetLanguage(token, lng);
      const problems: string[] = [];
      for (const width of [1280, 375]) {
        const context = await browser.newContext({ viewport: { width, height: 800 } });
        const page = await context.newPage();
        const requests = requestsOf(page);
        await page.goto('/not-found');
        await setAppearance(page, { fontSize: 18 });
        await page.evaluate((l) => (document.cookie = `lang=${l}; path=/`), lng);
        // Each part starts the app once, then walks its pages inside it.
        await page.reload();
        for (const path of SIGNED_OUT_PAGES) {
          await showInApp(page, requests, path);
          for (const p of await clippedHeadings(page)) problems.push(`${width}px ${path}: ${p}`);
          if (!(await noSidewaysScroll(page))) problems.push(`${width}px ${path}: ${await widest(page)}`);
        }
        await page.evaluate((t) => localStorage.setItem('token', t), token);
        await page.goto(SIGNED_IN_PAGES[0]!);
        for (const path of SIGNED_IN_PAGES) {
          await showInApp(page, requests, path);
          await expect(page.getByRole('heading').first()).toBeVisible();
          for (const p of await clippedHeadings(page)) problems.push(`${width}px ${path}: ${p}`);
          if (!(await noSidewaysScroll(page))) problems.push(`${width}px ${path}: ${await widest(page)}`);
          if (lng === 'fr' || path === '/home')
            await shot(page, `font18-${lng}-${width}${path.replace(/\//g, '-')}`, { still: true });
        }
        await context.close();
      }
      expect(problems).toEqual([]);
    });
  }

  for (const lng of ['en', 'es', 'fr'] as Lng[]) {
    test(`at 375 px no placeholder is cut off (${lng})`, async ({ browser }) => {
      test.setTimeout(180_000);
      const { token } = await apiSignUp(uniqueEmail(`placeholders-${lng}`));
      await apiChat(token, 'Hello');
      await apiSetLanguage(token, lng);
      const problems: string[] = [];
      const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
      const page = await context.newPage();
      const requests = requestsOf(page);
      await page.goto('/not-found');
      await page.evaluate((l) => (document.cookie = `lang=${l}; path=/`), lng);
      await page.reload();
      for (const path of SIGNED_OUT_PAGES) {
        await showInApp(page, requests, path);
        for (const p of await cutPlaceholders(page)) problems.push(`${path}: ${p}`);
      }
      await page.evaluate((t) => localStorage.setItem('token', t), token);
      await page.goto(SIGNED_IN_PAGES[0]!);
      for (const path of SIGNED_IN_PAGES) {
        await showInApp(page, requests, path);
        for (const p of await cutPlaceholders(page)) problems.push(`${path}: ${p}`);
      }
      // The chat history's search field lives in a drawer on small screens.
      await page.goto('/chat');
      await page.getByRole('button', { name: tr(lng, 'chat:history.open') }).click();
      await expect(page.getByRole('searchbox').last()).toBeVisible();
      for (const p of await cutPlaceholders(page)) problems.push(`/chat (history): ${p}`);
      await context.close();
      expect(problems).toEqual([]);
    });
  }
});

/** The hue (degrees) of the focus ring, the 2 px shadow that Tailwind's ring draws in oklab; null without one. */
const ringHue = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const m = /oklab\(([\d.-]+) ([\d.-]+) ([\d.-]+)[^)]*\) 0px 0px 0px 2px/.exec(getComputedStyle(el).boxShadow);
    if (!m) return null;
    return ((Math.atan2(Number(m[3]), Number(m[2])) * 180) / Math.PI + 360) % 360;
  });

test('a field with an error has a red focus ring; a valid one keeps the blue one', async ({ page }) => {
  await page.goto('/login');
  const email = page.locator('input[type="email"]');
  await email.focus();
  const blue = await ringHue(page, 'input[type="email"]');
  expect(blue).not.toBeNull();
  expect(blue!).toBeGreaterThan(200);
  await email.fill('not an address');
  await page.getByRole('button', { name: tr('en', 'auth:login.submit') }).click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await email.focus();
  const red = await ringHue(page, 'input[type="email"]');
  expect(red).not.toBeNull();
  expect(red! < 45 || red! > 330).toBe(true);
  // The valid password field next to it keeps the blue ring.
  await page.locator('input[type="password"]').fill('something');
  await page.locator('input[type="password"]').focus();
  expect(await ringHue(page, 'input[type="password"]')).toBeGreaterThan(200);
  await shot(page, 'field-error-focus-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, 'field-error-focus-375');
});
