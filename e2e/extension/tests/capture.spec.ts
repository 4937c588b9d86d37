import type { BrowserContext, CDPSession, Page, Worker } from '@playwright/test';
import { apiGet, apiSignUp, shot, tr, uniqueEmail } from '../../support.js';
import { CAPTURE_COLOURS, CAPTURE_LAYOUT, PDF_PAGES } from '../capture-fixtures.js';
import { EXTENSION_ID, expect, postUpdateToken, test as base } from '../fixtures.js';
import { onSite } from '../on-site.js';
import { startHttpsServer, type HttpsServer } from '../sites.js';

/**
 * Chatting with what is on screen: screenshot, region, an image of the page (the context menu's handler), a PDF tab
 * and the current YouTube video, with the built extension.
 *
 * The capture APIs need the activeTab grant a person gives by clicking Parley's toolbar button on the tab. The tests
 * give it the same way: the DevTools protocol's Extensions.triggerAction clicks the action on that tab (Chromium
 * allows it with --enable-unsafe-extension-debugging). That click opens the real side panel, which Playwright cannot
 * drive; it is closed again and the same panel page is opened in a popup window beside the tab, so the tab stays
 * the visible one of its window as it does beside a side panel.
 */

const other = () => process.env.E2E_OTHER_URL!;
const YOUTUBE_HOST = 'www.youtube.com';
const VIDEO_ID = 'Wq3xShelf01';
const SILENT_VIDEO_ID = 'Nq7NoCapt00';

/** A watch page as YouTube serves it: the player response in a script, caption tracks on the page's own origin. */
function watchPage(videoId: string) {
  const captioned = videoId === VIDEO_ID;
  const player = {
    videoDetails: { videoId, title: captioned ? 'Building a floating shelf' : 'Rain on a tin roof' },
    ...(captioned && {
      captions: {
        playerCaptionsTracklistRenderer: {
          captionTracks: [
            {
              baseUrl: `https://${YOUTUBE_HOST}/api/timedtext?v=${videoId}&lang=fr&kind=asr`,
              languageCode: 'fr',
              kind: 'asr',
            },
            { baseUrl: `https://${YOUTUBE_HOST}/api/timedtext?v=${videoId}&lang=en`, languageCode: 'en' },
          ],
        },
      },
    }),
  };
  return `<!doctype html><html><head><title>${player.videoDetails.title} - YouTube</title></head><body>
    <div id="movie_player"></div><h1>${player.videoDetails.title}</h1>
    <script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script></body></html>`;
}

const JSON3 = {
  wireMagic: 'pb3',
  events: [
    { tStartMs: 0, dDurationMs: 60000, id: 1, wpWinPosId: 1 },
    { tStartMs: 1500, dDurationMs: 3000, segs: [{ utf8: 'Today we build a' }, { utf8: ' floating shelf' }] },
    { tStartMs: 4500, aAppend: 1, segs: [{ utf8: '\n' }] },
    { tStartMs: 62000, dDurationMs: 4000, segs: [{ utf8: 'Drill two holes into the stud' }] },
  ],
};

/** youtube.com needs HTTPS (it is HSTS-preloaded): a throwaway certificate, served on loopback under its name. */
function startYoutube(): Promise<HttpsServer> {
  return startHttpsServer([YOUTUBE_HOST], (req, res) => {
    const url = new URL(req.url ?? '/', `https://${YOUTUBE_HOST}`);
    if (url.pathname === '/watch') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(watchPage(url.searchParams.get('v') ?? ''));
    } else if (url.pathname === '/api/timedtext' && url.searchParams.get('fmt') === 'json3') {
      const english = url.searchParams.get('lang') === 'en';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(english ? JSON3 : { events: [{ tStartMs: 0, segs: [{ utf8: 'Aujourd’hui' }] }] }));
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
}

const test = base.extend<object, { youtube: { port: number } }>({
  youtube: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startYoutube();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  browserArgs: async ({ youtube }, use) => {
    await use([
      '--enable-unsafe-extension-debugging',
      `--host-resolver-rules=MAP ${YOUTUBE_HOST} 127.0.0.1:${youtube.port}`,
      '--ignore-certificate-errors',
    ]);
  },
});

type TargetInfo = { type: string; targetId: string; url: string };

async function targets(cdp: CDPSession): Promise<TargetInfo[]> {
  return ((await cdp.send('Target.getTargets', { filter: [{}] } as never)) as { targetInfos: TargetInfo[] })
    .targetInfos;
}

/**
 * Clicks Parley's toolbar button on the tab showing `page` (activeTab is granted for it), then closes the side panel
 * that click opened.
 */
async function clickToolbarButton(context: BrowserContext, page: Page) {
  await page.bringToFront();
  const cdp = await context.browser()!.newBrowserCDPSession();
  const panelUrl = `chrome-extension://${EXTENSION_ID}/sidepanel.html`;
  const panels = async () =>
    (await targets(cdp)).filter((t) => t.type === 'page' && t.url === panelUrl).map((t) => t.targetId);
  const before = new Set(await panels());
  const tab = (await targets(cdp)).find((t) => t.type === 'tab' && t.url === page.url());
  expect(tab, `a tab target for ${page.url()}`).toBeTruthy();
  await cdp.send('Extensions.triggerAction' as never, { id: EXTENSION_ID, targetId: tab!.targetId } as never);
  await expect.poll(async () => (await panels()).filter((id) => !before.has(id)).length).toBe(1);
  const [opened] = (await panels()).filter((id) => !before.has(id));
  await cdp.send('Target.closeTarget', { targetId: opened! });
  await expect.poll(async () => (await panels()).includes(opened!)).toBe(false);
  await cdp.detach();
}

/**
 * Clicks Parley's toolbar button on the tab showing `page`, waits until the side panel it opens has narrowed the tab,
 * then closes the panel and waits until the tab has its width back.
 */
async function openAndCloseSidePanel(context: BrowserContext, worker: Worker, page: Page) {
  const tabWidth = () =>
    worker.evaluate(async (url) => {
      const c = (
        globalThis as unknown as {
          chrome: { tabs: { query(q: unknown): Promise<{ url?: string; width?: number }[]> } };
        }
      ).chrome;
      return (await c.tabs.query({})).find((t) => t.url === url)?.width ?? 0;
    }, page.url());
  const full = await tabWidth();
  const cdp = await context.browser()!.newBrowserCDPSession();
  const panelUrl = `chrome-extension://${EXTENSION_ID}/sidepanel.html`;
  const before = new Set((await targets(cdp)).map((t) => t.targetId));
  const tab = (await targets(cdp)).find((t) => t.type === 'tab' && t.url === page.url());
  await cdp.send('Extensions.triggerAction' as never, { id: EXTENSION_ID, targetId: tab!.targetId } as never);
  await expect.poll(tabWidth).toBeLessThan(full);
  const opened = (await targets(cdp)).find((t) => t.type === 'page' && t.url === panelUrl && !before.has(t.targetId));
  await cdp.send('Target.closeTarget', { targetId: opened!.targetId });
  await expect.poll(tabWidth).toBe(full);
  await cdp.detach();
}

/** The panel page in a popup window of its own, beside the site's window (as a side panel is beside the tab). */
async function openPanelBeside(context: BrowserContext, worker: Worker): Promise<Page> {
  const opened = context.waitForEvent('page', (p) => p.url().endsWith('/sidepanel.html'));
  await worker.evaluate(() => {
    const c = (
      globalThis as unknown as {
        chrome: { windows: { create(o: unknown): Promise<unknown> }; runtime: { getURL(p: string): string } };
      }
    ).chrome;
    return c.windows.create({ url: c.runtime.getURL('sidepanel.html'), type: 'popup', width: 460, height: 900 });
  });
  const panel = await opened;
  await panel.waitForLoadState();
  return panel;
}

async function signIn(page: Page, tag: string) {
  const user = await apiSignUp(uniqueEmail(tag));
  await page.goto('/login');
  await postUpdateToken(page, user.token);
  return user;
}

/** Size and centre colour of an attached image, read from its thumbnail in the panel. */
async function attachedImage(panel: Page, index = 0) {
  const img = panel.getByTestId('attachment-chip').nth(index).locator('img');
  await expect(img).toBeVisible();
  return img.evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    const canvas = new OffscreenCanvas(el.naturalWidth, el.naturalHeight);
    const context = canvas.getContext('2d')!;
    context.drawImage(el, 0, 0);
    const at = (px: number, py: number) => [...context.getImageData(px, py, 1, 1).data.slice(0, 3)];
    const w = el.naturalWidth;
    const h = el.naturalHeight;
    return {
      width: w,
      height: h,
      centre: at(w >> 1, h >> 1),
      corners: [at(1, 1), at(w - 2, 1), at(1, h - 2), at(w - 2, h - 2)],
      src: el.src.slice(0, 22),
    };
  });
}

const near = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]!) <= 3);

/** The user message of the newest conversation, as the API stored it. */
async function lastQuestion(token: string) {
  const list = await apiGet<{ chatHistoryId: string }[]>('/api/mongo/users/chat/histories', token);
  const id = list.data[0]!.chatHistoryId;
  const history = await apiGet<{
    messages: {
      role: string;
      text: string;
      attachments: { kind: string; mediaType: string; name: string; pageCount?: number }[];
    }[];
  }>(`/api/mongo/users/chat/history?chatHistoryId=${id}`, token);
  return history.data.messages.filter((m) => m.role === 'user').at(-1)!;
}

async function ask(panel: Page, text: string) {
  const box = panel.getByRole('textbox', { name: tr('en', 'chat:composer.label') });
  await box.fill(text);
  await box.press('Enter');
  return panel.getByRole('log', { name: tr('en', 'chat:conversation') });
}

test('a screenshot of the tab goes with the next question, and the model receives the image', async ({
  context,
  page,
  worker,
}) => {
  const user = await signIn(page, 'cap-shot');
  const site = await context.newPage();
  await site.goto(`${other()}/capture/page`);
  await clickToolbarButton(context, site);
  const panel = await openPanelBeside(context, worker);

  await panel.getByRole('button', { name: tr('en', 'extension:capture.screenshot') }).click();
  const chip = panel.getByTestId('attachment-chip');
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText('Screenshot');
  const image = await attachedImage(panel);
  expect(image.src).toBe('data:image/png;base64,');
  expect(image.width).toBeGreaterThanOrEqual(1000);
  await shot(panel, 'capture-screenshot-attached');

  // Removing and capturing again: the × drops it from the next question.
  await chip.getByRole('button', { name: /×|Screenshot/ }).click();
  await expect(chip).toHaveCount(0);
  await panel.getByRole('button', { name: tr('en', 'extension:capture.screenshot') }).click();
  await expect(chip).toHaveCount(1);

  const log = await ask(panel, 'What is on my screen?');
  await expect(log.getByText('You asked: What is on my screen?')).toBeVisible();
  await expect(log.getByText('I can see 1 image(s).')).toBeVisible();
  await expect(chip).toHaveCount(0);
  const question = await lastQuestion(user.token);
  expect(question.attachments).toEqual([expect.objectContaining({ kind: 'image', mediaType: 'image/png' })]);
  await shot(panel, 'capture-screenshot-answered');
});

test('a region dragged on the page is captured and cropped to exactly that rectangle; Escape cancels', async ({
  context,
  page,
  worker,
}) => {
  await signIn(page, 'cap-region');
  const site = await context.newPage();
  await site.goto(`${other()}/capture/page`);
  await clickToolbarButton(context, site);
  const panel = await openPanelBeside(context, worker);
  const region = panel.getByRole('button', { name: tr('en', 'extension:capture.region') });

  // Escape leaves the page as it was and attaches nothing.
  await region.click();
  await expect(panel.getByRole('button', { name: tr('en', 'extension:capture.selecting') })).toBeDisabled();
  await expect.poll(() => onSite(site, 'region').count()).toBe(1);
  await site.keyboard.press('Escape');
  await expect.poll(() => onSite(site, 'region').count()).toBe(0);
  await expect(region).toBeEnabled();
  await expect(panel.getByTestId('attachment-chip')).toHaveCount(0);
  await expect(panel.getByRole('alert')).toHaveCount(0);

  // The side panel opened beside the tab and closed again: the tab then shows less of the page than the page's own
  // viewport (713 of Playwright's 800 px), so the capture comes out 1200 × 713, at the same scale, cut at the bottom.
  await openAndCloseSidePanel(context, worker, site);
  await region.click();
  await expect.poll(() => onSite(site, 'region').count()).toBe(1);
  const { x, y, width, height } = CAPTURE_LAYOUT.block;
  await site.mouse.move(x + width, y + height);
  await site.mouse.down();
  await site.mouse.move(x + width / 2, y + height / 2, { steps: 4 });
  await shot(site, 'capture-region-dragging');
  await site.mouse.move(x, y, { steps: 4 });
  await site.mouse.up();
  await expect(panel.getByTestId('attachment-chip')).toHaveCount(1);
  await expect.poll(() => onSite(site, 'region').count()).toBe(0);
  const scale = await site.evaluate(() => devicePixelRatio);
  const image = await attachedImage(panel);
  expect(image.width).toBe(Math.round(width * scale));
  expect(image.height).toBe(Math.round(height * scale));
  for (const colour of [image.centre, ...image.corners]) {
    expect(near(colour, CAPTURE_COLOURS.block), `colour ${colour}`).toBe(true);
  }
  await shot(panel, 'capture-region-attached');

  const log = await ask(panel, 'What colour is this?');
  await expect(log.getByText('I can see 1 image(s).')).toBeVisible();
});

test('from the full page in a tab, the screenshot is of the tab used before, not of the full page', async ({
  context,
  page,
  openExtensionPage,
}) => {
  await signIn(page, 'cap-full');
  const site = await context.newPage();
  await site.goto(`${other()}/capture/page`);
  await clickToolbarButton(context, site);
  const full = await openExtensionPage('extensionIndex.html');
  await full.getByRole('button', { name: tr('en', 'extension:capture.screenshot') }).click();
  await expect(full.getByTestId('attachment-chip')).toHaveCount(1);
  // The tab is brought to the front for the capture, and the full page comes back.
  await expect.poll(() => full.evaluate(() => document.visibilityState)).toBe('visible');
  const { x, y, width, height } = CAPTURE_LAYOUT.block;
  const pixel = await full
    .getByTestId('attachment-chip')
    .locator('img')
    .evaluate(
      async (el: HTMLImageElement, [px, py]) => {
        await el.decode();
        const canvas = new OffscreenCanvas(el.naturalWidth, el.naturalHeight);
        const context = canvas.getContext('2d')!;
        context.drawImage(el, 0, 0);
        const scale = el.naturalWidth / 1200;
        return [...context.getImageData(Math.round(px! * scale), Math.round(py! * scale), 1, 1).data.slice(0, 3)];
      },
      [x + width / 2, y + height / 2],
    );
  expect(near(pixel, CAPTURE_COLOURS.block), `pixel ${pixel}`).toBe(true);
});

test("the image context menu's handler attaches the image: fetched, or cropped from the tab when the site refuses it", async ({
  context,
  page,
  openExtensionPage,
}) => {
  // Context menus cannot be clicked from Playwright: CHAT_ABOUT_IMAGE runs the very function the menu's onClicked
  // listener calls (features/capture/background.ts), for that image of that tab. Without a click there is no user
  // gesture, so the panel opens as the full page in a tab, as it does wherever a side panel cannot open.
  const user = await signIn(page, 'cap-image');
  const site = await context.newPage();
  await site.goto(`${other()}/capture/page`);
  await clickToolbarButton(context, site);
  const options = await openExtensionPage('options.html');
  const send = (type: string, data: unknown) =>
    options.evaluate(
      ([t, d]) =>
        (
          globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }
        ).chrome.runtime.sendMessage({ parley: 1, type: t, data: d }),
      [type, data] as const,
    ) as Promise<{ ok: boolean; data?: { state: string }; error?: { code: string } }>;
  const tabId = (await options.evaluate(async (url) => {
    const tabs = await (
      globalThis as unknown as { chrome: { tabs: { query(q: unknown): Promise<{ id: number; url?: string }[]> } } }
    ).chrome.tabs.query({});
    return tabs.find((t) => t.url === url)?.id;
  }, site.url()))!;
  expect(tabId).toBeGreaterThan(0);
  const src = (name: string) => `${other()}/capture/${name}`;

  // chatWithImage is '0' by default (spec §3): no menu, and the handler refuses.
  expect(await send('CHAT_ABOUT_IMAGE', { srcUrl: src('swatch.png'), tabId })).toMatchObject({
    ok: false,
    error: { code: 'FEATURE_OFF' },
  });
  expect((await send('SET_SETTINGS', { chatWithImage: '1' })).ok).toBe(true);

  const fullPage = `chrome-extension://${EXTENSION_ID}/extensionIndex.html`;
  let opened = context.waitForEvent('page', (p) => p.url() === fullPage);
  expect(await send('CHAT_ABOUT_IMAGE', { srcUrl: src('swatch.png'), tabId })).toMatchObject({
    ok: true,
    data: { state: 'opened-in-tab' },
  });
  let full = await opened;
  expect(await attachedImage(full)).toMatchObject({ width: 160, height: 100 });
  expect(near((await attachedImage(full)).centre, CAPTURE_COLOURS.swatch)).toBe(true);
  await expect(full.getByTestId('attachment-chip')).toContainText('swatch.png');
  await full.close();

  // The site answers 403 to anything but its own <img> (hotlink protection): the tab is captured and cropped.
  opened = context.waitForEvent('page', (p) => p.url() === fullPage);
  await send('CHAT_ABOUT_IMAGE', { srcUrl: src('guarded.png'), tabId });
  full = await opened;
  await expect(full.getByTestId('attachment-chip')).toHaveText(/^guarded\.png/);
  const guarded = await attachedImage(full);
  const scale = await site.evaluate(() => devicePixelRatio);
  expect(guarded.width).toBe(CAPTURE_LAYOUT.guarded.width * scale);
  expect(guarded.height).toBe(CAPTURE_LAYOUT.guarded.height * scale);
  for (const colour of [guarded.centre, ...guarded.corners]) {
    expect(near(colour, CAPTURE_COLOURS.guarded), `colour ${colour}`).toBe(true);
  }
  await shot(full, 'capture-context-menu-image');
  const log = await ask(full, 'Describe this image');
  await expect(log.getByText('I can see 1 image(s).')).toBeVisible();
  expect((await lastQuestion(user.token)).attachments).toEqual([
    expect.objectContaining({ kind: 'image', mediaType: 'image/png' }),
  ]);
  await full.close();

  // A data: image of the page.
  opened = context.waitForEvent('page', (p) => p.url() === fullPage);
  const inline = await site.locator('#inline').getAttribute('src');
  await send('CHAT_ABOUT_IMAGE', { srcUrl: inline, tabId });
  full = await opened;
  expect(await attachedImage(full)).toMatchObject({ width: 24, height: 16 });
});

test('a PDF tab offers Chat with this PDF; the PDF goes as a file and the answer cites its page', async ({
  context,
  page,
  worker,
}) => {
  const user = await signIn(page, 'cap-pdf');
  const site = await context.newPage();
  await site.goto(`${other()}/capture/page`);
  await clickToolbarButton(context, site);
  const panel = await openPanelBeside(context, worker);
  const pdfButton = panel.getByRole('button', { name: tr('en', 'extension:capture.pdf') });
  await expect(panel.getByRole('button', { name: tr('en', 'extension:capture.screenshot') })).toBeVisible();
  await expect(pdfButton).toHaveCount(0);

  await site.goto(`${other()}/capture/report.pdf`).catch(() => undefined);
  await expect(pdfButton).toBeVisible();
  await pdfButton.click();
  const chip = panel.getByTestId('attachment-chip');
  await expect(chip).toHaveAttribute('data-kind', 'pdf');
  await expect(chip).toContainText('report.pdf');
  await shot(panel, 'capture-pdf-attached');
  const log = await ask(panel, 'How much energy was produced?');
  await expect(log.getByText(`From the document (p. 1): ${PDF_PAGES[0]![0]}`)).toBeVisible();
  expect((await lastQuestion(user.token)).attachments).toEqual([
    expect.objectContaining({ kind: 'pdf', name: 'report.pdf', pageCount: 2 }),
  ]);

  // An address without .pdf: the viewer's document type tells.
  await site.goto(`${other()}/capture/download?id=7`).catch(() => undefined);
  await expect(pdfButton).toBeVisible();
});

test('a YouTube watch page offers Chat with this video: the transcript is previewed and sent as the page', async ({
  context,
  page,
  worker,
}) => {
  await signIn(page, 'cap-video');
  const site = await context.newPage();
  await site.goto(`https://${YOUTUBE_HOST}/watch?v=${VIDEO_ID}`);
  await clickToolbarButton(context, site);
  const panel = await openPanelBeside(context, worker);
  const video = panel.getByRole('button', { name: tr('en', 'extension:capture.video') });
  await video.click();
  const preview = panel.getByTestId('page-preview');
  await expect(preview).toContainText('Building a floating shelf');
  await expect(preview).toContainText(`https://${YOUTUBE_HOST}/watch?v=${VIDEO_ID}`);
  // The English track (the interface language), not the automatic French one.
  await expect(preview).toContainText('[0:01] Today we build a floating shelf');
  await expect(preview).toContainText('[1:02] Drill two holes into the stud');
  await expect(panel.getByTestId('page-chip')).toContainText('Building a floating shelf');
  await shot(panel, 'capture-video-preview');
  const log = await ask(panel, 'What do I need?');
  await expect(log.getByText('The page is titled "Building a floating shelf".')).toBeVisible();

  // A video without captions (and no transcript from the server either): a clear message, nothing attached.
  await site.goto(`https://${YOUTUBE_HOST}/watch?v=${SILENT_VIDEO_ID}`);
  await clickToolbarButton(context, site);
  await panel.bringToFront();
  await video.click();
  await expect(panel.getByRole('alert')).toHaveText(tr('en', 'extension:capture.problems.noTranscript'));
  await expect(panel.getByTestId('page-preview')).toHaveCount(0);
});

test.describe('on a high-density screen', () => {
  test.use({ browserArgs: ['--enable-unsafe-extension-debugging', '--force-device-scale-factor=2'] });

  test('the region is cropped in device pixels', async ({ context, page, worker }) => {
    await signIn(page, 'cap-dpr');
    const site = await context.newPage();
    await site.goto(`${other()}/capture/page`);
    await clickToolbarButton(context, site);
    const panel = await openPanelBeside(context, worker);
    await panel.getByRole('button', { name: tr('en', 'extension:capture.region') }).click();
    await expect.poll(() => onSite(site, 'region').count()).toBe(1);
    const { x, y, width, height } = CAPTURE_LAYOUT.block;
    await site.mouse.move(x, y);
    await site.mouse.down();
    await site.mouse.move(x + width, y + height, { steps: 4 });
    await site.mouse.up();
    await expect(panel.getByTestId('attachment-chip')).toHaveCount(1);
    // Playwright keeps the page's devicePixelRatio at 1 while the screen captures at 2: the scale comes from the
    // capture itself, so the crop is exactly the block, in device pixels.
    const image = await attachedImage(panel);
    expect(image).toMatchObject({ width: width * 2, height: height * 2 });
    for (const colour of [image.centre, ...image.corners]) {
      expect(near(colour, CAPTURE_COLOURS.block), `colour ${colour}`).toBe(true);
    }
  });
});
