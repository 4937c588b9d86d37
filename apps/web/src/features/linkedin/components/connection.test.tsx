import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp } from '../../../test/render-app';
import { browser } from '../lib/linkedin-lib';
import { bodyOf, calls, connected, notConnected, refused, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };

afterEach(() => vi.restoreAllMocks());

describe('connecting LinkedIn', { timeout: 30_000 }, () => {
  it('shows the connection with its end date, the menu entry and the title', async () => {
    signedIn({ connection: connected() });
    renderApp('/automation/linkedin-access-1');
    expect(await screen.findByText('Connected', {}, slow)).toBeInTheDocument();
    expect(screen.getByText('Until July 1, 2026')).toBeInTheDocument();
    expect(document.title).toBe('Connect LinkedIn | Parley');
    expect(
      within(screen.getByRole('complementary', { name: 'Main navigation' })).getByRole('link', { name: 'LinkedIn' }),
    ).toHaveAttribute('href', '/automation');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
  });

  it('says login is needed once the token ended, with the date in the language of the page', async () => {
    signedIn({ connection: connected({ state: 'loginNeeded', expiresAt: '2026-03-02T10:00:00.000Z' }) });
    renderApp('/automation/linkedin-access-1');
    expect(await screen.findByText('Login needed', {}, slow)).toBeInTheDocument();
    expect(screen.getByText(/ended on March 2, 2026/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect again' })).toBeInTheDocument();
  });

  it('"Connect LinkedIn" asks the server for LinkedIn\'s address and goes there', async () => {
    const user = userEvent.setup();
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    const fetchMock = signedIn(
      { connection: notConnected() },
      { 'POST /api/linkedin/connect': ok({ url: 'https://linkedin.test/oauth?state=s1' }) },
    );
    renderApp('/automation/linkedin-access-1');
    await user.click(await screen.findByRole('button', { name: 'Connect LinkedIn' }, slow));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://linkedin.test/oauth?state=s1'));
    expect(calls(fetchMock, 'POST /api/linkedin/connect')).toHaveLength(1);
  });

  it('explains the setup when the server has no LinkedIn app', async () => {
    signedIn({ connection: notConnected({ configured: false }) });
    renderApp('/automation/linkedin-access-1');
    expect(await screen.findByText('LinkedIn is not set up on this server', {}, slow)).toBeInTheDocument();
    expect(screen.getByText(/LINKEDIN_CLIENT_ID=/)).toHaveTextContent('LINKEDIN_CLIENT_SECRET=');
    expect(screen.getByText(`${window.location.origin}/linkedin-auth-redirect`)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect LinkedIn' })).toBeNull();
  });

  it('shows a refused start in the words of the server', async () => {
    const user = userEvent.setup();
    signedIn(
      { connection: notConnected() },
      { 'POST /api/linkedin/connect': refused(503, 'LINKEDIN_NOT_CONFIGURED', 'LinkedIn is not set up.') },
    );
    renderApp('/automation/linkedin-access-1');
    await user.click(await screen.findByRole('button', { name: 'Connect LinkedIn' }, slow));
    expect(await screen.findByText('LinkedIn is not set up.')).toBeInTheDocument();
  });
});

describe('/linkedin-auth-redirect', { timeout: 30_000 }, () => {
  it('sends the code and state once, then goes to the dashboard', async () => {
    const fetchMock = signedIn({ connection: notConnected() }, { 'POST /api/linkedin/callback': ok(connected()) });
    const { router } = renderApp('/linkedin-auth-redirect?code=c0de&state=st4te');
    await waitFor(() => expect(router.state.location.pathname).toBe('/automation/dashboard-linkedin'), slow);
    const sent = calls(fetchMock, 'POST /api/linkedin/callback');
    expect(sent).toHaveLength(1);
    expect(bodyOf(sent[0]![1])).toEqual({ code: 'c0de', state: 'st4te' });
  });

  it('is a page of the assistant: LinkedIn is the current side-menu entry, in the same column as the others', async () => {
    signedIn({}, { 'POST /api/linkedin/callback': refused(400, 'LINKEDIN_STATE_INVALID', 'Ce lien a expiré.') });
    renderApp('/linkedin-auth-redirect?code=c&state=forged');
    expect(await screen.findByText('Ce lien a expiré.', {}, slow)).toBeInTheDocument();
    const menu = screen.getByRole('complementary', { name: 'Main navigation' });
    expect(within(menu).getByRole('link', { name: 'LinkedIn' })).toHaveClass('bg-blue-50');
    expect(within(menu).getByRole('link', { name: 'Home' })).not.toHaveClass('bg-blue-50');
    expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveClass('max-w-5xl');
  });

  it('shows the localized refusal of a forged or used state', async () => {
    signedIn(
      {},
      {
        'POST /api/linkedin/callback': refused(400, 'LINKEDIN_STATE_INVALID', 'Ce lien de connexion a expiré.'),
      },
    );
    renderApp('/linkedin-auth-redirect?code=c&state=forged');
    expect(await screen.findByText('Ce lien de connexion a expiré.', {}, slow)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect again' })).toHaveAttribute(
      'href',
      '/automation/linkedin-access-1',
    );
  });

  it('says so when LinkedIn sent nothing back (cancelled)', async () => {
    const fetchMock = signedIn();
    renderApp('/linkedin-auth-redirect?error=user_cancelled_login');
    expect(await screen.findByText('The connection was cancelled on LinkedIn.', {}, slow)).toBeInTheDocument();
    expect(calls(fetchMock, 'POST /api/linkedin/callback')).toHaveLength(0);
  });
});

describe('/automation/linkedInLogout', { timeout: 30_000 }, () => {
  it('disconnects after the confirmation only', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn({}, { 'POST /api/linkedin/logout': ok({ disconnected: true }) });
    const { router } = renderApp('/automation/linkedInLogout');
    await user.click(await screen.findByRole('button', { name: 'Disconnect LinkedIn' }, slow));
    const dialog = screen.getByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetchMock, 'POST /api/linkedin/logout')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Disconnect LinkedIn' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/automation/linkedin-access-1'));
    expect(calls(fetchMock, 'POST /api/linkedin/logout')).toHaveLength(1);
  });

  it('sends a signed-out visitor to the login page and back', async () => {
    const { router } = renderApp('/automation/linkedInLogout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), slow);
    expect(router.state.location.search).toContain('next=');
  });
});
