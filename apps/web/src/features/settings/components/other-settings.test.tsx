import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@parley/contract';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
/** Each test renders the whole app (lazy routes included): generous on a busy machine. */
const LONG = 30_000;

const posted = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).endsWith('/api/user/setting') && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as object);

function setUp(config: { helpUrl: string | null } = { helpUrl: null }) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley', ...config }),
    'GET /api/user/profile': ok(makeProfile()),
    'GET /api/user/setting': ok({ ...DEFAULT_SETTINGS, disabledSites: ['news.example.org'] }),
    'POST /api/user/setting': (_url, init) =>
      ok({ ...DEFAULT_SETTINGS, disabledSites: ['news.example.org'], ...(JSON.parse(String(init.body)) as object) }),
    'GET /api/api-key/fetch': ok([]),
  });
}

describe('/setting/other', () => {
  it(
    'holds Quick Access and its shortcut, the Summarize button, page tools and disabled sites',
    async () => {
      const user = userEvent.setup();
      const fetchMock = setUp();
      renderApp('/setting/other');
      expect(await screen.findByRole('heading', { level: 1, name: 'Other settings' }, slow)).toBeInTheDocument();
      for (const name of ['Quick Access', 'Summarize button', 'On every page', 'Disabled sites'])
        expect(await screen.findByRole('heading', { level: 2, name })).toBeInTheDocument();

      await user.click(screen.getByRole('switch', { name: 'YouTube' }));
      await user.click(screen.getByRole('switch', { name: 'Mini menu on selected text' }));

      const shortcut = screen.getByRole('textbox', { name: 'Shortcut for quick access' });
      await user.clear(shortcut);
      await user.click(screen.getByRole('button', { name: 'Save shortcut' }));
      expect(screen.getByText('Enter a shortcut of 1 to 40 characters, such as Ctrl+Shift+K.')).toBeInTheDocument();
      expect(shortcut).toHaveAttribute('aria-invalid', 'true');
      await user.type(shortcut, '  Alt+Q ');
      await user.click(screen.getByRole('button', { name: 'Save shortcut' }));

      const site = screen.getByRole('textbox', { name: 'Site to disable' });
      await user.type(site, 'not a site');
      await user.click(screen.getByRole('button', { name: 'Add' }));
      expect(screen.getByText('Enter a host name such as example.com.')).toBeInTheDocument();
      await user.clear(site);
      await user.type(site, 'https://www.Mail.Example.com/inbox{Enter}');

      await waitFor(() =>
        expect(posted(fetchMock)).toEqual([
          { summarizeYoutube: '0' },
          { miniMenu: '0' },
          { quickAccessShortcut: 'Alt+Q' },
          { disabledSites: ['news.example.org', 'mail.example.com'] },
        ]),
      );
      await user.click(await screen.findByRole('button', { name: 'Remove news.example.org' }));
      await waitFor(() => expect(posted(fetchMock).at(-1)).toEqual({ disabledSites: ['mail.example.com'] }));
    },
    LONG,
  );

  it(
    'sends people who look for their own API keys to the page of their own',
    async () => {
      const user = userEvent.setup();
      setUp();
      const { router } = renderApp('/setting/other');
      await user.click(await screen.findByRole('link', { name: 'Go to API keys' }, slow));
      await waitFor(() => expect(router.state.location.pathname).toBe('/setting/api-keys'));
      expect(await screen.findByRole('heading', { level: 1, name: 'API keys' }, slow)).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 2, name: 'Add a key' })).toBeInTheDocument();
    },
    LONG,
  );
});

describe('the settings menu', () => {
  it(
    'lists every settings page, and the help pages in a new tab when the server names them',
    async () => {
      setUp({ helpUrl: 'https://help.example.com/faq' });
      renderApp('/setting');
      const menu = await screen.findByRole('complementary', { name: 'Main navigation' }, slow);
      for (const [name, href] of [
        ['Appearance', '/setting'],
        ['General', '/setting/general'],
        ['Instant reply', '/setting/instant-reply'],
        ['Other settings', '/setting/other'],
        ['API keys', '/setting/api-keys'],
      ])
        expect(await within(menu).findByRole('link', { name }, slow)).toHaveAttribute('href', href);
      const help = await within(menu).findByRole('link', { name: /^Help & FAQ\s*\(opens in a new tab\)$/ }, slow);
      expect(help).toHaveAttribute('href', 'https://help.example.com/faq');
      expect(help).toHaveAttribute('target', '_blank');
    },
    LONG,
  );

  it(
    'has no help link when the server names no help pages',
    async () => {
      setUp({ helpUrl: null });
      renderApp('/setting');
      const menu = await screen.findByRole('complementary', { name: 'Main navigation' }, slow);
      await within(menu).findByRole('link', { name: 'Instant reply' }, slow);
      expect(within(menu).queryByRole('link', { name: /Help/ })).toBeNull();
    },
    LONG,
  );
});
