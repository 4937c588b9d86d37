import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../test/render-app';

describe('session endings', () => {
  it('a 409 body drops the token and user data, says so, and shows the login page', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('login_user_id', 'u1');
    localStorage.setItem('user_details', 'u1');
    mockApi({
      'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }),
      // The status that counts is the one in the body.
      'GET /api/user/profile': {
        status: 200,
        body: {
          status: 409,
          code: 'SESSION_REPLACED',
          message: 'You have been logged out: your account was signed in on another device or browser.',
        },
      },
    });
    const { router } = renderApp('/home');
    // The server's message says why.
    expect(
      await screen.findByText('You have been logged out: your account was signed in on another device or browser.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('login_user_id')).toBeNull();
    expect(localStorage.getItem('user_details')).toBeNull();
  });

  it('a 409 on any call (not only the user fetch) ends the session', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }),
      'GET /api/user/profile': ok(makeProfile()),
      // A bare 409 (from a proxy, say): only that the session ended.
      'POST /api/user/profile': { status: 409, body: 'Conflict' },
    });
    const { router } = renderApp('/profile');
    const name = await screen.findByLabelText('Name', {}, { timeout: 4000 });
    await user.type(name, 'x');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('You have been logged out')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a 401 with a token drops it and goes to /login', async () => {
    localStorage.setItem('token', 'stale');
    mockApi({
      'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }),
      'GET /api/user/profile': {
        status: 401,
        body: { status: 401, code: 'UNAUTHENTICATED', message: 'Please log in' },
      },
    });
    const { router } = renderApp('/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('/signout calls logout, shows the server message and returns to /login', async () => {
    localStorage.setItem('token', 'tok');
    const fetchMock = mockApi({
      'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }),
      'GET /api/user/profile': ok(makeProfile()),
      'POST /api/user/logout': ok(null, 'Logged out successfully'),
    });
    const { router } = renderApp('/signout');
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    const logoutCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/user/logout'));
    expect(new Headers(logoutCall?.[1]?.headers).get('authorization')).toBe('Bearer tok');
  });
});
