import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiGet, apiSetLanguage, apiSignUp, exact, openSignedIn, shot, tr, uniqueEmail } from '../support';
import { noSidewaysScroll } from './conversation-helpers';

// Images in Chromium, against the production API and the loopback image providers (apps/api/src/test/fake-images.ts):
// four images generated with FLUX, one opened in the editor, its background removed, re-edited on a brushed area,
// undone and redone along its versions, edited again from the first version, downloaded as PNG; the §5 messages for a
// wrong kind of file and a dropped non-image; the pages in Spanish and French, at 375 px, and by keyboard.

const en = (key: string, vars: Record<string, string | number> = {}) => tr('en', key, vars);
const base = () => process.env.E2E_BASE_URL!;
const PROMPT = 'A red fox asleep in the snow';
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

type Version = { id: string; parentId: string | null; operation: string; mediaType: string };
type Image = { id: string; name: string; versions: Version[] };

const versionButton = (page: Page, number: number, made: string) =>
  page
    .getByRole('region', { name: /^Versions:/ })
    .getByRole('button', { name: en('images:versions.label', { number, made: en(`images:versions.made.${made}`) }) });

/** The version list's current entry, by its name. */
async function currentVersion(page: Page) {
  return page
    .getByRole('region', { name: /^Versions:/ })
    .locator('button[aria-current="true"]')
    .getAttribute('aria-label');
}

const label = (number: number, made: string) =>
  en('images:versions.label', { number, made: en(`images:versions.made.${made}`) });

/** PNG bytes: the signature, the size, and whether it has an alpha channel (colour type 6). */
function pngInfo(bytes: Buffer) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), alpha: bytes[25] === 6 || bytes[25] === 4 };
}

/** Drops something on the editor as a person would from the desktop. */
async function drop(area: Locator, file: { name: string; type: string; text: string } | null) {
  await area.evaluate((element, dropped) => {
    const data = new DataTransfer();
    if (dropped) data.items.add(new File([dropped.text], dropped.name, { type: dropped.type }));
    else data.setData('text/uri-list', 'https://example.com/picture.png');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      element.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, file);
}

test('generate four → edit → remove background → brushed re-edit → undo/redo → edit an older version → download PNG', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const ada = await apiSignUp(uniqueEmail('images'), 'correct horse battery', 'Ada Lovelace');
  await openSignedIn(page, ada.token, '/image-generation');
  await expect(page).toHaveTitle(`${en('shell:pages.imageGeneration')} | Parley`);
  await expect(page.getByRole('heading', { level: 1, name: en('images:generate.title') })).toBeVisible();
  const menu = page.getByRole('complementary', { name: en('shell:sideMenu') });
  await expect(menu.getByRole('link', { name: en('shell:menu.imageGeneration'), exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // FLUX (fal, basic): its price per image; four images of 4:3.
  const flux = page.getByRole('radio', { name: /FLUX\.1 \[dev\] \(fal\)/ });
  await expect(flux).toBeEnabled();
  await flux.check();
  await expect(flux).toHaveAccessibleDescription(en('images:models.perImage', { credits: 1 }));
  await page.getByLabel(en('images:generate.prompt')).fill(PROMPT);
  await page.getByRole('radio', { name: en('images:ratios.4x3') }).check();
  await page.getByRole('radio', { name: '4', exact: true }).check();
  await expect(page.getByText(en('images:generate.cost', { credits: 4 }))).toBeVisible();
  await shot(page, 'images-generation-1280');
  await page.getByRole('button', { name: en('images:generate.submit'), exact: true }).click();

  const results = page.locator('section', { has: page.getByRole('heading', { name: en('images:results.title') }) });
  await expect(results.getByRole('listitem')).toHaveCount(4, { timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: en('images:progress.done', { images: 4 }) })).toBeAttached();
  // Each picture is loaded with the token (an object URL), at the shape asked.
  const firstPicture = results.getByRole('img', { name: PROMPT }).first();
  await expect(firstPicture).toHaveAttribute('src', /^blob:/);
  await expect
    .poll(() => firstPicture.evaluate((img: HTMLImageElement) => img.naturalWidth / img.naturalHeight))
    .toBeCloseTo(4 / 3, 1);
  // …and so is its card's picture box: the shape asked, whatever the picture's own size.
  const pictureBox = await firstPicture.locator('..').boundingBox();
  expect(pictureBox!.width / pictureBox!.height).toBeCloseTo(4 / 3, 1);
  await shot(page, 'images-generated-1280');
  const history = await apiGet<{ images: Image[] }>('/api/images', ada.token);
  expect(history.data.images).toHaveLength(4);

  // Edit → the editor with that image.
  await results
    .getByRole('link', { name: en('images:card.edit'), exact: true })
    .first()
    .click();
  await expect(page).toHaveURL(/\/image-editor\/[0-9a-f-]{36}$/);
  await expect(page).toHaveTitle(`${en('shell:pages.imageEditor')} | Parley`);
  const imageId = page.url().split('/').pop()!;
  expect(await currentVersion(page)).toBe(label(1, 'generate'));

  // Remove the background: a new version on transparency, shown on the checkerboard.
  await page.getByRole('button', { name: en('images:operations.removeBackground.apply') }).click();
  await expect(versionButton(page, 2, 'removeBackground')).toHaveAttribute('aria-current', 'true', {
    timeout: 30_000,
  });
  await expect(page.getByText(en('images:edit.fromVersion', { version: label(2, 'removeBackground') }))).toBeVisible();
  // The cut-out and both thumbnails drawn (the new one is made after the answer).
  await expect
    .poll(() =>
      page
        .locator('main img')
        .evaluateAll((images) =>
          images.filter(
            (image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
          ),
        )
        .then((loaded) => loaded.length),
    )
    .toBeGreaterThanOrEqual(3);
  await shot(page, 'images-editor-background-removed-1280');

  // Before/after: the slider moves by keyboard.
  await page.getByRole('button', { name: en('images:edit.compare') }).click();
  const slider = page.getByRole('slider', { name: en('images:compare.slider') });
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute(
    'aria-valuetext',
    en('images:compare.valueText', { before: '0%', after: '100%' }),
  );
  await page.keyboard.press('End');
  await page.getByRole('button', { name: en('images:edit.compare') }).click();

  // Re-edit with the local Stable Diffusion (it can keep to a painted area): paint, then say what changes.
  await page.getByRole('radio', { name: en('images:operations.reEdit.label'), exact: true }).check();
  await page.getByRole('combobox', { name: en('images:edit.model') }).selectOption('LOCAL_STABLE_DIFFUSION');
  await page.getByRole('button', { name: en('images:mask.brush') }).click();
  const canvas = page.getByRole('img', { name: en('images:mask.canvas') });
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByText(en('images:mask.painted'))).toBeVisible();
  await page.getByLabel(en('images:edit.instruction')).fill('Give the fox a green scarf');
  await shot(page, 'images-editor-mask-1280');
  await page.getByRole('button', { name: en('images:operations.reEdit.apply'), exact: true }).click();
  await expect(versionButton(page, 3, 'reEdit')).toHaveAttribute('aria-current', 'true', { timeout: 30_000 });

  // Undo and redo move along the versions: 3 → 2 → 1, then back 2 → 3; Ctrl+Z works too.
  const undo = page.getByRole('button', { name: en('images:edit.undo'), exact: true });
  const redo = page.getByRole('button', { name: en('images:edit.redo'), exact: true });
  await undo.click();
  expect(await currentVersion(page)).toBe(label(2, 'removeBackground'));
  await page.keyboard.press('Control+z');
  expect(await currentVersion(page)).toBe(label(1, 'generate'));
  await expect(undo).toBeDisabled();
  await redo.click();
  expect(await currentVersion(page)).toBe(label(2, 'removeBackground'));
  await page.keyboard.press('Control+Shift+z');
  expect(await currentVersion(page)).toBe(label(3, 'reEdit'));
  await expect(redo).toBeDisabled();

  // Back two versions and edited again: the new version is made from version 1.
  await undo.click();
  await undo.click();
  await page.getByRole('radio', { name: en('images:operations.changeBackground.label') }).check();
  await page.getByRole('radio', { name: en('images:edit.backgrounds.scene') }).check();
  await page.getByLabel(en('images:edit.scene')).fill('A sunny beach with palm trees');
  await page.getByRole('button', { name: en('images:operations.changeBackground.apply') }).click();
  await expect(versionButton(page, 4, 'changeBackground')).toHaveAttribute('aria-current', 'true', {
    timeout: 30_000,
  });
  const image = (await apiGet<Image>(`/api/images/get/${imageId}`, ada.token)).data;
  expect(image.versions.map((v) => [v.operation, v.parentId])).toEqual([
    ['generate', null],
    ['removeBackground', image.versions[0]!.id],
    ['reEdit', image.versions[1]!.id],
    ['changeBackground', image.versions[0]!.id],
  ]);
  expect(image.versions[3]!.parentId).toBe(image.versions[0]!.id);

  // Download PNG: version 2 (transparent) by its name.
  await versionButton(page, 2, 'removeBackground').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: en('images:edit.download') }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${image.name.replace(/\s+/g, '-')}-2.png`);
  const png = pngInfo(await readFile((await download.path())!));
  expect(png.alpha).toBe(true);
  expect(png.width).toBeGreaterThan(0);
  await shot(page, 'images-editor-1280');
});

test('the §5 messages: a file of another kind and a dropped non-image; the server checks the bytes again', async ({
  page,
}) => {
  const bo = await apiSignUp(uniqueEmail('images-files'), 'correct horse battery', 'Bo');
  await openSignedIn(page, bo.token, '/image-editor');
  await expect(page.getByRole('heading', { level: 1, name: en('images:edit.title') })).toBeVisible();
  const area = page.getByTestId('image-drop-area');

  await drop(area, { name: 'notes.txt', type: 'text/plain', text: 'just words' });
  await expect(page.getByRole('alert')).toHaveText(en('images:files.notImage'));
  // An image dragged from another page arrives as a link, not a file.
  await drop(area, null);
  await expect(page.getByRole('alert')).toHaveText(en('images:files.notImage'));
  await shot(page, 'images-editor-dropped-non-image-1280');

  await page.getByTestId('image-file-input').setInputFiles({ name: 'cat.gif', mimeType: 'image/gif', buffer: GIF });
  await expect(page.getByRole('alert')).toHaveText(en('images:files.formatUnsupported'));
  // A text file picked with the file dialog: nothing was dropped, so it is told what the editor takes.
  await drop(area, null);
  await expect(page.getByRole('alert')).toHaveText(en('images:files.notImage'));
  await page
    .getByTestId('image-file-input')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just words') });
  await expect(page.getByRole('alert')).toHaveText(en('images:files.formatUnsupported'));
  // An HTML page named .png: refused on its bytes, not its name.
  await drop(area, { name: 'photo.png', type: 'image/png', text: '<html><script>alert(1)</script></html>' });
  await expect(page.getByRole('alert')).toHaveText(en('images:files.formatUnsupported'));
  expect((await apiGet<{ images: Image[] }>('/api/images', bo.token)).data.images).toHaveLength(0);

  // The server decodes the bytes too, and answers in the caller's language.
  const form = new FormData();
  form.append('image', new Blob([GIF], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${base()}/api/images/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bo.token}`, 'lang-type': 'es' },
    body: form,
  });
  const body = (await res.json()) as { status: number; code: string; message: string };
  expect([res.status, body.code]).toEqual([415, 'IMAGE_FORMAT_UNSUPPORTED']);
  expect(body.message).toBe(tr('es', 'api:errors.IMAGE_FORMAT_UNSUPPORTED'));
});

test('the pages in Spanish and French, at 375 px, and by keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  const cy = await apiSignUp(uniqueEmail('images-i18n'), 'correct horse battery', 'Cy');
  // One image to show, uploaded as the editor's picker would (a 96 × 64 PNG).
  const upload = new FormData();
  const pixels = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAGAAAABACAIAAABqVuVZAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAwUlEQVR4nO3ZwQ3CUBDE0FTy66REl8UdiVwQmhyelAosj9mE67zynO8QLnTOrSIABVC/rIRBARSD+t9PjYkFUAzKxFodtBoUQDEoE0uDeuZ3BZEOoBiUiaVBzXss0gEUgzKx5t1xKAZQDMrEmgfIy2oAxaBMLA1qHmORDqAYlIk1j45DMYBiUCbWQx7/rAZQDMrE0qDmPRbpAIpBmVjz7jgUAygGZWLNA+RlNYBiUCaWBjWPsUgHUAzKxJpH5+NQfAPPodHhiFAPbgAAAABJRU5ErkJggg==',
    'base64',
  );
  upload.append('image', new Blob([pixels], { type: 'image/png' }), 'tiny.png');
  const uploaded = await fetch(`${base()}/api/images/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cy.token}` },
    body: upload,
  });
  expect(uploaded.status).toBe(200);
  const { data } = (await uploaded.json()) as { data: { image: Image } };
  // A landscape and a portrait picture beside it in the history.
  for (const aspectRatio of ['16:9', '9:16']) {
    const form = new FormData();
    for (const [name, value] of Object.entries({ prompt: `A fox, ${aspectRatio}`, model: 'FAL_FLUX_DEV', aspectRatio }))
      form.append(name, value);
    const made = await fetch(`${base()}/api/ai/imageGeneration`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cy.token}` },
      body: form,
    });
    expect(made.status).toBe(200);
  }

  for (const lng of ['es', 'fr'] as const) {
    await apiSetLanguage(cy.token, lng);
    await openSignedIn(page, cy.token, '/image-generation');
    await expect(page.getByRole('heading', { level: 1, name: exact(tr(lng, 'images:generate.title')) })).toBeVisible();
    await expect(page).toHaveTitle(`${tr(lng, 'shell:pages.imageGeneration')} | Parley`);
    await expect(page.getByRole('radio', { name: /FLUX\.1 \[dev\] \(fal\)/ })).toHaveAccessibleDescription(
      tr(lng, 'images:models.perImage', { credits: 1 }),
    );
    await expect(page.getByRole('heading', { name: tr(lng, 'images:history.title') })).toBeVisible();
    if (lng === 'es') {
      // Each card is as tall as its own picture and text: the landscape one is not stretched to the portrait's height.
      const card = (prompt: string) =>
        page.getByRole('listitem').filter({ has: page.getByRole('img', { name: prompt }) });
      await expect(card('A fox, 9:16').getByRole('img')).toHaveAttribute('src', /^blob:/);
      const landscape = (await card('A fox, 16:9').boundingBox())!;
      const portrait = (await card('A fox, 9:16').boundingBox())!;
      expect(landscape.y).toBe(portrait.y);
      expect(landscape.height).toBeLessThan(portrait.height - landscape.width / 2);
    }
    await shot(page, `images-generation-${lng}-1280`, { fullPage: true });
    await page.goto(`/image-editor/${data.image.id}`);
    await expect(page.getByRole('heading', { level: 1, name: exact(tr(lng, 'images:edit.title')) })).toBeVisible();
    await expect(page.getByRole('button', { name: tr(lng, 'images:operations.removeBackground.apply') })).toBeVisible();
    await shot(page, `images-editor-${lng}-1280`);
  }

  // 375 px (French): nothing scrolls sideways; the menu opens from the header.
  await page.setViewportSize({ width: 375, height: 812 });
  for (const [path, name, ready] of [
    ['/image-generation', 'generation', tr('fr', 'images:generate.submit')],
    [`/image-editor/${data.image.id}`, 'editor', tr('fr', 'images:operations.removeBackground.apply')],
    ['/image-editor', 'editor-empty', tr('fr', 'images:upload.choose')],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('button', { name: ready, exact: true })).toBeVisible();
    expect(await noSidewaysScroll(page), path).toBe(true);
    await shot(page, `images-${name}-fr-375`);
  }

  // By keyboard (English): the prompt, then Ctrl+Enter asks for it; an empty one is refused with the focus kept there.
  await apiSetLanguage(cy.token, 'en');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/image-generation');
  const prompt = page.getByLabel(en('images:generate.prompt'));
  // The models come after the page (their own request): the order below is the one a person finds once they show.
  const flux = page.getByRole('radio', { name: /FLUX1\.1 \[pro\]/ });
  await expect(flux).toBeVisible();
  await prompt.focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('alert')).toHaveText(en('images:generate.promptRequired'));
  await expect(prompt).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(flux).toBeFocused();
});
