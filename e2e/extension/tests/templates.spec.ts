import type { Locator, Page } from '@playwright/test';
import { apiSignUp, shot, tr, uniqueEmail, type Lng } from '../../support.js';
import { apiPost, postUpdateToken, type Storage } from '../fixtures.js';
import { editorState, expect, onSite, test, URLS } from '../sites.js';

/**
 * Templates, signatures and shortcuts in the extension, against the real API: what the person made on the web is
 * fetched by the background once signed in, offered next to "Reply with Parley", put into Gmail's reply boxes (the
 * signature, once) and typed out in place (shortcuts, with undo).
 */
const WRITING: Record<Lng, string> = { en: 'ENGLISH', es: 'SPANISH', fr: 'FRENCH' };
const SIGNATURE_TEXT = 'Alex Rivera · Events team';
const THANKS = 'Thank you for your help!';

/** Signs up, makes templates, a Gmail signature and a shortcut on the account, then signs the extension in. */
async function signInWithTemplates(page: Page, storage: () => Promise<Storage>, language: Lng = 'en') {
  const user = await apiSignUp(uniqueEmail('ext-templates'));
  const made = await Promise.all([
    apiPost('/api/template/add', user.token, {
      kind: 'mail',
      title: 'Confirm the venue',
      body: 'Hi {{first_name}},\n\nLakeside Lodge fits the budget. Booking it today.\n\n{{my_name}}',
    }),
    apiPost('/api/template/add', user.token, { kind: 'message', title: 'Thanks for sharing', body: 'Thanks!' }),
    apiPost('/api/template/add', user.token, {
      kind: 'customReply',
      title: 'Decline politely',
      body: 'Decline politely and offer the week after.',
    }),
    apiPost('/api/template/signature/add', user.token, {
      name: 'Work',
      html: '<p><b>Alex Rivera</b> · Events team</p><script>alert(1)</script><p><a href="https://example.com" onclick="x()">example.com</a></p>',
      defaultFor: ['gmail'],
    }),
    apiPost('/api/shortcut-template/', user.token, { key: 'thx', text: THANKS }),
  ]);
  for (const answer of made) expect(answer.status).toBe(200);
  const settings = { model: 'CUSTOM_OPENAI_COMPATIBLE', language: WRITING[language] };
  expect((await apiPost('/api/user/setting', user.token, settings)).status).toBe(200);
  await page.goto('/login');
  await postUpdateToken(page, user.token);
  await expect.poll(async () => (await storage()).session?.signedIn).toBe(true);
  await expect.poll(async () => (await storage()).settings).toMatchObject(settings);
  // Fetched by the background on sign-in.
  await expect
    .poll(async () => {
      const stored = await storage();
      const library = stored.templates as { templates: unknown[]; signatures: unknown[] } | undefined;
      const shortcuts = stored.shortcuts as { items: unknown[] } | undefined;
      return [library?.templates.length, library?.signatures.length, shortcuts?.items.length];
    })
    .toEqual([3, 1, 1]);
  return user;
}

const signatures = (site: Page, editor: string) =>
  site.locator(`${editor} [data-parley-signature]`).evaluateAll((nodes) => nodes.map((n) => n.textContent ?? ''));

/** Closes Gmail's reply box and opens it again: a new editor with the saved draft (`keepMark`: as written). */
async function reopenReply(site: Page, keepMark: boolean) {
  await site.evaluate((keep) => {
    const editor = document.getElementById(':8n')!;
    const html = editor.innerHTML;
    const parent = editor.parentElement!;
    editor.remove();
    setTimeout(() => {
      const again = document.createElement('div');
      for (const attr of ['class', 'aria-label', 'g_editable', 'role', 'contenteditable', 'tabindex'])
        again.setAttribute(attr, editor.getAttribute(attr) ?? '');
      again.id = ':8n';
      again.innerHTML = html;
      if (!keep) again.querySelector('[data-parley-signature]')?.removeAttribute('data-parley-signature');
      parent.prepend(again);
    }, 600);
  }, keepMark);
  await site.waitForTimeout(1500);
}

for (const lng of ['en', 'es', 'fr'] as const) {
  test(`Gmail (${lng}): the default signature goes in once, a template is inserted filled in, in the reply box`, async ({
    context,
    page,
    storage,
  }) => {
    await signInWithTemplates(page, storage, lng);
    const site = await context.newPage();
    await site.goto(URLS.gmail);

    // The signature: once in the reply and once in the new message, cleaned, and Gmail's draft heard it.
    await expect.poll(() => signatures(site, '[id=":8n"]')).toEqual([`${SIGNATURE_TEXT}example.com`]);
    await expect.poll(() => signatures(site, '[id=":9n"]')).toHaveLength(1);
    expect(await site.locator('[data-parley-signature] script, [data-parley-signature] [onclick]').count()).toBe(0);
    await expect(site.locator('[id=":8n"] [data-parley-signature] a')).toHaveAttribute('href', 'https://example.com/');
    await expect.poll(async () => (await editorState(site))?.text ?? '').toContain('Alex Rivera');

    // Templates next to Reply with Parley, in the on-site language.
    const reply = onSite(site, 'reply');
    await expect
      .poll(() => reply.buttonNames())
      .toEqual([tr(lng, 'extension:onSite.replyButton'), tr(lng, 'extension:onSite.templates')]);
    await reply.click(tr(lng, 'extension:onSite.templates'));
    await expect
      .poll(() => reply.buttonNames())
      .toEqual([
        tr(lng, 'extension:onSite.replyButton'),
        tr(lng, 'extension:onSite.templates'),
        'Confirm the venue',
        'Decline politely',
        tr(lng, 'extension:onSite.moreTemplates'),
        tr(lng, 'extension:onSite.close'),
      ]);
    expect(await reply.text('[data-parley=templates-panel] .section')).toBe(tr(lng, 'extension:onSite.customReplies'));
    expect(await reply.text('[data-parley=templates-panel] .title')).toBe(tr(lng, 'extension:onSite.templatesTitle'));
    await shot(site, `extension-templates-gmail-list-${lng}`);

    await reply.click('Confirm the venue');
    const editor = site.locator('[id=":8n"]');
    await expect(editor).toContainText('Hi Morgan,');
    await expect(editor).toContainText('E2E User');
    await expect.poll(async () => (await editorState(site))?.text ?? '').toContain('Lakeside Lodge fits the budget.');
    // Above the signature, which is still there once.
    expect(await signatures(site, '[id=":8n"]')).toHaveLength(1);
    const order = await editor.evaluate(
      (e) => e.textContent!.indexOf('Hi Morgan') < e.textContent!.indexOf('Alex Rivera'),
    );
    expect(order).toBe(true);
    // Gmail's "--" before its own signature stays on a line of its own, not run into the reply's last line.
    const prefix = await editor.evaluate((e) => {
      const span = e.querySelector('.gmail_signature_prefix');
      const before = span?.previousSibling;
      return before ? before.nodeName : null;
    });
    expect(prefix === 'BR' || prefix === 'DIV').toBe(true);
    await shot(site, `extension-templates-gmail-inserted-${lng}`);

    // Inserting again (an AI reply this time) and opening the box again never adds a second signature.
    await reply.click(tr(lng, 'extension:onSite.replyButton'));
    await expect.poll(() => reply.text('[data-parley=suggestion]')).toContain('You asked:');
    await reply.click(tr(lng, 'extension:onSite.insert'));
    await expect(editor).not.toContainText('Hi Morgan,');
    expect(await signatures(site, '[id=":8n"]')).toHaveLength(1);
    await reopenReply(site, true);
    expect(await signatures(site, '[id=":8n"]')).toHaveLength(1);
    await reopenReply(site, false);
    // Gmail's own signature in the fixture says "Alex Rivera" too; Parley's is there once.
    const count = (text: string) => text.split(SIGNATURE_TEXT).length - 1;
    expect(count((await site.locator('[id=":8n"]').textContent()) ?? '')).toBe(1);
  });
}

test('a custom reply drafts the AI reply with its instruction', async ({ context, page, storage }) => {
  await signInWithTemplates(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.gmail);
  const reply = onSite(site, 'reply');
  await reply.click(tr('en', 'extension:onSite.templates'));
  await reply.click('Decline politely');
  // The fake AI answers with what it was asked: the instruction reached it.
  await expect
    .poll(() => reply.text('[data-parley=suggestion]'))
    .toContain('Decline politely and offer the week after.');
});

/** Types `;thx` and Space where the caret is, and checks the expansion and its undo. */
async function expandAndUndo(site: Page, field: Locator, read: () => Promise<string>, typed = ';thx') {
  await site.keyboard.type(`Sure ${typed}`);
  await site.keyboard.press('Space');
  await expect.poll(read).toContain(`Sure ${THANKS}`);
  expect(await read()).not.toContain(typed);
  await site.keyboard.press('Control+z');
  await expect.poll(read).toContain(`Sure ${typed}`);
  expect(await read()).not.toContain(THANKS);
  // Declined: the next Space leaves it as typed.
  await site.keyboard.press('Space');
  await site.keyboard.type('ok');
  await expect.poll(read).toContain(`Sure ${typed} ok`);
  await expect(field).toBeFocused();
}

test('a shortcut is typed out in place in Gmail, a LinkedIn comment box and a plain textarea, each with undo', async ({
  context,
  page,
  storage,
}) => {
  await signInWithTemplates(page, storage);

  // Gmail's new message (contenteditable; the fixture's draft model reads the DOM on input).
  const gmail = await context.newPage();
  await gmail.goto(URLS.gmail);
  const compose = gmail.locator('[id=":9n"]');
  await expect.poll(() => signatures(gmail, '[id=":9n"]')).toHaveLength(1);
  await compose.click();
  await gmail.keyboard.press('Control+Home');
  await expandAndUndo(gmail, compose, async () => (await compose.textContent()) ?? '');
  await gmail.keyboard.type(' ;thx');
  await gmail.keyboard.press('Enter');
  await expect
    .poll(async () => (await gmail.evaluate(() => (window as any).__editorStates[':9n'].text)) as string)
    .toContain(`ok ${THANKS}`);
  await shot(gmail, 'extension-shortcut-gmail');

  // LinkedIn's comment box (Quill: its model follows DOM mutations).
  const linkedin = await context.newPage();
  await linkedin.goto(URLS.linkedin);
  const comment = linkedin.locator('.ql-editor');
  await comment.click();
  await expandAndUndo(linkedin, comment, async () => (await editorState(linkedin))?.text ?? '');
  await shot(linkedin, 'extension-shortcut-linkedin');

  // A plain textarea on any page: the page hears input events.
  const article = await context.newPage();
  await article.goto(URLS.article);
  await article.evaluate(() => {
    const notes = document.querySelector('textarea')!;
    (window as any).__inputs = [];
    notes.addEventListener('input', (e) => (window as any).__inputs.push((e as InputEvent).inputType));
  });
  const notes = article.locator('#notes');
  await notes.click();
  await expandAndUndo(article, notes, () => notes.inputValue());
  const inputs = (await article.evaluate(() => (window as any).__inputs)) as string[];
  expect(inputs).toContain('historyUndo');
  expect(inputs.filter((type) => type === 'insertText').length).toBeGreaterThan(4);
  // A page's own synthetic keys expand nothing.
  await notes.fill(';thx');
  await article.evaluate(() =>
    document.querySelector('textarea')!.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true })),
  );
  await expect(notes).toHaveValue(';thx');
  await shot(article, 'extension-shortcut-textarea');
});

test('a shortcut is typed out in X’s reply box (DraftJS) and a Facebook comment box (Lexical), and the site registers it', async ({
  context,
  page,
  storage,
}) => {
  await signInWithTemplates(page, storage);
  for (const [url, box, model] of [
    [URLS.x, '[data-testid="tweetTextarea_0"]', 'reply'],
    [URLS.facebook, '[data-lexical-editor="true"]', 'comment'],
  ] as const) {
    const site = await context.newPage();
    await site.goto(url);
    // The site's script is running: its reply button is there.
    await expect.poll(() => onSite(site, 'reply').buttonNames()).toContain(tr('en', 'extension:onSite.replyButton'));
    const field = site.locator(box);
    await field.click();
    await site.keyboard.type('Sure ;thx');
    await site.keyboard.press('Space');
    await site.keyboard.type('again');
    // The editor's own model (the fixture's imitation of DraftJS / Lexical) holds the text, not only the DOM.
    const state = () => site.evaluate((key) => (window as any).__editorStates[key]?.text ?? '', model);
    await expect.poll(state).toBe(`Sure ${THANKS} again`);
    await expect(field).toHaveText(`Sure ${THANKS} again`);
    await expect(field).toBeFocused();
    await shot(site, `extension-shortcut-${model === 'reply' ? 'x' : 'facebook'}`);
  }
});

test('Outlook: the signature made the default for the account writing wins over the Outlook default', async ({
  context,
  page,
  storage,
}) => {
  const user = await signInWithTemplates(page, storage);
  const added = await Promise.all([
    apiPost('/api/template/signature/add', user.token, {
      name: 'Outlook default',
      html: '<p>Sent from Outlook, Alex</p>',
      defaultFor: ['outlook'],
    }),
    apiPost('/api/template/signature/add', user.token, {
      name: 'Jordan at work',
      html: '<p><b>Jordan Blake</b> · Accounts payable</p>',
      defaultFor: ['jordan.blake@example.com'],
    }),
  ]);
  for (const answer of added) expect(answer.status).toBe(200);
  // Made through the API: the test says so on the web app's page, as the web app does after its own changes.
  await page.evaluate(() => window.postMessage({ type: 'PARLEY_TEMPLATES_CHANGED' }, location.origin));
  await expect
    .poll(async () => ((await storage()).templates as { signatures: unknown[] } | undefined)?.signatures.length)
    .toBe(3);
  const outlook = await context.newPage();
  await outlook.goto(URLS.outlook);
  const editor = '[contenteditable="true"][aria-label^="Message body"]';
  await expect.poll(() => signatures(outlook, editor)).toEqual(['Jordan Blake · Accounts payable']);
  // Outlook's own signature and the quoted original stay; Parley's goes above the quote.
  await expect(outlook.locator(`${editor} #Signature`)).toContainText('Jordan Blake · Operations');
  await shot(outlook, 'extension-signature-outlook-account');
});

test('the trigger is set on the options page (en, es, fr) and followed at once; signing out removes the shortcuts', async ({
  context,
  page,
  storage,
  openExtensionPage,
}) => {
  await signInWithTemplates(page, storage);
  const article = await context.newPage();
  await article.goto(URLS.article);
  const notes = article.locator('#notes');

  const options = await openExtensionPage('options.html');
  for (const lng of ['es', 'fr', 'en'] as const) {
    const stored = await storage();
    await options.evaluate(
      async ([session, language]) => {
        const chrome = (globalThis as any).chrome;
        await chrome.storage.local.set({ session: { ...session, profile: { ...session!.profile, language } } });
      },
      [stored.session, lng] as const,
    );
    await options.reload();
    await expect(
      options.getByRole('heading', { name: tr(lng, 'extension:options.shortcutsTitle'), exact: true }),
    ).toBeVisible();
    await expect(options.getByText(tr(lng, 'extension:options.shortcutsReady', { count: 1 }))).toBeVisible();
    await expect(options.getByLabel(tr(lng, 'extension:options.trigger'))).toHaveValue(';');
  }
  const field = options.getByLabel(tr('en', 'extension:options.trigger'));
  await field.fill('ab');
  await options.getByRole('button', { name: tr('en', 'extension:options.triggerSave') }).click();
  await expect(options.getByRole('alert')).toHaveText(tr('en', 'extension:options.triggerInvalid'));
  await field.fill('//');
  await options.getByRole('button', { name: tr('en', 'extension:options.triggerSave') }).click();
  await expect.poll(async () => (await storage()).localSettings).toEqual({ shortcutTrigger: '//' });
  await shot(options, 'extension-options-shortcuts');

  // The page follows without a reload: //thx expands, ;thx no longer does.
  await article.bringToFront();
  await notes.click();
  await article.keyboard.type('a ;thx');
  await article.keyboard.press('Space');
  await article.keyboard.type('b //thx');
  await article.keyboard.press('Space');
  await expect(notes).toHaveValue(`a ;thx b ${THANKS} `);

  // Signed out: the templates and shortcuts are gone, and the listener with them.
  await options.evaluate(async () => {
    const chrome = (globalThis as any).chrome;
    await chrome.runtime.sendMessage({ parley: 1, type: 'LOGOUT', data: undefined });
  });
  await expect
    .poll(async () => {
      const stored = await storage();
      return [stored.session?.signedIn, stored.templates, stored.shortcuts];
    })
    .toEqual([false, undefined, undefined]);
  await notes.fill('');
  await notes.click();
  await article.keyboard.type('c //thx');
  await article.keyboard.press('Space');
  await expect(notes).toHaveValue('c //thx ');
});
