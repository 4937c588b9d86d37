import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExtensionInfo } from '@parley/contract';
import type { ExtensionPresence } from '../../../lib/extension-bridge';
import { mockApi, ok, renderApp } from '../../../test/render-app';
import { detectBrowser } from '../browsers';

const presence = vi.hoisted(() => ({ current: { status: 'absent' } as ExtensionPresence }));
vi.mock('../../../lib/use-extension-presence', () => ({ useExtensionPresence: () => presence.current }));

/** The first render loads the page's code on demand. */
const slow = { timeout: 10_000 };

const built: ExtensionInfo = {
  available: true,
  version: '1.2.3',
  fileName: 'parley-extension-1.2.3.zip',
  size: 1_234_567,
  storeUrl: null,
};

describe('/install', () => {
  beforeEach(() => {
    presence.current = { status: 'absent' };
  });

  it('offers the download with its size and unzip advice, and the steps for this browser', async () => {
    mockApi({ 'GET /api/extension': ok(built) });
    renderApp('/install');
    const download = await screen.findByRole('link', { name: 'Download Parley' }, slow);
    expect(download).toHaveAttribute('href', '/api/extension/download');
    expect(download).toHaveAttribute('download', 'parley-extension-1.2.3.zip');
    expect(screen.getByText('Version 1.2.3 · 1.2 MB · ZIP file')).toBeInTheDocument();
    expect(screen.getByText(/unzip the download first/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open the store page' })).not.toBeInTheDocument();

    expect(screen.getByRole('heading', { name: 'Add it to Chrome' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Chrome' })).toHaveAttribute('aria-selected', 'true');
    const steps = within(screen.getByRole('tabpanel'));
    expect(steps.getAllByRole('listitem')).toHaveLength(5);
    expect(steps.getByText('chrome://extensions', { selector: 'code' })).toBeInTheDocument();
    expect(steps.getByRole('heading', { name: 'Turn on Developer mode' })).toBeInTheDocument();
    expect(steps.getByRole('heading', { name: 'Click “Load unpacked”' })).toBeInTheDocument();
    expect(steps.getByText('parley-extension-1.2.3.zip', { selector: 'code' })).toBeInTheDocument();
    expect(screen.getByText(/Reload this page/)).toBeInTheDocument();
  });

  it('switches the steps to Edge and Brave, with the mouse or the arrow keys', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/extension': ok(built) });
    renderApp('/install');
    await user.click(await screen.findByRole('tab', { name: 'Edge' }));
    expect(screen.getByRole('heading', { name: 'Add it to Edge' })).toBeInTheDocument();
    expect(screen.getByText('edge://extensions', { selector: 'code' })).toBeInTheDocument();
    expect(screen.getByText(/in the column on the left/)).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Brave' })).toHaveFocus();
    expect(screen.getByText('brave://extensions', { selector: 'code' })).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Chrome' })).toHaveAttribute('aria-selected', 'true');
  });

  it('puts the store first when the server names one', async () => {
    mockApi({ 'GET /api/extension': ok({ ...built, storeUrl: 'https://store.example/parley' }) });
    renderApp('/install');
    const store = await screen.findByRole('link', { name: 'Open the store page' });
    expect(store).toHaveAttribute('href', 'https://store.example/parley');
    expect(store).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('heading', { name: 'Or install it yourself' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download Parley' })).toBeInTheDocument();
  });

  it('says when the server has no built extension, and how to build it, without a download link', async () => {
    const user = userEvent.setup();
    let available = false;
    const fetchMock = mockApi({
      'GET /api/extension': () =>
        ok(available ? built : { available: false, version: null, fileName: null, size: null, storeUrl: null }),
    });
    renderApp('/install');
    expect(await screen.findByRole('heading', { name: 'The extension is not built on this server yet' })).toBeVisible();
    expect(screen.getByText(/npm run build/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download Parley' })).not.toBeInTheDocument();
    available = true;
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByRole('link', { name: 'Download Parley' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/extension'))).toHaveLength(2);
  });

  it('says so when this browser already has the extension', async () => {
    presence.current = { status: 'installed', version: '1.2.3' };
    mockApi({ 'GET /api/extension': ok(built) });
    renderApp('/install');
    expect(await screen.findByText('Parley is installed in this browser')).toBeInTheDocument();
    expect(screen.getByText('Version 1.2.3', { exact: true })).toBeInTheDocument();
    expect(screen.queryByText(/Reload this page/)).not.toBeInTheDocument();
  });

  it('continues to a page of this site named by ?next=, never elsewhere', async () => {
    mockApi({ 'GET /api/extension': ok(built) });
    const first = renderApp('/install?next=/on-boarding/2');
    expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/on-boarding/2');
    first.unmount();
    renderApp('/install?next=//evil.example/x');
    expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/login');
  });

  it('keeps /install/:id working', async () => {
    mockApi({ 'GET /api/extension': ok(built) });
    renderApp('/install/abc123');
    expect(await screen.findByText('Reference: abc123')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Install the Parley extension' })).toBeInTheDocument();
  });
});

describe('/extensionIndex.html on the web', () => {
  it('explains that the page lives in the extension and leads to /install', async () => {
    renderApp('/extensionIndex.html');
    expect(
      await screen.findByRole('heading', { name: 'This page opens inside the Parley extension' }),
    ).toBeInTheDocument();
    expect(screen.getByText('/extensionIndex.html', { selector: 'code' })).toBeInTheDocument();
    expect(screen.getByText(/then “Open in a tab”/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Install the extension' })).toHaveAttribute('href', '/install');
    expect(screen.getByRole('link', { name: 'Chat on the web instead' })).toHaveAttribute('href', '/chat');
  });

  it('does not offer the install when the extension is there', async () => {
    presence.current = { status: 'installed', version: null };
    renderApp('/extensionIndex.html');
    expect(await screen.findByText(/Parley is installed in this browser: its icon/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Install the extension' })).not.toBeInTheDocument());
  });
});

describe('detectBrowser', () => {
  it('tells Edge and Brave from Chrome', () => {
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    expect(detectBrowser({ userAgent: chrome })).toBe('chrome');
    expect(detectBrowser({ userAgent: `${chrome} Edg/131.0.2903.86` })).toBe('edge');
    expect(detectBrowser({ userAgent: chrome, brave: {} })).toBe('brave');
  });
});
