import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderApp } from '../../../test/render-app';
import { makeTeam, viewer } from '../test-fixtures';

const slow = { timeout: 10_000 };
const KEY = 'k3y-0f-f0rty-thr33-characters-base64url-abc';
const joinCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === '/api/auth/join');

describe('/join-organization', { timeout: 30_000 }, () => {
  it('signed out, sends the visitor to sign in and back with the key', async () => {
    mockApi({ 'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }) });
    const { router } = renderApp(`/join-organization?key=${KEY}`);
    expect(await screen.findByRole('heading', { name: 'Welcome back' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe(`/join-organization?key=${KEY}`);
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      `/signup?next=${encodeURIComponent(`/join-organization?key=${KEY}`)}`,
    );
  });

  it('signed in, joins with the key, says so and opens the organization', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    const fetchMock = mockApi({
      'GET /api/user/profile': ok(viewer()),
      'POST /api/auth/join': ok(
        { organization: { id: 'o1', name: 'Analytical Engines' } },
        'You have joined the organization.',
      ),
      'POST /api/org/team': ok(makeTeam('user')),
    });
    const { router } = renderApp(`/join-organization?key=${KEY}`);
    expect(await screen.findByRole('heading', { name: 'Join organization' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Join organization | Parley');
    expect(document.title).not.toContain(KEY);
    expect(
      screen.getByText('Signed in as ada@example.com. The invitation must have been sent to this address.'),
    ).toBeInTheDocument();
    expect(joinCalls(fetchMock)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Join organization' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/organization'));
    expect(JSON.parse(String((joinCalls(fetchMock)[0]?.[1] as RequestInit).body))).toEqual({ key: KEY });
    expect(await screen.findByText('You have joined Analytical Engines.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Analytical Engines' })).toBeInTheDocument();
  });

  it('shows the server’s message when the invitation is refused, and a way home', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(viewer()),
      'POST /api/auth/join': {
        status: 403,
        body: {
          status: 403,
          code: 'INVITATION_OTHER_EMAIL',
          message: 'This invitation was sent to another e-mail address. Sign in with the address it was sent to.',
        },
      },
    });
    const { router } = renderApp(`/join-organization?key=${KEY}`);
    await user.click(await screen.findByRole('button', { name: 'Join organization' }, slow));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation was sent to another e-mail address. Sign in with the address it was sent to.',
    );
    // Trying again would be refused the same way.
    expect(screen.queryByRole('button', { name: 'Join organization' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/join-organization');
    await user.click(screen.getByRole('link', { name: 'Back to home' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('says a link without its key is incomplete, and calls nothing', async () => {
    localStorage.setItem('token', 'tok');
    const fetchMock = mockApi({ 'GET /api/user/profile': ok(viewer()) });
    renderApp('/join-organization?key=short');
    expect(await screen.findByText(/This invitation link is incomplete/, {}, slow)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join organization' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/home');
    expect(joinCalls(fetchMock)).toHaveLength(0);
  });
});
