import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderApp } from '../../../test/render-app';
import { makeTeam, viewer } from '../test-fixtures';

const slow = { timeout: 10_000 };
const KEY = 'k3y-0f-f0rty-thr33-characters-base64url-abc';
const storedKey = () => (JSON.parse(localStorage.getItem('pendingJoin') ?? 'null') as { key: string } | null)?.key;
const keep = () =>
  localStorage.setItem(
    'pendingJoin',
    JSON.stringify({ key: KEY, storedAt: Date.now(), expiresAt: Date.now() + 60_000 }),
  );
const joinCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === '/api/auth/join');

describe('/join-organization', { timeout: 30_000 }, () => {
  it('signed out, keeps the invitation in this browser and offers to log in or create an account', async () => {
    const fetchMock = mockApi({ 'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }) });
    const { router } = renderApp(`/join-organization?key=${KEY}`);
    expect(await screen.findByRole('heading', { name: 'Join organization' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/join-organization');
    expect(document.title).toBe('Join organization | Parley');
    expect(screen.getByText(/This browser keeps the invitation for 7 days/)).toBeInTheDocument();
    // Kept by an effect of the page, which may run just after the text is on screen.
    await waitFor(() => expect(storedKey()).toBe(KEY));
    const next = encodeURIComponent(`/join-organization?key=${KEY}`);
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', `/login?next=${next}`);
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', `/signup?next=${next}`);
    expect(document.body.textContent).not.toContain(KEY);
    expect(joinCalls(fetchMock)).toHaveLength(0);

    await userEvent.setup().click(screen.getByRole('link', { name: 'Create an account' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signup');
    expect(storedKey()).toBe(KEY);
  });

  it('signed out with a broken link, keeps nothing and offers a plain log in', async () => {
    mockApi({});
    renderApp('/join-organization?key=short');
    expect(await screen.findByText(/This invitation link is incomplete/, {}, slow)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
    expect(localStorage.getItem('pendingJoin')).toBeNull();
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

    keep();
    await user.click(screen.getByRole('button', { name: 'Join organization' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/organization'));
    expect(storedKey()).toBeUndefined();
    expect(JSON.parse(String((joinCalls(fetchMock)[0]?.[1] as RequestInit).body))).toEqual({ key: KEY });
    expect(await screen.findByText('You have joined Analytical Engines.')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(KEY);
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
          message: 'This invitation was sent to another email address. Sign in with the address it was sent to.',
        },
      },
    });
    const { router } = renderApp(`/join-organization?key=${KEY}`);
    keep();
    await user.click(await screen.findByRole('button', { name: 'Join organization' }, slow));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation was sent to another email address. Sign in with the address it was sent to.',
    );
    // Trying again would be refused the same way; after sign-in it is not offered again.
    expect(screen.queryByRole('button', { name: 'Join organization' })).not.toBeInTheDocument();
    expect(storedKey()).toBeUndefined();
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

  it('"Not now" forgets the kept invitation and goes home', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(viewer()) });
    keep();
    const { router } = renderApp(`/join-organization?key=${KEY}`);
    await user.click(await screen.findByRole('link', { name: 'Not now' }, slow));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(storedKey()).toBeUndefined();
  });

  it('a lost connection keeps it, for another try', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(viewer()),
      'POST /api/auth/join': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    keep();
    renderApp(`/join-organization?key=${KEY}`);
    await user.click(await screen.findByRole('button', { name: 'Join organization' }, slow));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join organization' })).toBeInTheDocument();
    expect(storedKey()).toBe(KEY);
  });
});
