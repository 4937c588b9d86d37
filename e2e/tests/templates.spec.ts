import { expect, test, type Page } from '@playwright/test';
import { apiSetLanguage, apiSignUp, exact, openSignedIn, shot, tr, uniqueEmail } from '../support';
import { noSidewaysScroll } from './conversation-helpers';

// Templates, signatures and shortcuts in Chromium, against the production API and its loopback AI: a template
// written by the AI, saved, moved first with the keyboard; a signature with a link and pasted hostile HTML that never
// runs; the shortcut ;thx; then the pages in Spanish and French, and at 375 px.

const en = (key: string, vars: Record<string, string | number> = {}) => tr('en', key, vars);
const base = () => process.env.E2E_BASE_URL!;
const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">bad link</a>';

async function api<T>(method: 'GET' | 'POST', route: string, token: string, body?: unknown) {
  const res = await fetch(base() + route, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as { message: string; data: T } };
}

const rowTitles = (page: Page) =>
  page
    .getByRole('list', { name: en('templates:list.label') })
    .getByRole('listitem')
    .getByRole('link')
    .allTextContents();

test('AI template → keyboard reorder → signature with a link and hostile HTML → ;thx → es, fr, 375 px', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const ada = await apiSignUp(uniqueEmail('templates'), 'correct horse battery', 'Ada Lovelace');
  // Two templates already there, so the new one arrives third.
  for (const [title, body] of [
    ['Meeting request', 'Hi {{first_name}}, could we meet on {{date}}?'],
    ['Connection thanks', 'Thanks for connecting, {{first_name}}!'],
  ]) {
    expect((await api('POST', '/api/template/add', ada.token, { title, body })).status).toBe(200);
  }

  // /new-template: Write it with AI. The draft opens in the editor, unsaved.
  await openSignedIn(page, ada.token, '/new-template');
  await expect(page).toHaveTitle(`${en('shell:pages.newTemplate')} | Parley`);
  await page.getByLabel(en('templates:ai.prompt')).fill('Thank a customer for the order and say it ships tomorrow');
  await shot(page, 'templates-new-1280');
  await page.getByRole('button', { name: en('templates:ai.write'), exact: true }).click();
  await expect(page.getByText(en('templates:ai.draftNote'))).toBeVisible();
  const body = page.getByRole('textbox', { name: en('templates:editor.body') });
  await expect(body).toHaveValue(/Thank a customer for the order/);
  expect(
    (await api<{ templates: unknown[] }>('GET', '/api/template/getAll', ada.token)).body.data.templates,
  ).toHaveLength(2);

  // Make it ours: a title, a greeting with a variable from the toolbar; the preview fills it with a sample.
  await page.getByRole('textbox', { name: en('templates:editor.title') }).fill('Order thanks');
  await body.focus();
  await body.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 0));
  await page.keyboard.type('Hi ');
  await page
    .getByRole('button', { name: en('templates:editor.insertNamed', { name: en('templates:variables.first_name') }) })
    .click();
  // The editor gives the focus back to the text after inserting; typing before that would go to the button.
  await expect(body).toBeFocused();
  await page.keyboard.type(',\n\n');
  await expect(body).toHaveValue(/^Hi \{\{first_name\}\},\n\n/);
  await expect(page.getByTestId('template-preview')).toContainText(
    `Hi ${en('templates:variables.sample.first_name')},`,
  );
  await shot(page, 'templates-editor-ai-1280');
  await page.getByRole('button', { name: en('templates:editor.save') }).click();

  // The list: the new template is last; Alt+Up twice on its handle moves it first, and each move is announced.
  await expect(page).toHaveURL(/\/template$/);
  await expect(page).toHaveTitle(`${en('shell:pages.templates')} | Parley`);
  await expect.poll(() => rowTitles(page)).toEqual(['Meeting request', 'Connection thanks', 'Order thanks']);
  const handle = (position: number) =>
    page.getByRole('button', {
      name: en('templates:list.handle', { title: 'Order thanks', position, total: 3 }),
    });
  await handle(3).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(handle(2)).toBeFocused();
  await expect(page.getByTestId('reorder-announcement')).toHaveText(
    en('templates:list.moved', { title: 'Order thanks', position: 2, total: 3 }),
  );
  await page.keyboard.press('Alt+ArrowUp');
  await expect(handle(1)).toBeFocused();
  await expect(page.getByTestId('reorder-announcement')).toHaveText(
    en('templates:list.moved', { title: 'Order thanks', position: 1, total: 3 }),
  );
  await expect.poll(() => rowTitles(page)).toEqual(['Order thanks', 'Meeting request', 'Connection thanks']);
  // Saved: the server has the order, and a reload shows it.
  await expect
    .poll(async () =>
      (await api<{ templates: { title: string }[] }>('GET', '/api/template/getAll', ada.token)).body.data.templates.map(
        (t) => t.title,
      ),
    )
    .toEqual(['Order thanks', 'Meeting request', 'Connection thanks']);
  await page.reload();
  await expect.poll(() => rowTitles(page)).toEqual(['Order thanks', 'Meeting request', 'Connection thanks']);
  await shot(page, 'templates-list-1280');

  // A signature: bold name, a link from the toolbar, hostile HTML pasted in and typed in the HTML; Gmail's default.
  await page.getByRole('link', { name: en('templates:nav.signatures') }).click();
  await expect(page).toHaveTitle(`${en('shell:pages.signatures')} | Parley`);
  await page
    .getByRole('link', { name: en('templates:signatures.new') })
    .first()
    .click();
  await page.getByRole('textbox', { name: en('templates:signatureEditor.name') }).fill('Work');
  const editor = page.getByRole('textbox', { name: en('templates:signatureEditor.content'), exact: true });
  await editor.click();
  await page.keyboard.type('Ada Lovelace');
  await page.keyboard.press('ControlOrMeta+a');
  await page.getByRole('button', { name: en('templates:signatureEditor.bold') }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: en('templates:signatureEditor.link') }).click();
  await page.getByLabel(en('templates:signatureEditor.linkUrl')).fill('ada.example.com');
  await page.getByRole('button', { name: en('templates:signatureEditor.linkAdd') }).click();
  await expect(editor.getByRole('link', { name: 'ada.example.com' })).toHaveAttribute(
    'href',
    'https://ada.example.com',
  );
  await expect(editor.locator('b').first()).toHaveText('Ada Lovelace');
  // A paste carrying hostile HTML, as from another page.
  await editor.evaluate((el, html) => {
    const data = new DataTransfer();
    data.setData('text/html', html);
    data.setData('text/plain', 'x');
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, HOSTILE);
  // And the same typed into the HTML.
  await page.getByRole('button', { name: en('templates:signatureEditor.html') }).click();
  const source = page.getByRole('textbox', { name: en('templates:signatureEditor.htmlLabel') });
  await source.press('ControlOrMeta+End');
  await source.pressSequentially(HOSTILE);
  await page.getByRole('button', { name: en('templates:signatureEditor.html') }).click();
  await page.getByRole('checkbox', { name: en('templates:signatures.sites.gmail') }).check();
  await page.getByRole('button', { name: en('templates:editor.save') }).click();
  await expect(page.getByText(en('templates:signatureEditor.previewSaved'))).toBeVisible();
  await expect(page).toHaveURL(/\/template\/signature\/[0-9a-f-]{36}$/);

  // Nothing of it lives in the app; the preview frame has no scripts and shows the link.
  expect(await page.locator('script:not([src]), [onerror], [onclick], a[href^="javascript:"]').count()).toBe(0);
  expect(await page.locator('main img').count()).toBe(0);
  const frame = page.getByTitle(en('templates:signatureEditor.previewFrame'));
  const sandbox = (await frame.getAttribute('sandbox'))!.split(/\s+/);
  expect(sandbox).not.toContain('allow-scripts');
  expect(sandbox).not.toContain('allow-same-origin');
  const inside = page.frameLocator(`iframe[title="${en('templates:signatureEditor.previewFrame')}"]`);
  await expect(inside.getByRole('link', { name: 'ada.example.com' })).toHaveAttribute(
    'href',
    'https://ada.example.com',
  );
  await expect(inside.locator('b').first()).toHaveText('Ada Lovelace');
  expect(await inside.locator('img, script').count()).toBe(0);
  const stored = await api<{ signatures: { html: string; defaultFor: string[] }[] }>(
    'GET',
    '/api/template/signature/getAll',
    ada.token,
  );
  expect(stored.body.data.signatures).toHaveLength(1);
  expect(stored.body.data.signatures[0]!.defaultFor).toEqual(['gmail']);
  expect(stored.body.data.signatures[0]!.html).toContain('href="https://ada.example.com"');
  expect(stored.body.data.signatures[0]!.html).not.toMatch(/onerror|<script|javascript:|<img/i);
  await shot(page, 'templates-signature-1280');
  await page.getByRole('link', { name: en('templates:signatureEditor.back') }).click();
  await expect(page.getByText(en('templates:signatures.defaultIn', { place: 'Gmail' }))).toBeVisible();
  await shot(page, 'templates-signatures-1280');

  // ;thx: a free key is said free, saved, and then said taken.
  await page.getByRole('link', { name: en('templates:nav.shortcuts') }).click();
  await expect(page).toHaveTitle(`${en('shell:pages.shortcuts')} | Parley`);
  await page.getByRole('button', { name: en('templates:shortcuts.new') }).click();
  const key = page.getByRole('textbox', { name: en('templates:shortcuts.key') });
  await key.fill('Not ok');
  await expect(page.getByText(en('templates:shortcuts.keyInvalid', { max: 32 }))).toBeVisible();
  await key.fill('thx');
  await expect(page.getByText(en('templates:shortcuts.keyFree', { shortcut: ';thx' }))).toBeVisible();
  await page.getByRole('textbox', { name: en('templates:shortcuts.text'), exact: true }).fill('Thank you very much!');
  await page.getByRole('button', { name: en('templates:editor.save') }).click();
  const shortcuts = page.getByRole('list', { name: en('templates:shortcuts.label') });
  await expect(shortcuts.getByText(';thx', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: en('templates:shortcuts.new') }).click();
  await page.getByRole('textbox', { name: en('templates:shortcuts.key') }).fill('thx');
  await expect(page.getByText(en('templates:shortcuts.keyTaken', { shortcut: ';thx' }))).toBeVisible();
  await shot(page, 'templates-shortcuts-1280');
  await page.getByRole('button', { name: en('templates:cancel'), exact: true }).click();

  // The picker the extension opens, on its own: Copy.
  await page.goto('/template-app');
  await expect(
    page.getByRole('button', { name: en('templates:picker.copyNamed', { title: 'Order thanks' }) }),
  ).toBeVisible();
  await shot(page, 'templates-picker-1280');

  // Spanish and French: the same pages in their words.
  for (const lng of ['es', 'fr'] as const) {
    await apiSetLanguage(ada.token, lng);
    await page.goto('/template');
    await expect(page.getByRole('heading', { level: 1, name: exact(tr(lng, 'templates:pageTitle')) })).toBeVisible();
    await expect(page).toHaveTitle(`${tr(lng, 'shell:pages.templates')} | Parley`);
    await expect(
      page
        .getByRole('complementary', { name: tr(lng, 'shell:sideMenu') })
        .getByRole('link', { name: tr(lng, 'shell:menu.templates'), exact: true }),
    ).toBeVisible();
    await expect(page.getByText(tr(lng, 'templates:list.reorderHint'))).toBeVisible();
    await expect(
      page
        .getByRole('list', { name: tr(lng, 'templates:list.label') })
        .getByText(tr(lng, 'templates:kinds.mail'))
        .first(),
    ).toBeVisible();
    await shot(page, `templates-list-${lng}-1280`);
    await page.goto('/new-template');
    await expect(page.getByRole('heading', { name: tr(lng, 'templates:starters.title') })).toBeVisible();
    await expect(page.getByRole('heading', { name: tr(lng, 'templates:choose.title') })).toBeVisible();
    await shot(page, `templates-new-${lng}-1280`);
    await page.goto('/template/shortcuts');
    await expect(page.getByText(tr(lng, 'templates:shortcuts.triggerNote'))).toBeVisible();
  }
  await page.goto('/template/signature');
  await expect(page.getByText(tr('fr', 'templates:signatures.defaultIn', { place: 'Gmail' }))).toBeVisible();
  await shot(page, 'templates-signatures-fr-1280');

  // 375 px: every page fits, nothing scrolls sideways.
  await apiSetLanguage(ada.token, 'en');
  await page.setViewportSize({ width: 375, height: 812 });
  for (const [path, name, ready] of [
    ['/template', 'list', en('templates:list.reorderHint')],
    ['/new-template', 'new', en('templates:starters.title')],
    ['/template/signature', 'signatures', en('templates:signatures.defaultIn', { place: 'Gmail' })],
    ['/template/shortcuts', 'shortcuts', 'Thank you very much!'],
    ['/template-app', 'picker', en('templates:picker.standaloneNote')],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(ready).first()).toBeVisible();
    expect(await noSidewaysScroll(page), path).toBe(true);
    await shot(page, `templates-${name}-375`);
  }
  await page.getByRole('link', { name: en('templates:picker.manage') }).click();
  await page.getByRole('link', { name: 'Order thanks' }).click();
  await expect(page.getByTestId('template-preview')).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  await shot(page, 'templates-editor-375');
  await page.goto('/template/signature');
  await page.getByRole('link', { name: en('templates:signatures.editNamed', { name: 'Work' }) }).click();
  await expect(page.getByRole('toolbar', { name: en('templates:signatureEditor.toolbar') })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  await shot(page, 'templates-signature-375');

  expect(dialogs).toEqual([]);
});
